// Carrier 321 adapter: the extended operations only this carrier offers (catalogue, address
// validation, unlock status, accounts and data pools, number groups, products, network
// events, SMS, phone lists, labels, device changes).

import { z } from 'zod';
import type {
  AccountInfo,
  ActivePlan,
  AddressToValidate,
  AddressValidation,
  CarrierPlanCode,
  CustomerImpactingEvent,
  DeviceUnlockStatus,
  ExtendedCarrierOperations,
  ImeiDetails,
  NumberGroups,
  PhoneList,
  PhoneListAction,
  PoolUsage,
  ProductList,
} from '../types.js';
import { toWireTimestamp, wireLineState, wireServiceCode, wireTimestamp } from './codec.js';
import { wirePath, type Carrier321Transport } from './transport.js';

const catalog = z
  .object({ socs: z.array(z.object({ soc: z.string(), description: z.string() })) })
  .transform((w): CarrierPlanCode[] => w.socs.map((s) => ({ soc: s.soc, name: s.description })));

const wireAddress = z
  .object({ street1: z.string(), city: z.string(), region: z.string(), postal_code: z.string() })
  .transform((w): AddressToValidate => ({ street1: w.street1, city: w.city, state: w.region, zipCode: w.postal_code }));

const addressValidation = z
  .object({ valid: z.boolean(), normalized: wireAddress.nullable() })
  .transform((w): AddressValidation => ({ valid: w.valid, normalized: w.normalized }));

const unlockStatus = z
  .object({ imei: z.string(), unlocked: z.boolean(), eligible: z.boolean(), reason: z.string().nullable() })
  .transform((w): DeviceUnlockStatus => ({
    imei: w.imei,
    unlocked: w.unlocked,
    unlockEligible: w.eligible,
    reason: w.reason,
  }));

const account = z
  .object({
    account_ref: z.string(),
    msisdn: z.string(),
    lines: z.array(
      z.object({ msisdn: z.string(), iccid: z.string(), state: wireLineState, label: z.string().nullable() }),
    ),
  })
  .transform((w): AccountInfo => ({
    accountId: w.account_ref,
    mdn: w.msisdn,
    lines: w.lines.map((l) => ({ mdn: l.msisdn, sim: l.iccid, lineStatus: l.state, label: l.label })),
  }));

const dataPool = z
  .object({
    account_ref: z.string(),
    pool_bytes: z.number(),
    used_bytes: z.number(),
    lines: z.array(z.object({ msisdn: z.string(), used_bytes: z.number() })),
  })
  .transform((w): PoolUsage => ({
    accountId: w.account_ref,
    poolBytes: w.pool_bytes,
    usedBytes: w.used_bytes,
    lines: w.lines.map((l) => ({ mdn: l.msisdn, bytesUsed: l.used_bytes })),
  }));

const numberGroups = z
  .object({
    postal_code: z.string(),
    groups: z.array(
      z.object({ npa: z.string(), nxx: z.string(), city: z.string(), region: z.string(), available: z.number() }),
    ),
  })
  .transform((w): NumberGroups => ({
    zipCode: w.postal_code,
    groups: w.groups.map((g) => ({ npa: g.npa, nxx: g.nxx, city: g.city, state: g.region, available: g.available })),
  }));

const activePlan = z
  .object({ msisdn: z.string(), soc: z.string(), name: z.string(), effective_at: wireTimestamp })
  .transform((w): ActivePlan => ({ mdn: w.msisdn, soc: w.soc, planName: w.name, effectiveDate: w.effective_at }));

const imeiDetails = z
  .object({
    imei: z.string(),
    make: z.string(),
    model: z.string(),
    marketing_name: z.string(),
    os: z.string(),
    capabilities: z.object({ esim: z.boolean(), volte: z.boolean() }),
    blacklisted: z.boolean(),
  })
  .transform((w): ImeiDetails => ({
    imei: w.imei,
    manufacturer: w.make,
    model: w.model,
    marketingName: w.marketing_name,
    osName: w.os,
    esimCapable: w.capabilities.esim,
    volteCapable: w.capabilities.volte,
    blacklisted: w.blacklisted,
  }));

const products = z
  .object({ msisdn: z.string(), products: z.array(wireServiceCode) })
  .transform((w): ProductList => ({ mdn: w.msisdn, products: w.products }));

