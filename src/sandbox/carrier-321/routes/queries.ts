// Carrier 321 sandbox routes: the information queries.

import { z } from 'zod';
import type { CarrierQueryMethods, CarrierOperations } from '../../../carriers/types.js';
import type { SandboxRoute } from '../../http-kit.js';
import { decodeBody, readRoute } from '../routing.js';
import { balanceSummaryToWire, e911ToWire, isoTimestamp, subscriptionToWire, wireE911, wireState } from '../wire.js';

const e911ValidationBody = z.object({ e911: wireE911 });

export function queryRoutes(core: CarrierOperations) {
  return {
    getUsage: readRoute('GET', '/v1/subscribers/{msisdn}/balances', async ({ param }) => {
      const usage = await core.getUsage(param('msisdn'));
      return {
        status: 200,
        body: {
          msisdn: usage.mdn,
          iccid: usage.sim,
          state: wireState(usage.lineStatus),
          customer_ref: usage.customerId,
          plan_name: usage.planName,
          effective_at: isoTimestamp(usage.effectiveDate),
          balance_summary: balanceSummaryToWire(usage.balanceDetails),
          subscriptions: usage.subscriptions.map(subscriptionToWire),
        },
      };
    }),

    getServiceProfile: readRoute('GET', '/v1/subscribers/{msisdn}', async ({ param, query }) => {
      const profile = await core.getServiceProfile(param('msisdn'), query('iccid'));
      const hotline =
        profile.hotlineStatus === null && profile.hotlineNumber === null
          ? null
          : { status: profile.hotlineStatus, forward_to: profile.hotlineNumber };
      return {
        status: 200,
        body: {
          msisdn: profile.mdn,
          iccid: profile.sim,
          imei: profile.imei,
          state: wireState(profile.lineStatus),
          plan_name: profile.planName,
          effective_at: isoTimestamp(profile.effectiveDate),
          bill_cycle_day: profile.billCycleDay,
          socs: profile.serviceCodes.map((c) => ({ soc: c.code, effective_on: c.effectiveDate })),
          balance_summary: balanceSummaryToWire(profile.balanceDetails),
          subscriptions: profile.subscriptions.map(subscriptionToWire),
          e911: profile.e911Address === null ? null : e911ToWire(profile.e911Address),
          hotline,
        },
      };
    }),

    getCarrierUsage: readRoute('GET', '/v1/subscribers/{msisdn}/usage-records', async ({ param }) => {
      const usage = await core.getCarrierUsage(param('msisdn'));
      const records = usage.usageRecords.map((record) => {
        switch (record.type) {
          case 'VOICE':
            return {
              kind: 'voice',
              seconds: record.duration,
              occurred_at: isoTimestamp(record.timestamp),
              called_number: record.destination,
            };
          case 'DATA':
            return { kind: 'data', bytes: record.bytesUsed, occurred_at: isoTimestamp(record.timestamp) };
          case 'SMS':
            return {
              kind: 'sms',
              messages: record.count,
              occurred_at: isoTimestamp(record.timestamp),
              called_number: record.destination,
            };
        }
      });
      return { status: 200, body: { msisdn: usage.mdn, records } };
    }),

    getCoverage: readRoute('GET', '/v1/coverage/{postal_code}', async ({ param }) => {
      const coverage = await core.getCoverage(param('postal_code'));
      const areas = coverage.areas.map((a) => ({
        city: a.city,
        region: a.state,
        postal_code: a.zipCode,
        signal: a.quality,
      }));
      return { status: 200, body: { postal_code: coverage.zipCode, covered: coverage.covered, areas } };
    }),

    getDevice: readRoute('GET', '/v1/devices/{imei}', async ({ param }) => {
      const device = await core.getDevice(param('imei'));
      return {
        status: 200,
        body: {
          imei: device.imei,
          compatible: device.compatible,
          network: { technology: device.technology, approved: device.networkApproved },
          sim: { type: device.simType, form_factor: device.simSize },
          make: device.manufacturer,
          model: device.model,
          marketing_name: device.marketingName,
          os: device.osName,
          capabilities: {
            esim: device.esimCapable,
            volte: device.volteCapable,
            wifi_calling: device.wifiCallingCapable,
          },
        },
      };
    }),

    getNetworkStatus: readRoute('GET', '/v1/subscribers/{msisdn}/network', async ({ param }) => {
      const status = await core.getNetworkStatus(param('msisdn'));
      return {
        status: 200,
        body: {
          msisdn: status.mdn,
          iccid: status.sim,
          imei: status.imei,
          imsi: status.imsi,
          state: wireState(status.lineStatus),
          sim_state: status.simStatus,
          socs: status.serviceCodes,
        },
      };
    }),

    getEsimProfile: readRoute('GET', '/v1/sims/{iccid}/esim-profile', async ({ param }) => {
      const profile = await core.getEsimProfile(param('iccid'));
      return {
        status: 200,
        body: {
          iccid: profile.sim,
          activation_code: profile.activationCode,
          matching_id: profile.matchingId,
          state: profile.profileState,
          type: profile.profileType,
          brand: profile.esimBrand,
          updated_at: isoTimestamp(profile.lastModified),
        },
      };
    }),

    getSimDetails: readRoute('GET', '/v1/sims/{iccid}', async ({ param }) => {
      const sim = await core.getSimDetails(param('iccid'));
      return {
        status: 200,
        body: {
          iccid: sim.sim,
          eligibility: { activation: sim.activationEligible, wfc: sim.wfcEligible },
          puk1: sim.puk1,
          puk2: sim.puk2,
          created_at: sim.createDate,
          expires_at: sim.expirationDate,
          state: sim.iccidStatus,
        },
      };
    }),

    // A POST that changes nothing: no Idempotency-Key.
    validateE911Address: readRoute('POST', '/v1/e911/validations', async ({ body }) => {
      const wire = decodeBody(e911ValidationBody, body);
      const validation = await core.validateE911Address(wire.e911);
      return {
        status: 200,
        body: validation.valid
          ? { valid: true }
          : { valid: false, error: { code: validation.failure.code, description: validation.failure.text } },
      };
    }),
  } satisfies Record<keyof CarrierQueryMethods, SandboxRoute>;
}
