// carrier_b adapter: tariffs (plan change, add-on purchase and cancellation, the wholesale cost
// plan that is the gateway's billing code).

import { z } from 'zod';
import type { CarrierPlanMethods, ChangePlanResult, PurchaseResult } from '../types.js';
import { toWireWifiCalling, wireAccepted, wireText, wireWifiCallingOutcome } from './codec.js';
import type { CarrierBTransport } from './transport.js';

const planChanged = z
  .object({ msisdn: wireText, wifiCalling: wireWifiCallingOutcome.optional() })
  .transform((w): ChangePlanResult => ({
    mdn: w.msisdn,
    ...(w.wifiCalling === undefined ? {} : { wfc: w.wifiCalling }),
  }));

const addonPurchased = z
  .object({ msisdn: wireText, orderId: wireText, wifiCalling: wireWifiCallingOutcome.optional() })
  .transform((w): PurchaseResult => ({
    mdn: w.msisdn,
    purchaseId: w.orderId,
    ...(w.wifiCalling === undefined ? {} : { wfc: w.wifiCalling }),
  }));

/** A cancellation never reports Wi-Fi Calling. */
const addonCancelled = z
  .object({ msisdn: wireText, orderId: wireText })
  .transform((w): PurchaseResult => ({ mdn: w.msisdn, purchaseId: w.orderId }));

export function planOperations(transport: CarrierBTransport) {
  return {
    changePlan: (request) =>
      transport.write(request.transactionId, {
        method: 'Tariff.Change',
        params: {
          msisdn: request.mdn,
          iccid: request.sim,
          ratePlan: request.carrierPlanId,
          ...toWireWifiCalling(request.wfc),
        },
        schema: planChanged,
      }),

    purchasePlan: (request) =>
      transport.write(request.transactionId, {
        method: 'Tariff.PurchaseAddon',
        params: { msisdn: request.mdn, ratePlan: request.carrierPlanId, ...toWireWifiCalling(request.wfc) },
        schema: addonPurchased,
      }),

    cancelPurchase: (request) =>
      transport.write(request.transactionId, {
        method: 'Tariff.CancelAddon',
        params: { msisdn: request.mdn, orderId: request.purchaseId },
        schema: addonCancelled,
      }),

    changeBillingCode: (request) =>
      transport.write(request.transactionId, {
        method: 'Billing.SetCostPlan',
        params: { msisdn: request.mdn, costPlan: request.billingCode },
        schema: wireAccepted,
      }),
  } satisfies CarrierPlanMethods;
}
