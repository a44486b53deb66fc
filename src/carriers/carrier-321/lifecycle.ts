// Carrier 321 adapter: the line lifecycle (hotline and restore, deactivation and
// reactivation, SIM and number changes, balance adjustments, child lines).

import { z } from 'zod';
import type { CarrierLifecycleMethods, ReconnectResult, SwapMdnResult } from '../types.js';
import { toWireScope, toWireWfc, wireAck, wireLineRef, wireWfcOutcome } from './codec.js';
import { wirePath, type Carrier321Transport } from './transport.js';

const reactivation = z
  .object({ msisdn: z.string(), iccid: z.string(), wfc: wireWfcOutcome.optional() })
  .transform((w): ReconnectResult => ({ mdn: w.msisdn, sim: w.iccid, ...(w.wfc === undefined ? {} : { wfc: w.wfc }) }));

const msisdnChange = z
  .object({ previous_msisdn: z.string(), msisdn: z.string(), iccid: z.string() })
  .transform((w): SwapMdnResult => ({ mdn: w.previous_msisdn, newMdn: w.msisdn, sim: w.iccid }));

export function lifecycleOperations(transport: Carrier321Transport) {
  return {
    suspend: (request) =>
      transport.write(request.transactionId, {
        method: 'POST',
        path: wirePath`v1/subscribers/${request.mdn}/hotline`,
        json: {
          scope: toWireScope(request.service),
          forward_to: request.hotlineNumber,
          billable: request.hotlineChargeable,
          reason: request.reason,
        },
        schema: wireAck,
      }),

    restore: (request) =>
      transport.write(request.transactionId, {
        method: 'DELETE',
        path: wirePath`v1/subscribers/${request.mdn}/hotline`,
        searchParams: { scope: toWireScope(request.service) },
        schema: wireAck,
      }),

    disconnect: (request) =>
      transport.write(request.transactionId, {
        method: 'POST',
        path: wirePath`v1/subscribers/${request.mdn}/deactivation`,
        json: { iccid: request.sim },
        schema: wireLineRef,
      }),

    reconnect: (request) =>
      transport.write(request.transactionId, {
        method: 'POST',
        path: wirePath`v1/subscribers/${request.mdn}/reactivation`,
        json: {
          iccid: request.sim,
          soc: request.carrierPlanId,
          postal_code: request.zipCode,
          billing_code: request.billingCode,
          ...toWireWfc(request.wfc),
        },
        schema: reactivation,
      }),

    swapSim: (request) =>
      transport.write(request.transactionId, {
        method: 'POST',
        path: wirePath`v1/subscribers/${request.mdn}/sim-change`,
        json: { current_iccid: request.oldSim, new_iccid: request.newSim },
        schema: wireLineRef,
      }),

    swapMdn: (request) =>
      transport.write(request.transactionId, {
        method: 'POST',
        path: wirePath`v1/subscribers/${request.mdn}/msisdn-change`,
        json: { iccid: request.sim, postal_code: request.zipCode, imei: request.imei },
        schema: msisdnChange,
      }),

    adjustBalance: (request) =>
      transport.write(request.transactionId, {
        method: 'POST',
        path: wirePath`v1/subscribers/${request.mdn}/subscriptions/${request.subscriptionId}/adjustments`,
        json: { unit: request.uom, amount: request.amount, expires_on: request.expiryDate },
        schema: wireAck,
      }),

    adjustBalances: (request) =>
      transport.write(request.transactionId, {
        method: 'POST',
        path: wirePath`v1/subscribers/${request.mdn}/balance-adjustments`,
        json: {
          items: request.adjustments.map((a) => ({
            purchase_ref: a.subscriptionId,
            unit: a.uom,
            amount: a.amount,
            expires_on: a.expiryDate,
          })),
        },
        schema: wireAck,
      }),

    addChildLine: (request) =>
      transport.write(request.transactionId, {
        method: 'POST',
        path: wirePath`v1/subscribers/${request.parentMdn}/child-lines`,
        json: { parent_iccid: request.parentSim, msisdn: request.childMdn, iccid: request.childSim },
        schema: wireAck,
      }),

    removeChildLine: (request) =>
      transport.write(request.transactionId, {
        method: 'DELETE',
        path: wirePath`v1/subscribers/${request.parentMdn}/child-lines/${request.childMdn}`,
        searchParams: { parent_iccid: request.parentSim, iccid: request.childSim },
        schema: wireAck,
      }),
  } satisfies CarrierLifecycleMethods;
}
