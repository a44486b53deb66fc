// Carrier 321 sandbox routes: plan change, add-on purchases and the wholesale billing code.

import { z } from 'zod';
import type { CarrierPlanMethods, CarrierOperations } from '../../../carriers/types.js';
import type { SandboxRoute } from '../../http-kit.js';
import { decodeBody, writeRoute } from '../routing.js';
import { ack, wfcToWire, wireWfcRequest } from '../wire.js';

const planBody = z.object({ soc: z.string(), iccid: z.string().optional(), wfc: wireWfcRequest.optional() });
const purchaseBody = z.object({ soc: z.string(), wfc: wireWfcRequest.optional() });
const billingCodeBody = z.object({ billing_code: z.string() });

export function planRoutes(core: CarrierOperations) {
  return {
    changePlan: writeRoute('PUT', '/v1/subscribers/{msisdn}/plan', async ({ param, body, transactionId }) => {
      const wire = decodeBody(planBody, body);
      const result = await core.changePlan({
        transactionId,
        mdn: param('msisdn'),
        sim: wire.iccid,
        carrierPlanId: wire.soc,
        wfc: wire.wfc,
      });
      return { status: 200, body: { msisdn: result.mdn, soc: wire.soc, ...wfcToWire(result.wfc) } };
    }),

    purchasePlan: writeRoute('POST', '/v1/subscribers/{msisdn}/purchases', async ({ param, body, transactionId }) => {
      const wire = decodeBody(purchaseBody, body);
      const result = await core.purchasePlan({
        transactionId,
        mdn: param('msisdn'),
        carrierPlanId: wire.soc,
        wfc: wire.wfc,
      });
      return {
        status: 201,
        body: {
          msisdn: result.mdn,
          purchase_ref: result.purchaseId,
          soc: wire.soc,
          state: 'active',
          ...wfcToWire(result.wfc),
        },
      };
    }),

    cancelPurchase: writeRoute(
      'DELETE',
      '/v1/subscribers/{msisdn}/purchases/{purchase_ref}',
      async ({ param, transactionId }) => {
        const result = await core.cancelPurchase({
          transactionId,
          mdn: param('msisdn'),
          purchaseId: param('purchase_ref'),
        });
        return { status: 200, body: { msisdn: result.mdn, purchase_ref: result.purchaseId, state: 'cancelled' } };
      },
    ),

    changeBillingCode: writeRoute(
      'PUT',
      '/v1/subscribers/{msisdn}/billing-code',
      async ({ param, body, transactionId }) => {
        const wire = decodeBody(billingCodeBody, body);
        await core.changeBillingCode({ transactionId, mdn: param('msisdn'), billingCode: wire.billing_code });
        return { status: 200, body: ack(param('msisdn')) };
      },
    ),
  } satisfies Record<keyof CarrierPlanMethods, SandboxRoute>;
}
