// Carrier 321 sandbox routes: the extended operations only carrier 321 offers. A core built
// without them answers 404 (API-404) on these paths, like a carrier that never had them.

import { z } from 'zod';
import type { CarrierOperations, ExtendedCarrierOperations } from '../../../carriers/types.js';
import { SandboxNotFound, type SandboxRoute } from '../../http-kit.js';
import { decodeBody, decodeQuery, readRoute, writeRoute } from '../routing.js';
import { isoTimestamp, wirePhoneListOperation, wireState } from '../wire.js';

const addressBody = z.object({ street1: z.string(), city: z.string(), region: z.string(), postal_code: z.string() });
const messageBody = z.object({ text: z.string() });
const phoneListBody = z.object({ operation: wirePhoneListOperation, numbers: z.array(z.string()) });
const labelBody = z.object({ label: z.string() });
const deviceBody = z.object({ iccid: z.string(), imei: z.string() });

export function extendedRoutes(core: CarrierOperations) {
  const extended = (): ExtendedCarrierOperations => {
    if (!core.extended) throw new SandboxNotFound('This carrier does not offer the extended operations');
    return core.extended;
  };

  return {
    listAvailablePlans: readRoute('GET', '/v1/catalog/socs', async () => {
      const plans = await extended().listAvailablePlans();
      return { status: 200, body: { socs: plans.map((p) => ({ soc: p.soc, description: p.name })) } };
    }),

    validateAddress: readRoute('POST', '/v1/address-validations', async ({ body }) => {
      const wire = decodeBody(addressBody, body);
      const result = await extended().validateAddress({
        street1: wire.street1,
        city: wire.city,
        state: wire.region,
        zipCode: wire.postal_code,
      });
      const normalized = result.normalized && {
        street1: result.normalized.street1,
        city: result.normalized.city,
        region: result.normalized.state,
        postal_code: result.normalized.zipCode,
      };
      return { status: 200, body: { valid: result.valid, normalized } };
    }),

    getDeviceUnlockStatus: readRoute('GET', '/v1/devices/{imei}/unlock-status', async ({ param }) => {
      const status = await extended().getDeviceUnlockStatus(param('imei'));
      return {
        status: 200,
        body: { imei: status.imei, unlocked: status.unlocked, eligible: status.unlockEligible, reason: status.reason },
      };
    }),

    getAccount: readRoute('GET', '/v1/subscribers/{msisdn}/account', async ({ param }) => {
      const account = await extended().getAccount(param('msisdn'));
      const lines = account.lines.map((l) => ({
        msisdn: l.mdn,
        iccid: l.sim,
        state: wireState(l.lineStatus),
        label: l.label,
      }));
      return { status: 200, body: { account_ref: account.accountId, msisdn: account.mdn, lines } };
    }),

    getPoolUsage: readRoute('GET', '/v1/accounts/{account_ref}/data-pool', async ({ param }) => {
      const pool = await extended().getPoolUsage(param('account_ref'));
      const lines = pool.lines.map((l) => ({ msisdn: l.mdn, used_bytes: l.bytesUsed }));
      return {
        status: 200,
        body: { account_ref: pool.accountId, pool_bytes: pool.poolBytes, used_bytes: pool.usedBytes, lines },
      };
    }),

    getNumberGroups: readRoute('GET', '/v1/number-groups', async ({ query }) => {
      const postalCode = decodeQuery(z.string(), query('postal_code'), 'postal_code');
      const result = await extended().getNumberGroups(postalCode);
      const groups = result.groups.map((g) => ({
        npa: g.npa,
        nxx: g.nxx,
        city: g.city,
        region: g.state,
        available: g.available,
      }));
      return { status: 200, body: { postal_code: result.zipCode, groups } };
    }),

    getActivePlan: readRoute('GET', '/v1/subscribers/{msisdn}/plan', async ({ param }) => {
      const plan = await extended().getActivePlan(param('msisdn'));
      return {
        status: 200,
        body: { msisdn: plan.mdn, soc: plan.soc, name: plan.planName, effective_at: isoTimestamp(plan.effectiveDate) },
      };
    }),

    getImeiDetails: readRoute('GET', '/v1/devices/{imei}/details', async ({ param }) => {
      const device = await extended().getImeiDetails(param('imei'));
      return {
        status: 200,
        body: {
          imei: device.imei,
          make: device.manufacturer,
          model: device.model,
          marketing_name: device.marketingName,
          os: device.osName,
          capabilities: { esim: device.esimCapable, volte: device.volteCapable },
          blacklisted: device.blacklisted,
        },
      };
    }),

    getProducts: readRoute('GET', '/v1/subscribers/{msisdn}/products', async ({ param }) => {
      const list = await extended().getProducts(param('msisdn'));
      return {
        status: 200,
        body: {
          msisdn: list.mdn,
          products: list.products.map((p) => ({ soc: p.code, effective_on: p.effectiveDate })),
        },
      };
    }),

    // Window bounds go to the core as sent: it accepts ISO 8601 and rejects what it cannot read.
    getCustomerImpactingEvents: readRoute('GET', '/v1/network-events', async ({ query }) => {
      const events = await extended().getCustomerImpactingEvents({ startTime: query('from'), endTime: query('until') });
      return {
        status: 200,
        body: {
          events: events.map((e) => ({
            event_ref: e.eventId,
            category: e.category,
            description: e.description,
            postal_codes: e.zipCodes,
            started_at: isoTimestamp(e.startTime),
            ended_at: e.endTime === null ? null : isoTimestamp(e.endTime),
          })),
        },
      };
    }),

    sendSms: writeRoute('POST', '/v1/subscribers/{msisdn}/messages', async ({ param, body, transactionId }) => {
      const wire = decodeBody(messageBody, body);
      const sent = await extended().sendSms({ transactionId, mdn: param('msisdn'), message: wire.text });
      return { status: 201, body: { msisdn: sent.mdn, message_ref: sent.messageId } };
    }),

    managePhoneList: writeRoute(
      'POST',
      '/v1/subscribers/{msisdn}/phone-list',
      async ({ param, body, transactionId }) => {
        const wire = decodeBody(phoneListBody, body);
        const list = await extended().managePhoneList({
          transactionId,
          mdn: param('msisdn'),
          action: wire.operation,
          numbers: wire.numbers,
        });
        return { status: 200, body: { msisdn: list.mdn, allow_list: list.allowed, block_list: list.blocked } };
      },
    ),

    setLabel: writeRoute('PATCH', '/v1/subscribers/{msisdn}', async ({ param, body, transactionId }) => {
      const wire = decodeBody(labelBody, body);
      const result = await extended().setLabel({ transactionId, mdn: param('msisdn'), label: wire.label });
      return { status: 200, body: { msisdn: result.mdn, label: result.label } };
    }),

    changeImei: writeRoute('PUT', '/v1/subscribers/{msisdn}/device', async ({ param, body, transactionId }) => {
      const wire = decodeBody(deviceBody, body);
      const result = await extended().changeImei({
        transactionId,
        mdn: param('msisdn'),
        sim: wire.iccid,
        newImei: wire.imei,
      });
      return { status: 200, body: { msisdn: result.mdn, iccid: result.sim, imei: result.imei } };
    }),
  } satisfies Record<keyof ExtendedCarrierOperations, SandboxRoute>;
}
