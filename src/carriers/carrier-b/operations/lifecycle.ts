// carrier_b adapter methods for the line lifecycle: barring, termination, reinstatement, SIM
// and number changes, balance adjustments and family (child) lines.

import type { CarrierOperations, ChildLineRequest } from '../../types.js';
import { decodeWifiCalling, encodeDay, encodeScope, encodeUnit, encodeWifiCalling } from '../codec.js';
import type { RpcClient } from '../rpc-client.js';
import { accepted, familyAccepted, lineRef, lineRefWithWifiCalling, numberChanged } from '../wire-schemas.js';

type LifecycleOperations = Pick<
  CarrierOperations,
  'suspend' | 'restore' | 'disconnect' | 'reconnect' | 'swapSim' | 'swapMdn' | 'adjustBalance' | 'adjustBalances' | 'addChildLine' | 'removeChildLine'
>;

function familyParams(request: ChildLineRequest): Record<string, unknown> {
  return { ownerMsisdn: request.parentMdn, ownerIccid: request.parentSim, memberMsisdn: request.childMdn, memberIccid: request.childSim };
}

export function lifecycleOperations(rpc: RpcClient): LifecycleOperations {
  return {
    async suspend(request) {
      const params = {
        msisdn: request.mdn,
        scope: encodeScope(request.service),
        redirectTo: request.hotlineNumber,
        chargeRedirect: request.hotlineChargeable,
        note: request.reason,
      };
      await rpc.write('Subscriber.Suspend', request.transactionId, params, accepted);
    },

    async restore(request) {
      await rpc.write('Subscriber.Resume', request.transactionId, { msisdn: request.mdn, scope: encodeScope(request.service) }, accepted);
    },

    async disconnect(request) {
      const params = { msisdn: request.mdn, iccid: request.sim, confirmFinal: true };
      const line = await rpc.write('Subscriber.Terminate', request.transactionId, params, lineRef);
      return { mdn: line.msisdn, sim: line.iccid };
    },

    async reconnect(request) {
      const params = {
        msisdn: request.mdn,
        iccid: request.sim,
        ratePlan: request.carrierPlanId,
        postCode: request.zipCode,
        costPlan: request.billingCode,
        wifiCalling: encodeWifiCalling(request.wfc),
      };
      const result = await rpc.write('Subscriber.Reinstate', request.transactionId, params, lineRefWithWifiCalling);
      return { mdn: result.msisdn, sim: result.iccid, ...decodeWifiCalling(result.wifiCalling) };
    },

    async swapSim(request) {
      const params = { msisdn: request.mdn, fromIccid: request.oldSim, toIccid: request.newSim };
      const line = await rpc.write('Sim.Swap', request.transactionId, params, lineRef);
      return { mdn: line.msisdn, sim: line.iccid };
    },

    async swapMdn(request) {
      const params = { msisdn: request.mdn, iccid: request.sim, postCode: request.zipCode, imei: request.imei };
      const result = await rpc.write('Subscriber.ChangeNumber', request.transactionId, params, numberChanged);
      return { mdn: result.previousMsisdn, newMdn: result.msisdn, sim: result.iccid };
    },

    async adjustBalance(request) {
      const params = {
        msisdn: request.mdn,
        bundleId: request.subscriptionId,
        unit: request.uom === undefined ? undefined : encodeUnit(request.uom),
        delta: request.amount,
        expiresAt: encodeDay(request.expiryDate),
      };
      await rpc.write('Balance.Adjust', request.transactionId, params, accepted);
    },

    async adjustBalances(request) {
      const adjustments = request.adjustments.map((item) => ({
        bundleId: item.subscriptionId,
        unit: encodeUnit(item.uom),
        delta: item.amount,
        expiresAt: encodeDay(item.expiryDate),
      }));
      await rpc.write('Balance.AdjustMany', request.transactionId, { msisdn: request.mdn, adjustments }, accepted);
    },

    async addChildLine(request) {
      await rpc.write('Family.AttachMember', request.transactionId, familyParams(request), familyAccepted);
    },

    async removeChildLine(request) {
      await rpc.write('Family.DetachMember', request.transactionId, familyParams(request), familyAccepted);
    },
  };
}
