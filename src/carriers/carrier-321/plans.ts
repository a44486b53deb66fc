// Carrier 321 adapter: plan management (plan change, add-on purchases, wholesale billing code).

import { z } from 'zod';
import type { CarrierPlanMethods, ChangePlanResult, PurchaseResult } from '../types.js';
import { toWireWfc, wireAck, wireWfcOutcome } from './codec.js';
import { wirePath, type Carrier321Transport } from './transport.js';

const planChange = z
  .object({ msisdn: z.string(), soc: z.string(), wfc: wireWfcOutcome.optional() })
  .transform((w): ChangePlanResult => ({ mdn: w.msisdn, ...(w.wfc === undefined ? {} : { wfc: w.wfc }) }));

const purchase = z
  .object({ msisdn: z.string(), purchase_ref: z.string(), wfc: wireWfcOutcome.optional() })
  .transform((w): PurchaseResult => ({
    mdn: w.msisdn,
    purchaseId: w.purchase_ref,
    ...(w.wfc === undefined ? {} : { wfc: w.wfc }),
  }));

export function planOperations(transport: Carrier321Transport) {
  return {
    changePlan: (request) =>
      transport.write(request.transactionId, {
        method: 'PUT',
        path: wirePath`v1/subscribers/${request.mdn}/plan`,
        json: { soc: request.carrierPlanId, iccid: request.sim, ...toWireWfc(request.wfc) },
        schema: planChange,
      }),

    purchasePlan: (request) =>
      transport.write(request.transactionId, {
        method: 'POST',
        path: wirePath`v1/subscribers/${request.mdn}/purchases`,
        json: { soc: request.carrierPlanId, ...toWireWfc(request.wfc) },
        schema: purchase,
      }),

    cancelPurchase: (request) =>
      transport.write(request.transactionId, {
        method: 'DELETE',
        path: wirePath`v1/subscribers/${request.mdn}/purchases/${request.purchaseId}`,
        schema: purchase,
      }),

    changeBillingCode: (request) =>
      transport.write(request.transactionId, {
        method: 'PUT',
        path: wirePath`v1/subscribers/${request.mdn}/billing-code`,
        json: { billing_code: request.billingCode },
        schema: wireAck,
      }),
  } satisfies CarrierPlanMethods;
}
