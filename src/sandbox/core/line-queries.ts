// Read-only views of a line: usage and balances, the full service profile, raw usage records
// and the network (HLR) status. Each returns a fresh copy, never internal state.

import type { CarrierUsage, NetworkStatus, ServiceProfile, UsageSummary } from '../../carriers/types.js';
import { requireLine, verifySim } from './lines.js';
import { serviceCodes } from './service-codes.js';
import type { CoreContext, LineRecord } from './state.js';
import { balanceDetails, listedSubscriptions, subscriptionView } from './subscriptions.js';
import { carrierTimestamp } from './time-format.js';

export function getUsage(ctx: CoreContext, mdn: string): UsageSummary {
  const line = requireLine(ctx, mdn);
  return {
    mdn: line.mdn,
    sim: line.sim,
    lineStatus: line.status,
    customerId: line.customerId,
    planName: line.plan.name,
    effectiveDate: carrierTimestamp(line.plan.effectiveAt),
    balanceDetails: balanceDetails(line),
    subscriptions: listedSubscriptions(line).map(subscriptionView),
  };
}

export function getServiceProfile(ctx: CoreContext, mdn: string, sim?: string): ServiceProfile {
  const line = requireLine(ctx, mdn);
  verifySim(line, sim, '918');
  return {
    mdn: line.mdn,
    sim: line.sim,
    imei: line.imei,
    lineStatus: line.status,
    planName: line.plan.name,
    effectiveDate: carrierTimestamp(line.plan.effectiveAt),
    billCycleDay: String(new Date(line.activatedAt).getUTCDate()),
    serviceCodes: serviceCodes(line),
    balanceDetails: balanceDetails(line),
    subscriptions: listedSubscriptions(line).map(subscriptionView),
    e911Address: line.wfc.enabled && line.wfc.address ? { ...line.wfc.address } : null,
    hotlineStatus: hotlineStatus(line),
    hotlineNumber: line.hotline?.number ?? null,
  };
}

export function getCarrierUsage(ctx: CoreContext, mdn: string): CarrierUsage {
  const line = requireLine(ctx, mdn);
  return { mdn: line.mdn, usageRecords: line.usage.map((record) => ({ ...record })) };
}

export function getNetworkStatus(ctx: CoreContext, mdn: string): NetworkStatus {
  const line = requireLine(ctx, mdn);
  return {
    mdn: line.mdn,
    sim: line.sim,
    imei: line.imei,
    imsi: imsiFor(line.mdn),
    lineStatus: line.status,
    simStatus: ctx.state.sims.get(line.sim)?.status ?? 'INUSE',
    serviceCodes: serviceCodes(line).map((code) => code.code),
  };
}

/** A US network code followed by the MDN's last nine digits: 15 digits, stable per number. */
export function imsiFor(mdn: string): string {
  return `310240${mdn.slice(-9).padStart(9, '0')}`;
}

/** `HOTLINED` when every service is hotlined, `HOTLINED (VOICE, SMS)` when some are. */
function hotlineStatus(line: LineRecord): string | null {
  if (!line.hotline) return null;
  return line.hotline.services.length === 3 ? 'HOTLINED' : `HOTLINED (${line.hotline.services.join(', ')})`;
}
