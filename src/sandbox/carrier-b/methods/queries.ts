// carrier_b RPC methods for information queries: usage, profile, raw usage records,
// coverage, devices, HLR status, eSIM profiles and SIM details.

import { z } from 'zod';
import type { BalanceDetails, CarrierQueryMethods, UsageEvent } from '../../../carriers/types.js';
import { defineMethod, type RpcMethod } from '../define-method.js';
import { wireFaultCode } from '../envelope.js';
import {
  emergencyAddress,
  encodeAddress,
  encodeBundles,
  iccid,
  imei,
  msisdn,
  postCode,
  subscriberState,
  toEpochMs,
  toEpochMsOrNull,
} from '../wire.js';

function encodeAllowances(details: BalanceDetails): Record<string, number> {
  return { voiceMinutes: details.talk, smsCount: details.text, dataBytes: details.data };
}

function encodeRecord(event: UsageEvent): Record<string, unknown> {
  switch (event.type) {
    case 'VOICE':
      return { kind: 'call', seconds: event.duration, at: toEpochMs(event.timestamp), calledParty: event.destination };
    case 'DATA':
      return { kind: 'data', octets: event.bytesUsed, at: toEpochMs(event.timestamp) };
    case 'SMS':
      return { kind: 'sms', messages: event.count, at: toEpochMs(event.timestamp), calledParty: event.destination };
  }
}

/** The wire sends the bill cycle day as a number; the core keeps it as the spec's string. */
function billingDay(billCycleDay: string): number {
  const day = Number(billCycleDay);
  if (!Number.isInteger(day)) throw new Error('Sandbox produced an unreadable bill cycle day');
  return day;
}

export const queryMethods = {
  getUsage: defineMethod('Subscriber.GetUsage', z.object({ msisdn }), async (core, params) => {
    const usage = await core.getUsage(params.msisdn);
    return {
      msisdn: usage.mdn,
      iccid: usage.sim,
      subscriberState: subscriberState(usage.lineStatus),
      customerRef: usage.customerId,
      tariffName: usage.planName,
      tariffSince: toEpochMs(usage.effectiveDate),
      allowances: encodeAllowances(usage.balanceDetails),
      bundles: encodeBundles(usage.subscriptions),
    };
  }),

  getServiceProfile: defineMethod(
    'Subscriber.GetProfile',
    z.object({ msisdn, iccid: iccid.optional() }),
    async (core, params) => {
      const profile = await core.getServiceProfile(params.msisdn, params.iccid);
      return {
        msisdn: profile.mdn,
        iccid: profile.sim,
        imei: profile.imei,
        subscriberState: subscriberState(profile.lineStatus),
        tariffName: profile.planName,
        tariffSince: toEpochMs(profile.effectiveDate),
        billingDay: billingDay(profile.billCycleDay),
        features: profile.serviceCodes.map((code) => ({
          featureCode: code.code,
          activeFrom: toEpochMs(code.effectiveDate),
        })),
        allowances: encodeAllowances(profile.balanceDetails),
        bundles: encodeBundles(profile.subscriptions),
        emergencyAddress: profile.e911Address === null ? null : encodeAddress(profile.e911Address),
        hotlineStatus: profile.hotlineStatus,
        hotlineRedirect: profile.hotlineNumber,
      };
    },
  ),

  getCarrierUsage: defineMethod('Usage.ListRecords', z.object({ msisdn }), async (core, params) => {
    const usage = await core.getCarrierUsage(params.msisdn);
    return { msisdn: usage.mdn, records: usage.usageRecords.map(encodeRecord) };
  }),

  getCoverage: defineMethod('Network.CheckCoverage', z.object({ postCode }), async (core, params) => {
    const coverage = await core.getCoverage(params.postCode);
    return {
      postCode: coverage.zipCode,
      covered: coverage.covered,
      areas: coverage.areas.map((area) => ({
        town: area.city,
        stateCode: area.state,
        postCode: area.zipCode,
        signal: area.quality,
      })),
    };
  }),

  getDevice: defineMethod('Device.Lookup', z.object({ imei }), async (core, params) => {
    const device = await core.getDevice(params.imei);
    return {
      imei: device.imei,
      compatible: device.compatible,
      radio: device.technology,
      simType: device.simType,
      simSize: device.simSize,
      model: device.model,
      maker: device.manufacturer,
      marketingName: device.marketingName,
      os: device.osName,
      capabilities: { esim: device.esimCapable, volte: device.volteCapable, wifiCalling: device.wifiCallingCapable },
      networkCertified: device.networkApproved,
    };
  }),

  getNetworkStatus: defineMethod('Network.GetHlrStatus', z.object({ msisdn }), async (core, params) => {
    const status = await core.getNetworkStatus(params.msisdn);
    return {
      msisdn: status.mdn,
      iccid: status.sim,
      imei: status.imei,
      imsi: status.imsi,
      subscriberState: subscriberState(status.lineStatus),
      simState: status.simStatus,
      featureCodes: status.serviceCodes,
    };
  }),

  getEsimProfile: defineMethod('Esim.GetProfile', z.object({ iccid }), async (core, params) => {
    const profile = await core.getEsimProfile(params.iccid);
    return {
      iccid: profile.sim,
      activationCode: profile.activationCode,
      matchingId: profile.matchingId,
      profileState: profile.profileState,
      profileType: profile.profileType,
      brand: profile.esimBrand,
      updatedAt: toEpochMs(profile.lastModified),
    };
  }),

  getSimDetails: defineMethod('Sim.GetDetails', z.object({ iccid }), async (core, params) => {
    const details = await core.getSimDetails(params.iccid);
    return {
      iccid: details.sim,
      canActivate: details.activationEligible,
      canUseWifiCalling: details.wfcEligible,
      puk1: details.puk1,
      puk2: details.puk2,
      createdAt: toEpochMsOrNull(details.createDate),
      expiresAt: toEpochMsOrNull(details.expirationDate),
      iccidState: details.iccidStatus,
    };
  }),

  validateE911Address: defineMethod(
    'WifiCalling.ValidateAddress',
    z.object({ emergencyAddress }),
    async (core, params) => {
      const validation = await core.validateE911Address(params.emergencyAddress);
      if (validation.valid) return { valid: true };
      return {
        valid: false,
        faultCode: wireFaultCode(validation.failure.code),
        faultString: validation.failure.text,
      };
    },
  ),
} satisfies Record<keyof CarrierQueryMethods, RpcMethod>;
