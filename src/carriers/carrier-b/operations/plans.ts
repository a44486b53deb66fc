// carrier_b adapter methods for tariffs: plan change, add-on purchase and cancellation, and
// the wholesale cost plan (billing code).

import type { CarrierOperations } from '../../types.js';
import { decodeWifiCalling, encodeWifiCalling } from '../codec.js';
import type { RpcClient } from '../rpc-client.js';
import { accepted, addonOrder, addonPurchase, planChanged } from '../wire-schemas.js';

type PlanOperations = Pick<CarrierOperations, 'changePlan' | 'purchasePlan' | 'cancelPurchase' | 'changeBillingCode'>;

export function planOperations(rpc: RpcClient): PlanOperations {
  return {
    async changePlan(request) {
      const params = { msisdn: request.mdn, iccid: request.sim, ratePlan: request.carrierPlanId, wifiCalling: encodeWifiCalling(request.wfc) };
      const result = await rpc.write('Tariff.Change', request.transactionId, params, planChanged);
      return { mdn: result.msisdn, ...decodeWifiCalling(result.wifiCalling) };
    },

    async purchasePlan(request) {
      const params = { msisdn: request.mdn, ratePlan: request.carrierPlanId, wifiCalling: encodeWifiCalling(request.wfc) };
      const order = await rpc.write('Tariff.PurchaseAddon', request.transactionId, params, addonPurchase);
      // PurchaseResult has no WFC outcome; it is passed along (as `wfc`) for callers that want it.
      return { mdn: order.msisdn, purchaseId: order.orderId, ...decodeWifiCalling(order.wifiCalling) };
    },

    async cancelPurchase(request) {
      const params = { msisdn: request.mdn, orderId: request.purchaseId };
      const order = await rpc.write('Tariff.CancelAddon', request.transactionId, params, addonOrder);
      return { mdn: order.msisdn, purchaseId: order.orderId };
    },

    async changeBillingCode(request) {
      await rpc.write('Billing.SetCostPlan', request.transactionId, { msisdn: request.mdn, costPlan: request.billingCode }, accepted);
    },
  };
}
