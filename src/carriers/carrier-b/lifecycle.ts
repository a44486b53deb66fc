// carrier_b adapter: the line lifecycle (barring and resuming, termination and reinstatement,
// SIM and number changes, balance adjustments, family (child) lines).

import { z } from 'zod';
import type { CarrierLifecycleMethods, ChildLineRequest, ReconnectResult, SwapMdnResult } from '../types.js';
import {
  toWireDay,
  toWireScope,
  toWireUnit,
  toWireWifiCalling,
  wireAccepted,
  wireFamilyAccepted,
  wireLineRef,
  wireText,
  wireWifiCallingOutcome,
} from './codec.js';
import type { CarrierBTransport } from './transport.js';

const reinstated = z
  .object({ msisdn: wireText, iccid: wireText, wifiCalling: wireWifiCallingOutcome.optional() })
  .transform((w): ReconnectResult => ({
    mdn: w.msisdn,
    sim: w.iccid,
    ...(w.wifiCalling === undefined ? {} : { wfc: w.wifiCalling }),
  }));

const numberChanged = z
  .object({ previousMsisdn: wireText, msisdn: wireText, iccid: wireText })
  .transform((w): SwapMdnResult => ({ mdn: w.previousMsisdn, newMdn: w.msisdn, sim: w.iccid }));

function familyParams(request: ChildLineRequest): Record<string, unknown> {
  return {
    ownerMsisdn: request.parentMdn,
    ownerIccid: request.parentSim,
    memberMsisdn: request.childMdn,
    memberIccid: request.childSim,
  };
}

export function lifecycleOperations(transport: CarrierBTransport) {
  return {
    suspend: (request) =>
      transport.write(request.transactionId, {
        method: 'Subscriber.Suspend',
        params: {
          msisdn: request.mdn,
          scope: toWireScope(request.service),
          redirectTo: request.hotlineNumber,
          chargeRedirect: request.hotlineChargeable,
          note: request.reason,
        },
        schema: wireAccepted,
      }),

    restore: (request) =>
      transport.write(request.transactionId, {
        method: 'Subscriber.Resume',
        params: { msisdn: request.mdn, scope: toWireScope(request.service) },
        schema: wireAccepted,
      }),

    disconnect: (request) =>
      transport.write(request.transactionId, {
        method: 'Subscriber.Terminate',
        params: { msisdn: request.mdn, iccid: request.sim, confirmFinal: true },
        schema: wireLineRef,
      }),

    reconnect: (request) =>
      transport.write(request.transactionId, {
        method: 'Subscriber.Reinstate',
        params: {
          msisdn: request.mdn,
          iccid: request.sim,
          ratePlan: request.carrierPlanId,
          postCode: request.zipCode,
          costPlan: request.billingCode,
          ...toWireWifiCalling(request.wfc),
        },
        schema: reinstated,
      }),

    swapSim: (request) =>
      transport.write(request.transactionId, {
        method: 'Sim.Swap',
        params: { msisdn: request.mdn, fromIccid: request.oldSim, toIccid: request.newSim },
        schema: wireLineRef,
      }),

    swapMdn: (request) =>
      transport.write(request.transactionId, {
        method: 'Subscriber.ChangeNumber',
        params: { msisdn: request.mdn, iccid: request.sim, postCode: request.zipCode, imei: request.imei },
        schema: numberChanged,
      }),

    // async so that an unreadable expiry day (toWireDay throws) is a rejected call, like any other failure.
    adjustBalance: async (request) =>
      transport.write(request.transactionId, {
        method: 'Balance.Adjust',
        params: {
          msisdn: request.mdn,
          bundleId: request.subscriptionId,
          unit: request.uom === undefined ? undefined : toWireUnit(request.uom),
          delta: request.amount,
          expiresAt: toWireDay(request.expiryDate),
        },
        schema: wireAccepted,
      }),

    adjustBalances: async (request) =>
      transport.write(request.transactionId, {
        method: 'Balance.AdjustMany',
        params: {
          msisdn: request.mdn,
          adjustments: request.adjustments.map((a) => ({
            bundleId: a.subscriptionId,
            unit: toWireUnit(a.uom),
            delta: a.amount,
            expiresAt: toWireDay(a.expiryDate),
          })),
        },
        schema: wireAccepted,
      }),

    addChildLine: (request) =>
      transport.write(request.transactionId, {
        method: 'Family.AttachMember',
        params: familyParams(request),
        schema: wireFamilyAccepted,
      }),

    removeChildLine: (request) =>
      transport.write(request.transactionId, {
        method: 'Family.DetachMember',
        params: familyParams(request),
        schema: wireFamilyAccepted,
      }),
  } satisfies CarrierLifecycleMethods;
}
