// carrier_b RPC methods for tariffs: plan change, add-on purchase and cancellation, and the
// wholesale cost plan (billing code).

import { z } from 'zod';
import type { WfcOutcome } from '../../../carriers/types.js';
import { defineMethod, type RpcMethod } from '../define-method.js';
import { encodeWifiCalling, iccid, msisdn, nonEmpty, wifiCallingRequest } from '../wire.js';

export const planMethods: Record<string, RpcMethod> = {
  'Tariff.Change': defineMethod(
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

  'Tariff.PurchaseAddon': defineMethod(
    z.object({ msisdn, ratePlan: nonEmpty, wifiCalling: wifiCallingRequest.optional() }),
    async (core, params, requestId) => {
      const result = await core.purchasePlan({
        transactionId: requestId,
        mdn: params.msisdn,
        carrierPlanId: params.ratePlan,
        ...(params.wifiCalling === undefined ? {} : { wfc: params.wifiCalling }),
      });
      // The domain's PurchaseResult has no WFC outcome, but the core reports one when WFC
      // was asked for; the wire carries it so a gateway that wants it can have it.
      const wfc = (result as { wfc?: WfcOutcome }).wfc;
      return { msisdn: result.mdn, orderId: result.purchaseId, ...encodeWifiCalling(wfc) };
    },
  ),

  'Tariff.CancelAddon': defineMethod(z.object({ msisdn, orderId: nonEmpty }), async (core, params, requestId) => {
    const result = await core.cancelPurchase({ transactionId: requestId, mdn: params.msisdn, purchaseId: params.orderId });
    return { msisdn: result.mdn, orderId: result.purchaseId };
  }),

  'Billing.SetCostPlan': defineMethod(z.object({ msisdn, costPlan: nonEmpty }), async (core, params, requestId) => {
    await core.changeBillingCode({ transactionId: requestId, mdn: params.msisdn, billingCode: params.costPlan });
    return { msisdn: params.msisdn, accepted: true };
  }),
};
