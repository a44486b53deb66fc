// carrier_b adapter: the information queries (usage, profile, usage records, coverage, devices,
// HLR status, eSIM profiles and SIM details), read from epoch milliseconds and carrier_b's names
// into the domain's shapes and timestamp forms.

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
  toWireAddress,
  wireAddress,
  wireAddressValidation,
  wireAllowances,
  wireBundle,
  wireCount,
  wireDay,
  wireIsoUtc,
  wireIsoWithOffset,
  wireSubscriberState,
  wireText,
  wireTimestamp,
} from './codec.js';
import type { CarrierBTransport } from './transport.js';

const usage = z
  .object({
    msisdn: wireText,
    iccid: wireText,
    subscriberState: wireSubscriberState,
    customerRef: wireText,
    tariffName: wireText,
    tariffSince: wireTimestamp,
    allowances: wireAllowances,
    bundles: z.array(wireBundle),
  })
  .transform((w): UsageSummary => ({
    mdn: w.msisdn,
    sim: w.iccid,
    lineStatus: w.subscriberState,
    customerId: w.customerRef,
    planName: w.tariffName,
    effectiveDate: w.tariffSince,
    balanceDetails: w.allowances,
    subscriptions: w.bundles,
  }));

const profile = z
  .object({
    msisdn: wireText,
    iccid: wireText,
    imei: wireText,
    subscriberState: wireSubscriberState,
    tariffName: wireText,
    tariffSince: wireTimestamp,
    /** The wire sends the bill cycle day as a number; the domain keeps the spec's string. */
    billingDay: z.number().int().min(1).max(31),
    features: z.array(
      z
        .object({ featureCode: wireText, activeFrom: wireDay })
        .transform((f) => ({ code: f.featureCode, effectiveDate: f.activeFrom })),
    ),
    allowances: wireAllowances,
    bundles: z.array(wireBundle),
    emergencyAddress: wireAddress.nullable(),
    hotlineStatus: wireText.nullable(),
    hotlineRedirect: wireText.nullable(),
  })
  .transform((w): ServiceProfile => ({
    mdn: w.msisdn,
    sim: w.iccid,
    imei: w.imei,
    lineStatus: w.subscriberState,
    planName: w.tariffName,
    effectiveDate: w.tariffSince,
    billCycleDay: String(w.billingDay),
    serviceCodes: w.features,
    balanceDetails: w.allowances,
    subscriptions: w.bundles,
    e911Address: w.emergencyAddress,
    hotlineStatus: w.hotlineStatus,
    hotlineNumber: w.hotlineRedirect,
  }));

const usageRecord = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('call'), seconds: wireCount, at: wireTimestamp, calledParty: wireText }),
    z.object({ kind: z.literal('data'), octets: wireCount, at: wireTimestamp }),
    z.object({ kind: z.literal('sms'), messages: wireCount, at: wireTimestamp, calledParty: wireText }),
  ])
  .transform((w): UsageEvent => {
    switch (w.kind) {
      case 'call':
        return { type: 'VOICE', duration: w.seconds, timestamp: w.at, destination: w.calledParty };
      case 'data':
        return { type: 'DATA', bytesUsed: w.octets, timestamp: w.at };
      case 'sms':
        return { type: 'SMS', count: w.messages, timestamp: w.at, destination: w.calledParty };
    }
  });

const usageRecords = z
  .object({ msisdn: wireText, records: z.array(usageRecord) })
  .transform((w): CarrierUsage => ({ mdn: w.msisdn, usageRecords: w.records }));

/** A coverage answer; the readiness probe reads its answer with it too. */
export const coverage = z
  .object({
    postCode: wireText,
    covered: z.boolean(),
    areas: z.array(z.object({ town: wireText, stateCode: wireText, postCode: wireText, signal: wireText })),
  })
  .transform((w): Coverage => ({
    zipCode: w.postCode,
    covered: w.covered,
    areas: w.areas.map((a) => ({ city: a.town, state: a.stateCode, zipCode: a.postCode, quality: a.signal })),
  }));

