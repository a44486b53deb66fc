// carrier_b adapter methods for information queries; each turns the wire result (epoch
// milliseconds, carrier_b's names) into the domain's shapes and timestamp forms.

import type { z } from 'zod';
import type { BalanceDetails, CarrierOperations, Subscription, UsageEvent } from '../../types.js';
import { decodeAddress, decodeState, decodeUnit, toCarrierTimestamp, toDay, toIsoUtc, toIsoWithOffset } from '../codec.js';
import type { RpcClient } from '../rpc-client.js';
import { coverage, device, esimProfile, hlrStatus, profile, simDetails, usage, usageRecords } from '../wire-schemas.js';

type QueryOperations = Pick<
  CarrierOperations,
  'getUsage' | 'getServiceProfile' | 'getCarrierUsage' | 'getCoverage' | 'getDevice' | 'getNetworkStatus' | 'getEsimProfile' | 'getSimDetails'
>;

type WireUsage = z.output<typeof usage>;
type WireRecord = z.output<typeof usageRecords>['records'][number];

function balanceDetails(allowances: WireUsage['allowances']): BalanceDetails {
  return { talk: allowances.voiceMinutes, text: allowances.smsCount, data: allowances.dataBytes };
}

function subscriptions(bundles: WireUsage['bundles']): Subscription[] {
  return bundles.map((bundle) => ({
    purchaseId: bundle.bundleId,
    planCode: bundle.tariffCode,
    planName: bundle.tariffName,
    balances: bundle.buckets.map((bucket) => ({
      uom: decodeUnit(bucket.unit),
      balance: bucket.remaining,
      validFrom: toCarrierTimestamp(bucket.startsAt),
      validTo: toCarrierTimestamp(bucket.endsAt),
    })),
  }));
}

function usageEvent(record: WireRecord): UsageEvent {
  switch (record.kind) {
    case 'call':
      return { type: 'VOICE', duration: record.seconds, timestamp: toCarrierTimestamp(record.at), destination: record.calledParty };
    case 'data':
      return { type: 'DATA', bytesUsed: record.octets, timestamp: toCarrierTimestamp(record.at) };
    case 'sms':
      return { type: 'SMS', count: record.messages, timestamp: toCarrierTimestamp(record.at), destination: record.calledParty };
  }
}

export function queryOperations(rpc: RpcClient): QueryOperations {
  return {
    async getUsage(mdn) {
      const wire = await rpc.read('Subscriber.GetUsage', { msisdn: mdn }, usage);
      return {
        mdn: wire.msisdn,
        sim: wire.iccid,
        lineStatus: decodeState(wire.subscriberState),
        customerId: wire.customerRef,
        planName: wire.tariffName,
        effectiveDate: toCarrierTimestamp(wire.tariffSince),
        balanceDetails: balanceDetails(wire.allowances),
        subscriptions: subscriptions(wire.bundles),
      };
    },

    async getServiceProfile(mdn, sim) {
      const wire = await rpc.read('Subscriber.GetProfile', { msisdn: mdn, iccid: sim }, profile);
      return {
        mdn: wire.msisdn,
        sim: wire.iccid,
        imei: wire.imei,
        lineStatus: decodeState(wire.subscriberState),
        planName: wire.tariffName,
        effectiveDate: toCarrierTimestamp(wire.tariffSince),
        billCycleDay: String(wire.billingDay),
        serviceCodes: wire.features.map((feature) => ({ code: feature.featureCode, effectiveDate: toDay(feature.activeFrom) })),
        balanceDetails: balanceDetails(wire.allowances),
        subscriptions: subscriptions(wire.bundles),
        e911Address: wire.emergencyAddress === null ? null : decodeAddress(wire.emergencyAddress),
        hotlineStatus: wire.hotlineStatus,
        hotlineNumber: wire.hotlineRedirect,
      };
    },

    async getCarrierUsage(mdn) {
      const wire = await rpc.read('Usage.ListRecords', { msisdn: mdn }, usageRecords);
      return { mdn: wire.msisdn, usageRecords: wire.records.map(usageEvent) };
    },

    async getCoverage(zipCode) {
      const wire = await rpc.read('Network.CheckCoverage', { postCode: zipCode }, coverage);
      return {
        zipCode: wire.postCode,
        covered: wire.covered,
        areas: wire.areas.map((area) => ({ city: area.town, state: area.stateCode, zipCode: area.postCode, quality: area.signal })),
      };
    },

    async getDevice(imei) {
      const wire = await rpc.read('Device.Lookup', { imei }, device);
      return {
        imei: wire.imei,
        compatible: wire.compatible,
        technology: wire.radio,
        simType: wire.simType,
        simSize: wire.simSize,
        model: wire.model,
        manufacturer: wire.maker,
        marketingName: wire.marketingName,
        osName: wire.os,
        esimCapable: wire.capabilities.esim,
        volteCapable: wire.capabilities.volte,
        wifiCallingCapable: wire.capabilities.wifiCalling,
        networkApproved: wire.networkCertified,
      };
    },

    async getNetworkStatus(mdn) {
      const wire = await rpc.read('Network.GetHlrStatus', { msisdn: mdn }, hlrStatus);
      return {
        mdn: wire.msisdn,
        sim: wire.iccid,
        imei: wire.imei,
        imsi: wire.imsi,
        lineStatus: decodeState(wire.subscriberState),
        simStatus: wire.simState,
        serviceCodes: wire.featureCodes,
      };
    },

    async getEsimProfile(sim) {
      const wire = await rpc.read('Esim.GetProfile', { iccid: sim }, esimProfile);
      return {
        sim: wire.iccid,
        activationCode: wire.activationCode,
        matchingId: wire.matchingId,
        profileState: wire.profileState,
        profileType: wire.profileType,
        esimBrand: wire.brand,
        lastModified: toCarrierTimestamp(wire.updatedAt),
      };
    },

    async getSimDetails(sim) {
      const wire = await rpc.read('Sim.GetDetails', { iccid: sim }, simDetails);
      return {
        sim: wire.iccid,
        activationEligible: wire.canActivate,
        wfcEligible: wire.canUseWifiCalling,
        puk1: wire.puk1,
        puk2: wire.puk2,
        createDate: wire.createdAt === null ? null : toIsoUtc(wire.createdAt),
        expirationDate: wire.expiresAt === null ? null : toIsoWithOffset(wire.expiresAt),
        iccidStatus: wire.iccidState,
      };
    },
  };
}
