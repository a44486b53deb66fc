// carrier_b RPC methods for the line lifecycle: barring (suspend/resume), termination and
// reinstatement, SIM and number changes, balance adjustments and family (child) lines.

import { z } from 'zod';
import type { BalanceAdjustment, CarrierLifecycleMethods } from '../../../carriers/types.js';
import { defineMethod, type RpcMethod } from '../define-method.js';
import {
  dayEpochMs,
  dayFromEpochMs,
  encodeWifiCalling,
  iccid,
  imei,
  msisdn,
  nonEmpty,
  postCode,
  scope,
  unit,
  wifiCallingRequest,
} from '../wire.js';

const familyParams = z.object({
  ownerMsisdn: msisdn,
  ownerIccid: iccid,
  memberMsisdn: msisdn,
  memberIccid: iccid.optional(),
});

function childLine(params: z.output<typeof familyParams>, requestId: string) {
  return {
    transactionId: requestId,
    parentMdn: params.ownerMsisdn,
    parentSim: params.ownerIccid,
    childMdn: params.memberMsisdn,
    ...(params.memberIccid === undefined ? {} : { childSim: params.memberIccid }),
  };
}

const adjustment = z.object({ bundleId: nonEmpty, unit, delta: z.number().int(), expiresAt: dayEpochMs.optional() });

export const lifecycleMethods = {
  suspend: defineMethod(
    'Subscriber.Suspend',
    z.object({
      msisdn,
      scope,
      redirectTo: nonEmpty.optional(),
      chargeRedirect: z.boolean().optional(),
      note: nonEmpty.optional(),
    }),
    async (core, params, requestId) => {
      await core.suspend({
        transactionId: requestId,
        mdn: params.msisdn,
        ...(params.scope === undefined ? {} : { service: params.scope }),
        ...(params.redirectTo === undefined ? {} : { hotlineNumber: params.redirectTo }),
        ...(params.chargeRedirect === undefined ? {} : { hotlineChargeable: params.chargeRedirect }),
        ...(params.note === undefined ? {} : { reason: params.note }),
      });
      return { msisdn: params.msisdn, accepted: true };
    },
  ),

  restore: defineMethod('Subscriber.Resume', z.object({ msisdn, scope }), async (core, params, requestId) => {
    await core.restore({
      transactionId: requestId,
      mdn: params.msisdn,
      ...(params.scope === undefined ? {} : { service: params.scope }),
    });
    return { msisdn: params.msisdn, accepted: true };
  }),

  disconnect: defineMethod(
    'Subscriber.Terminate',
    z.object({ msisdn, iccid, confirmFinal: z.literal(true) }),
    async (core, params, requestId) => {
      const line = await core.disconnect({ transactionId: requestId, mdn: params.msisdn, sim: params.iccid });
      return { msisdn: line.mdn, iccid: line.sim };
    },
  ),

  reconnect: defineMethod(
    'Subscriber.Reinstate',
    z.object({
      msisdn,
      iccid,
      ratePlan: nonEmpty,
      postCode,
      costPlan: nonEmpty,
      wifiCalling: wifiCallingRequest.optional(),
    }),
    async (core, params, requestId) => {
      const result = await core.reconnect({
        transactionId: requestId,
        mdn: params.msisdn,
        sim: params.iccid,
        carrierPlanId: params.ratePlan,
        zipCode: params.postCode,
        billingCode: params.costPlan,
        ...(params.wifiCalling === undefined ? {} : { wfc: params.wifiCalling }),
      });
      return { msisdn: result.mdn, iccid: result.sim, ...encodeWifiCalling(result.wfc) };
    },
  ),

  swapSim: defineMethod(
    'Sim.Swap',
    z.object({ msisdn, fromIccid: iccid, toIccid: iccid }),
    async (core, params, requestId) => {
      const line = await core.swapSim({
        transactionId: requestId,
        mdn: params.msisdn,
        oldSim: params.fromIccid,
        newSim: params.toIccid,
      });
      return { msisdn: line.mdn, iccid: line.sim };
    },
  ),

  swapMdn: defineMethod(
    'Subscriber.ChangeNumber',
    z.object({ msisdn, iccid, postCode, imei: imei.optional() }),
    async (core, params, requestId) => {
      const result = await core.swapMdn({
        transactionId: requestId,
        mdn: params.msisdn,
        sim: params.iccid,
        zipCode: params.postCode,
        ...(params.imei === undefined ? {} : { imei: params.imei }),
      });
      return { previousMsisdn: result.mdn, msisdn: result.newMdn, iccid: result.sim };
    },
  ),

  adjustBalance: defineMethod(
    'Balance.Adjust',
    z.object({
      msisdn,
      bundleId: nonEmpty,
      unit: unit.optional(),
      delta: z.number().int().optional(),
      expiresAt: dayEpochMs.optional(),
    }),
    async (core, params, requestId) => {
      await core.adjustBalance({
        transactionId: requestId,
        mdn: params.msisdn,
        subscriptionId: params.bundleId,
        ...(params.unit === undefined ? {} : { uom: params.unit }),
        ...(params.delta === undefined ? {} : { amount: params.delta }),
        ...(params.expiresAt === undefined ? {} : { expiryDate: dayFromEpochMs(params.expiresAt) }),
      });
      return { msisdn: params.msisdn, accepted: true };
    },
  ),

  adjustBalances: defineMethod(
    'Balance.AdjustMany',
    z.object({ msisdn, adjustments: z.array(adjustment).min(1) }),
    async (core, params, requestId) => {
      const adjustments = params.adjustments.map((item): BalanceAdjustment => ({
        subscriptionId: item.bundleId,
        uom: item.unit,
        amount: item.delta,
        ...(item.expiresAt === undefined ? {} : { expiryDate: dayFromEpochMs(item.expiresAt) }),
      }));
      await core.adjustBalances({ transactionId: requestId, mdn: params.msisdn, adjustments });
      return { msisdn: params.msisdn, accepted: true };
    },
  ),

  addChildLine: defineMethod('Family.AttachMember', familyParams, async (core, params, requestId) => {
    await core.addChildLine(childLine(params, requestId));
    return { ownerMsisdn: params.ownerMsisdn, accepted: true };
  }),

  removeChildLine: defineMethod('Family.DetachMember', familyParams, async (core, params, requestId) => {
    await core.removeChildLine(childLine(params, requestId));
    return { ownerMsisdn: params.ownerMsisdn, accepted: true };
  }),
} satisfies Record<keyof CarrierLifecycleMethods, RpcMethod>;