const device = z
  .object({
    imei: wireText,
    compatible: z.boolean(),
    radio: wireText.nullable(),
    simType: wireText.nullable(),
    simSize: wireText.nullable(),
    model: wireText.nullable(),
    maker: wireText.nullable(),
    marketingName: wireText.nullable(),
    os: wireText.nullable(),
    capabilities: z.object({ esim: z.boolean(), volte: z.boolean(), wifiCalling: z.boolean() }),
    networkCertified: z.boolean(),
  })
  .transform((w): DeviceInfo => ({
    imei: w.imei,
    compatible: w.compatible,
    technology: w.radio,
    simType: w.simType,
    simSize: w.simSize,
    model: w.model,
    manufacturer: w.maker,
    marketingName: w.marketingName,
    osName: w.os,
    esimCapable: w.capabilities.esim,
    volteCapable: w.capabilities.volte,
    wifiCallingCapable: w.capabilities.wifiCalling,
    networkApproved: w.networkCertified,
  }));

const hlrStatus = z
  .object({
    msisdn: wireText,
    iccid: wireText,
    imei: wireText,
    imsi: wireText,
    subscriberState: wireSubscriberState,
    simState: wireText,
    featureCodes: z.array(wireText),
  })
  .transform((w): NetworkStatus => ({
    mdn: w.msisdn,
    sim: w.iccid,
    imei: w.imei,
    imsi: w.imsi,
    lineStatus: w.subscriberState,
    simStatus: w.simState,
    serviceCodes: w.featureCodes,
  }));

const esimProfile = z
  .object({
    iccid: wireText,
    activationCode: wireText,
    matchingId: wireText,
    profileState: wireText,
    profileType: wireText,
    brand: wireText,
    updatedAt: wireTimestamp,
  })
  .transform((w): EsimProfile => ({
    sim: w.iccid,
    activationCode: w.activationCode,
    matchingId: w.matchingId,
    profileState: w.profileState,
    profileType: w.profileType,
    esimBrand: w.brand,
    lastModified: w.updatedAt,
  }));

const simDetails = z
  .object({
    iccid: wireText,
    canActivate: z.boolean(),
    canUseWifiCalling: z.boolean(),
    puk1: wireText.nullable(),
    puk2: wireText.nullable(),
    createdAt: wireIsoUtc.nullable(),
    expiresAt: wireIsoWithOffset.nullable(),
    iccidState: wireText.nullable(),
  })
  .transform((w): SimDetails => ({
    sim: w.iccid,
    activationEligible: w.canActivate,
    wfcEligible: w.canUseWifiCalling,
    puk1: w.puk1,
    puk2: w.puk2,
    createDate: w.createdAt,
    expirationDate: w.expiresAt,
    iccidStatus: w.iccidState,
  }));

export function queryOperations(transport: CarrierBTransport) {
  return {
    getUsage: (mdn) => transport.read({ method: 'Subscriber.GetUsage', params: { msisdn: mdn }, schema: usage }),
    getServiceProfile: (mdn, sim) =>
      transport.read({ method: 'Subscriber.GetProfile', params: { msisdn: mdn, iccid: sim }, schema: profile }),
    getCarrierUsage: (mdn) =>
      transport.read({ method: 'Usage.ListRecords', params: { msisdn: mdn }, schema: usageRecords }),
    getCoverage: (zipCode) =>
      transport.read({ method: 'Network.CheckCoverage', params: { postCode: zipCode }, schema: coverage }),
    getDevice: (imei) => transport.read({ method: 'Device.Lookup', params: { imei }, schema: device }),
    getNetworkStatus: (mdn) =>
      transport.read({ method: 'Network.GetHlrStatus', params: { msisdn: mdn }, schema: hlrStatus }),
    getEsimProfile: (sim) => transport.read({ method: 'Esim.GetProfile', params: { iccid: sim }, schema: esimProfile }),
    getSimDetails: (sim) => transport.read({ method: 'Sim.GetDetails', params: { iccid: sim }, schema: simDetails }),
    validateE911Address: (address) =>
      transport.read({
        method: 'WifiCalling.ValidateAddress',
        params: { emergencyAddress: toWireAddress(address) },
        schema: wireAddressValidation,
      }),
  } satisfies CarrierQueryMethods;
}
