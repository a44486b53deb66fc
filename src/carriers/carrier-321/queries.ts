// Carrier 321 adapter: the information queries (balances, subscriber, usage records,
// coverage, devices, network status, SIMs and eSIM profiles).

import { z } from 'zod';
import type {
  CarrierQueryMethods,
  CarrierUsage,
  Coverage,
  DeviceInfo,
  EsimProfile,
  NetworkStatus,
  ServiceProfile,
  SimDetails,
  UsageEvent,
  UsageSummary,
} from '../types.js';
import {
  wireBalanceSummary,
  toWireE911,
  wireE911,
  wireE911Validation,
  wireIsoTimestamp,
  wireLineState,
  wireServiceCode,
  wireSubscription,
  wireTimestamp,
} from './codec.js';
import { wirePath, type Carrier321Transport } from './transport.js';

const usageSummary = z
  .object({
    msisdn: z.string(),
    iccid: z.string(),
    state: wireLineState,
    customer_ref: z.string(),
    plan_name: z.string(),
    effective_at: wireTimestamp,
    balance_summary: wireBalanceSummary,
    subscriptions: z.array(wireSubscription),
  })
  .transform((w): UsageSummary => ({
    mdn: w.msisdn,
    sim: w.iccid,
    lineStatus: w.state,
    customerId: w.customer_ref,
    planName: w.plan_name,
    effectiveDate: w.effective_at,
    balanceDetails: w.balance_summary,
    subscriptions: w.subscriptions,
  }));

const serviceProfile = z
  .object({
    msisdn: z.string(),
    iccid: z.string(),
    imei: z.string(),
    state: wireLineState,
    plan_name: z.string(),
    effective_at: wireTimestamp,
    bill_cycle_day: z.string(),
    socs: z.array(wireServiceCode),
    balance_summary: wireBalanceSummary,
    subscriptions: z.array(wireSubscription),
    e911: wireE911.nullable(),
    hotline: z.object({ status: z.string().nullable(), forward_to: z.string().nullable() }).nullable(),
  })
  .transform((w): ServiceProfile => ({
    mdn: w.msisdn,
    sim: w.iccid,
    imei: w.imei,
    lineStatus: w.state,
    planName: w.plan_name,
    effectiveDate: w.effective_at,
    billCycleDay: w.bill_cycle_day,
    serviceCodes: w.socs,
    balanceDetails: w.balance_summary,
    subscriptions: w.subscriptions,
    e911Address: w.e911,
    hotlineStatus: w.hotline?.status ?? null,
    hotlineNumber: w.hotline?.forward_to ?? null,
  }));

const usageRecord = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('voice'), seconds: z.number(), occurred_at: wireTimestamp, called_number: z.string() }),
    z.object({ kind: z.literal('data'), bytes: z.number(), occurred_at: wireTimestamp }),
    z.object({ kind: z.literal('sms'), messages: z.number(), occurred_at: wireTimestamp, called_number: z.string() }),
  ])
  .transform((w): UsageEvent => {
    switch (w.kind) {
      case 'voice':
        return { type: 'VOICE', duration: w.seconds, timestamp: w.occurred_at, destination: w.called_number };
      case 'data':
        return { type: 'DATA', bytesUsed: w.bytes, timestamp: w.occurred_at };
      case 'sms':
        return { type: 'SMS', count: w.messages, timestamp: w.occurred_at, destination: w.called_number };
    }
  });

const carrierUsage = z
  .object({ msisdn: z.string(), records: z.array(usageRecord) })
  .transform((w): CarrierUsage => ({ mdn: w.msisdn, usageRecords: w.records }));

/** A coverage answer; the readiness probe reads its answer with it too. */
export const coverage = z
  .object({
    postal_code: z.string(),
    covered: z.boolean(),
    areas: z.array(z.object({ city: z.string(), region: z.string(), postal_code: z.string(), signal: z.string() })),
  })
  .transform((w): Coverage => ({
    zipCode: w.postal_code,
    covered: w.covered,
    areas: w.areas.map((a) => ({ city: a.city, state: a.region, zipCode: a.postal_code, quality: a.signal })),
  }));

