// carrier_b RPC methods for tariffs: plan change, add-on purchase and cancellation, and the
// wholesale cost plan (billing code).

import { z } from 'zod';
import type { CarrierPlanMethods } from '../../../carriers/types.js';
import { defineMethod, type RpcMethod } from '../define-method.js';
import { encodeWifiCalling, iccid, msisdn, nonEmpty, wifiCallingRequest } from '../wire.js';

export const planMethods = {
  changePlan: defineMethod(
    'Tariff.Change',
    z.object({ msisdn, iccid: iccid.optional(), ratePlan: nonEmpty, wifiCalling: wifiCallingRequest.optional() }),
    async (core, params, requestId) => {
      const result = await core.changePlan({
        transactionId: requestId,
        mdn: params.msisdn,
        ...(params.iccid === undefined ? {} : { sim: params.iccid }),
        carrierPlanId: params.ratePlan,
        ...(params.wifiCalling === undefined ? {} : { wfc: params.wifiCalling }),
      });
      return { msisdn: result.mdn, ...encodeWifiCalling(result.wfc) };
    },
  ),

  purchasePlan: defineMethod(
    'Tariff.PurchaseAddon',
    z.object({ msisdn, ratePlan: nonEmpty, wifiCalling: wifiCallingRequest.optional() }),
    async (core, params, requestId) => {
      const result = await core.purchasePlan({
        transactionId: requestId,
        mdn: params.msisdn,
        carrierPlanId: params.ratePlan,
        ...(params.wifiCalling === undefined ? {} : { wfc: params.wifiCalling }),
      });
      return { msisdn: result.mdn, orderId: result.purchaseId, ...encodeWifiCalling(result.wfc) };
    },
  ),

  cancelPurchase: defineMethod(
    'Tariff.CancelAddon',
    z.object({ msisdn, orderId: nonEmpty }),
    async (core, params, requestId) => {
      const result = await core.cancelPurchase({
        transactionId: requestId,
        mdn: params.msisdn,
        purchaseId: params.orderId,
      });
      return { msisdn: result.mdn, orderId: result.purchaseId };
    },
  ),

  changeBillingCode: defineMethod(
    'Billing.SetCostPlan',
    z.object({ msisdn, costPlan: nonEmpty }),
    async (core, params, requestId) => {
      await core.changeBillingCode({ transactionId: requestId, mdn: params.msisdn, billingCode: params.costPlan });
      return { msisdn: params.msisdn, accepted: true };
    },
  ),
} satisfies Record<keyof CarrierPlanMethods, RpcMethod>;