const networkEvents = z
  .object({
    events: z.array(
      z.object({
        event_ref: z.string(),
        category: z.string(),
        description: z.string(),
        postal_codes: z.array(z.string()),
        started_at: wireTimestamp,
        ended_at: wireTimestamp.nullable(),
      }),
    ),
  })
  .transform((w): CustomerImpactingEvent[] =>
    w.events.map((e) => ({
      eventId: e.event_ref,
      category: e.category,
      description: e.description,
      zipCodes: e.postal_codes,
      startTime: e.started_at,
      endTime: e.ended_at,
    })),
  );

const message = z
  .object({ msisdn: z.string(), message_ref: z.string() })
  .transform((w) => ({ mdn: w.msisdn, messageId: w.message_ref }));

const PHONE_LIST_OPERATIONS = {
  add: 'allow',
  remove: 'disallow',
  block: 'block',
  unblock: 'unblock',
} as const satisfies Record<PhoneListAction, string>;

const phoneList = z
  .object({ msisdn: z.string(), allow_list: z.array(z.string()), block_list: z.array(z.string()) })
  .transform((w): PhoneList => ({ mdn: w.msisdn, allowed: w.allow_list, blocked: w.block_list }));

const label = z.object({ msisdn: z.string(), label: z.string() }).transform((w) => ({ mdn: w.msisdn, label: w.label }));

const device = z
  .object({ msisdn: z.string(), iccid: z.string(), imei: z.string() })
  .transform((w) => ({ mdn: w.msisdn, sim: w.iccid, imei: w.imei }));

export function extendedOperations(transport: Carrier321Transport) {
  return {
    listAvailablePlans: () => transport.read({ path: 'v1/catalog/socs', schema: catalog }),

    // A POST without side effects: it carries no Idempotency-Key and may be repeated freely.
    validateAddress: (address) =>
      transport.read({
        method: 'POST',
        path: 'v1/address-validations',
        json: { street1: address.street1, city: address.city, region: address.state, postal_code: address.zipCode },
        schema: addressValidation,
      }),

    getDeviceUnlockStatus: (imei) =>
      transport.read({ path: wirePath`v1/devices/${imei}/unlock-status`, schema: unlockStatus }),
    getAccount: (mdn) => transport.read({ path: wirePath`v1/subscribers/${mdn}/account`, schema: account }),
    getPoolUsage: (accountId) =>
      transport.read({ path: wirePath`v1/accounts/${accountId}/data-pool`, schema: dataPool }),
    getNumberGroups: (zipCode) =>
      transport.read({ path: 'v1/number-groups', searchParams: { postal_code: zipCode }, schema: numberGroups }),
    getActivePlan: (mdn) => transport.read({ path: wirePath`v1/subscribers/${mdn}/plan`, schema: activePlan }),
    getImeiDetails: (imei) => transport.read({ path: wirePath`v1/devices/${imei}/details`, schema: imeiDetails }),
    getProducts: (mdn) => transport.read({ path: wirePath`v1/subscribers/${mdn}/products`, schema: products }),

    getCustomerImpactingEvents: (window) =>
      transport.read({
        path: 'v1/network-events',
        searchParams: {
          from: window.startTime === undefined ? undefined : toWireTimestamp(window.startTime),
          until: window.endTime === undefined ? undefined : toWireTimestamp(window.endTime),
        },
        schema: networkEvents,
      }),

    sendSms: (request) =>
      transport.write(request.transactionId, {
        method: 'POST',
        path: wirePath`v1/subscribers/${request.mdn}/messages`,
        json: { text: request.message },
        schema: message,
      }),

    managePhoneList: (request) =>
      transport.write(request.transactionId, {
        method: 'POST',
        path: wirePath`v1/subscribers/${request.mdn}/phone-list`,
        json: { operation: PHONE_LIST_OPERATIONS[request.action], numbers: request.numbers },
        schema: phoneList,
      }),

    setLabel: (request) =>
      transport.write(request.transactionId, {
        method: 'PATCH',
        path: wirePath`v1/subscribers/${request.mdn}`,
        json: { label: request.label },
        schema: label,
      }),

    changeImei: (request) =>
      transport.write(request.transactionId, {
        method: 'PUT',
        path: wirePath`v1/subscribers/${request.mdn}/device`,
        json: { iccid: request.sim, imei: request.newImei },
        schema: device,
      }),
  } satisfies ExtendedCarrierOperations;
}