const device = z
  .object({
    imei: z.string(),
    compatible: z.boolean(),
    network: z.object({ technology: z.string().nullable(), approved: z.boolean() }),
    sim: z.object({ type: z.string().nullable(), form_factor: z.string().nullable() }),
    make: z.string().nullable(),
    model: z.string().nullable(),
    marketing_name: z.string().nullable(),
    os: z.string().nullable(),
    capabilities: z.object({ esim: z.boolean(), volte: z.boolean(), wifi_calling: z.boolean() }),
  })
  .transform((w): DeviceInfo => ({
    imei: w.imei,
    compatible: w.compatible,
    technology: w.network.technology,
    simType: w.sim.type,
    simSize: w.sim.form_factor,
    model: w.model,
    manufacturer: w.make,
    marketingName: w.marketing_name,
    osName: w.os,
    esimCapable: w.capabilities.esim,
    volteCapable: w.capabilities.volte,
    wifiCallingCapable: w.capabilities.wifi_calling,
    networkApproved: w.network.approved,
  }));

const networkStatus = z
  .object({
    msisdn: z.string(),
    iccid: z.string(),
    imei: z.string(),
    imsi: z.string(),
    state: wireLineState,
    sim_state: z.string(),
    socs: z.array(z.string()),
  })
  .transform((w): NetworkStatus => ({
    mdn: w.msisdn,
    sim: w.iccid,
    imei: w.imei,
    imsi: w.imsi,
    lineStatus: w.state,
    simStatus: w.sim_state,
    serviceCodes: w.socs,
  }));

const esimProfile = z
  .object({
    iccid: z.string(),
    activation_code: z.string(),
    matching_id: z.string(),
    state: z.string(),
    type: z.string(),
    brand: z.string(),
    updated_at: wireTimestamp,
  })
  .transform((w): EsimProfile => ({
    sim: w.iccid,
    activationCode: w.activation_code,
    matchingId: w.matching_id,
    profileState: w.state,
    profileType: w.type,
    esimBrand: w.brand,
    lastModified: w.updated_at,
  }));

const simDetails = z
  .object({
    iccid: z.string(),
    eligibility: z.object({ activation: z.boolean(), wfc: z.boolean() }),
    puk1: z.string().nullable(),
    puk2: z.string().nullable(),
    created_at: wireIsoTimestamp.nullable(),
    expires_at: wireIsoTimestamp.nullable(),
    state: z.string().nullable(),
  })
  .transform((w): SimDetails => ({
    sim: w.iccid,
    activationEligible: w.eligibility.activation,
    wfcEligible: w.eligibility.wfc,
    puk1: w.puk1,
    puk2: w.puk2,
    createDate: w.created_at,
    expirationDate: w.expires_at,
    iccidStatus: w.state,
  }));

export function queryOperations(transport: Carrier321Transport) {
  return {
    getUsage: (mdn) => transport.read({ path: wirePath`v1/subscribers/${mdn}/balances`, schema: usageSummary }),
    getServiceProfile: (mdn, sim) =>
      transport.read({ path: wirePath`v1/subscribers/${mdn}`, searchParams: { iccid: sim }, schema: serviceProfile }),
    getCarrierUsage: (mdn) =>
      transport.read({ path: wirePath`v1/subscribers/${mdn}/usage-records`, schema: carrierUsage }),
    getCoverage: (zipCode) => transport.read({ path: wirePath`v1/coverage/${zipCode}`, schema: coverage }),
    getDevice: (imei) => transport.read({ path: wirePath`v1/devices/${imei}`, schema: device }),
    getNetworkStatus: (mdn) => transport.read({ path: wirePath`v1/subscribers/${mdn}/network`, schema: networkStatus }),
    getEsimProfile: (sim) => transport.read({ path: wirePath`v1/sims/${sim}/esim-profile`, schema: esimProfile }),
    getSimDetails: (sim) => transport.read({ path: wirePath`v1/sims/${sim}`, schema: simDetails }),
    // A POST without side effects: it carries no Idempotency-Key and may be repeated freely.
    validateE911Address: (address) =>
      transport.read({
        method: 'POST',
        path: 'v1/e911/validations',
        json: { e911: toWireE911(address) },
        schema: wireE911Validation,
      }),
  } satisfies CarrierQueryMethods;
}
