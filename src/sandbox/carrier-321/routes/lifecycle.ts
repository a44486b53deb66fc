// Carrier 321 sandbox routes: hotline and restore, deactivation and reactivation, SIM and
// number changes, balance adjustments and child lines.

import { z } from 'zod';
import type { CarrierLifecycleMethods, CarrierOperations } from '../../../carriers/types.js';
import type { SandboxRoute } from '../../http-kit.js';
import { decodeBody, decodeQuery, writeRoute } from '../routing.js';
import { ack, wfcToWire, wireScope, wireUnit, wireWfcRequest } from '../wire.js';

const hotlineBody = z.object({
  scope: wireScope.optional(),
  forward_to: z.string().optional(),
  billable: z.boolean().optional(),
  reason: z.string().optional(),
});
const deactivationBody = z.object({ iccid: z.string() });
const reactivationBody = z.object({
  iccid: z.string(),
  soc: z.string(),
  postal_code: z.string(),
  billing_code: z.string(),
  wfc: wireWfcRequest.optional(),
});
const simChangeBody = z.object({ current_iccid: z.string(), new_iccid: z.string() });
const msisdnChangeBody = z.object({ iccid: z.string(), postal_code: z.string(), imei: z.string().optional() });
const expiresOn = z.iso.date().optional();
const adjustmentBody = z.object({
  unit: wireUnit.optional(),
  amount: z.number().int().optional(),
  expires_on: expiresOn,
});
const adjustmentsBody = z.object({
  items: z.array(
    z.object({ purchase_ref: z.string(), unit: wireUnit, amount: z.number().int(), expires_on: expiresOn }),
  ),
});
const childLineBody = z.object({ parent_iccid: z.string(), msisdn: z.string(), iccid: z.string().optional() });

export function lifecycleRoutes(core: CarrierOperations) {
  return {
    suspend: writeRoute('POST', '/v1/subscribers/{msisdn}/hotline', async ({ param, body, transactionId }) => {
      const wire = decodeBody(hotlineBody, body);
      await core.suspend({
        transactionId,
        mdn: param('msisdn'),
        service: wire.scope,
        hotlineNumber: wire.forward_to,
        hotlineChargeable: wire.billable,
        reason: wire.reason,
      });
      return { status: 201, body: ack(param('msisdn')) };
    }),

    restore: writeRoute('DELETE', '/v1/subscribers/{msisdn}/hotline', async ({ param, query, transactionId }) => {
      const scope = decodeQuery(wireScope.optional(), query('scope'), 'scope');
      await core.restore({ transactionId, mdn: param('msisdn'), service: scope });
      return { status: 200, body: ack(param('msisdn')) };
    }),

    disconnect: writeRoute('POST', '/v1/subscribers/{msisdn}/deactivation', async ({ param, body, transactionId }) => {
      const wire = decodeBody(deactivationBody, body);
      const line = await core.disconnect({ transactionId, mdn: param('msisdn'), sim: wire.iccid });
      return { status: 200, body: { msisdn: line.mdn, iccid: line.sim, state: 'deactivated' } };
    }),

    reconnect: writeRoute('POST', '/v1/subscribers/{msisdn}/reactivation', async ({ param, body, transactionId }) => {
      const wire = decodeBody(reactivationBody, body);
      const result = await core.reconnect({
        transactionId,
        mdn: param('msisdn'),
        sim: wire.iccid,
        carrierPlanId: wire.soc,
        zipCode: wire.postal_code,
        billingCode: wire.billing_code,
        wfc: wire.wfc,
      });
      return {
        status: 200,
        body: { msisdn: result.mdn, iccid: result.sim, state: 'active', ...wfcToWire(result.wfc) },
      };
    }),

    swapSim: writeRoute('POST', '/v1/subscribers/{msisdn}/sim-change', async ({ param, body, transactionId }) => {
      const wire = decodeBody(simChangeBody, body);
      const line = await core.swapSim({
        transactionId,
        mdn: param('msisdn'),
        oldSim: wire.current_iccid,
        newSim: wire.new_iccid,
      });
      return { status: 200, body: { msisdn: line.mdn, iccid: line.sim } };
    }),

    swapMdn: writeRoute('POST', '/v1/subscribers/{msisdn}/msisdn-change', async ({ param, body, transactionId }) => {
      const wire = decodeBody(msisdnChangeBody, body);
      const result = await core.swapMdn({
        transactionId,
        mdn: param('msisdn'),
        sim: wire.iccid,
        zipCode: wire.postal_code,
        imei: wire.imei,
      });
      return { status: 200, body: { previous_msisdn: result.mdn, msisdn: result.newMdn, iccid: result.sim } };
    }),

    adjustBalance: writeRoute(
      'POST',
      '/v1/subscribers/{msisdn}/subscriptions/{purchase_ref}/adjustments',
      async ({ param, body, transactionId }) => {
        const wire = decodeBody(adjustmentBody, body);
        await core.adjustBalance({
          transactionId,
          mdn: param('msisdn'),
          subscriptionId: param('purchase_ref'),
          uom: wire.unit,
          amount: wire.amount,
          expiryDate: wire.expires_on,
        });
        return { status: 200, body: ack(param('msisdn')) };
      },
    ),

    adjustBalances: writeRoute(
      'POST',
      '/v1/subscribers/{msisdn}/balance-adjustments',
      async ({ param, body, transactionId }) => {
        const wire = decodeBody(adjustmentsBody, body);
        await core.adjustBalances({
          transactionId,
          mdn: param('msisdn'),
          adjustments: wire.items.map((item) => ({
            subscriptionId: item.purchase_ref,
            uom: item.unit,
            amount: item.amount,
            expiryDate: item.expires_on,
          })),
        });
        return { status: 200, body: ack(param('msisdn')) };
      },
    ),

    addChildLine: writeRoute('POST', '/v1/subscribers/{msisdn}/child-lines', async ({ param, body, transactionId }) => {
      const wire = decodeBody(childLineBody, body);
      await core.addChildLine({
        transactionId,
        parentMdn: param('msisdn'),
        parentSim: wire.parent_iccid,
        childMdn: wire.msisdn,
        childSim: wire.iccid,
      });
      return { status: 201, body: ack(param('msisdn')) };
    }),

    removeChildLine: writeRoute(
      'DELETE',
      '/v1/subscribers/{msisdn}/child-lines/{child_msisdn}',
      async ({ param, query, transactionId }) => {
        const parentSim = decodeQuery(z.string(), query('parent_iccid'), 'parent_iccid');
        await core.removeChildLine({
          transactionId,
          parentMdn: param('msisdn'),
          parentSim,
          childMdn: param('child_msisdn'),
          childSim: query('iccid'),
        });
        return { status: 200, body: ack(param('msisdn')) };
      },
    ),
  } satisfies Record<keyof CarrierLifecycleMethods, SandboxRoute>;
}
