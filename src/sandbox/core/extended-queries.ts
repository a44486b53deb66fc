// The extended (carrier 321) read operations: plan catalogue, address validation, device
// unlock status, accounts and pooled data, number groups, active plan, products and
// customer-impacting events.

import type {
  AccountInfo,
  AccountLine,
  ActivePlan,
  AddressToValidate,
  AddressValidation,
  CarrierPlanCode,
  CustomerImpactingEvent,
  DeviceUnlockStatus,
  PoolUsage,
  ProductList,
} from '../../carriers/types.js';
import { requireKnownDevice } from './devices.js';
import { requireLine } from './lines.js';
import { PLAN_CATALOGUE } from './plans.js';
import { reject } from './rejections.js';
import { featureCodes } from './service-codes.js';
import type { CoreContext, LineRecord } from './state.js';
import { activeSubscriptions } from './subscriptions.js';
import { classifyZip } from './test-values.js';
import { carrierTimestamp, DAY_MS, parseTimestamp } from './time-format.js';

/** A device may be unlocked once it has been on a line this long. */
export const UNLOCK_AFTER_MS = 60 * DAY_MS;

export function listAvailablePlans(): CarrierPlanCode[] {
  return PLAN_CATALOGUE.map((plan) => ({ soc: plan.soc, name: plan.name }));
}

export function validateAddress(address: AddressToValidate): AddressValidation {
  if (address.street1.toUpperCase().includes('INVALID') || classifyZip(address.zipCode) === 'invalid') {
    return { valid: false, normalized: null };
  }
  const tidy = (text: string): string => text.trim().replace(/\s+/g, ' ').toUpperCase();
  return {
    valid: true,
    normalized: {
      street1: tidy(address.street1),
      city: tidy(address.city),
      state: tidy(address.state),
      zipCode: address.zipCode.trim(),
    },
  };
}

export function getDeviceUnlockStatus(ctx: CoreContext, imei: string): DeviceUnlockStatus {
  requireKnownDevice(imei);
  const line = [...ctx.state.lines.values()].find(
    (candidate) => candidate.imei === imei && candidate.status !== 'DISCONNECTED',
  );
  if (line && ctx.clock.now() - line.imeiSince < UNLOCK_AFTER_MS) {
    return {
      imei,
      unlocked: false,
      unlockEligible: false,
      reason: 'Device has been active on the network for less than 60 days',
    };
  }
  return { imei, unlocked: false, unlockEligible: true, reason: null };
}

export function getAccount(ctx: CoreContext, mdn: string): AccountInfo {
  const line = requireLine(ctx, mdn);
  const root = line.parentMdn === null ? line : (ctx.state.lines.get(line.parentMdn) ?? line);
  return { accountId: root.accountId, mdn: line.mdn, lines: family(ctx, root).map(accountLine) };
}

export function getPoolUsage(ctx: CoreContext, accountId: string): PoolUsage {
  // A child line's own account is folded into its parent's while it belongs to it.
  const root =
    [...ctx.state.lines.values()].find((line) => line.accountId === accountId && line.parentMdn === null) ??
    reject('918');
  const members = family(ctx, root).filter((line) => line.status !== 'DISCONNECTED');
  const lines = members.map((line) => ({ mdn: line.mdn, bytesUsed: dataUsed(line) }));
  return {
    accountId,
    poolBytes: members.reduce(
      (sum, line) => sum + activeSubscriptions(line).reduce((total, sub) => total + sub.granted.dataBytes, 0),
      0,
    ),
    usedBytes: lines.reduce((sum, line) => sum + line.bytesUsed, 0),
    lines,
  };
}

export function getActivePlan(ctx: CoreContext, mdn: string): ActivePlan {
  const line = requireLine(ctx, mdn);
  return {
    mdn: line.mdn,
    soc: line.plan.carrierPlanId,
    planName: line.plan.name,
    effectiveDate: carrierTimestamp(line.plan.effectiveAt),
  };
}

export function getProducts(ctx: CoreContext, mdn: string): ProductList {
  const line = requireLine(ctx, mdn);
  return { mdn: line.mdn, products: featureCodes(line) };
}

/** Events overlapping the window; a time that is not `YYYY-MM-DD[ HH:MM:SS]` or ISO 8601 is GENS-0404. */
export function getCustomerImpactingEvents(
  ctx: CoreContext,
  window: { startTime?: string; endTime?: string },
): CustomerImpactingEvent[] {
  const bound = (text: string | undefined, name: string, fallback: number): number => {
    if (text === undefined || text === '') return fallback;
    return parseTimestamp(text) ?? reject('GENS-0404', `Invalid request parameter: ${name} is not a valid time`);
  };
  const start = bound(window.startTime, 'start_time', -Infinity);
  const end = bound(window.endTime, 'end_time', Infinity);
  if (start > end) reject('GENS-0404', 'Invalid request parameter: start_time is after end_time');
  return ctx.state.events
    .filter((event) => {
      const eventStart = parseTimestamp(event.startTime) ?? 0;
      const eventEnd = event.endTime === null ? Infinity : (parseTimestamp(event.endTime) ?? Infinity);
      return eventStart <= end && eventEnd >= start;
    })
    .map((event) => ({ ...event, zipCodes: [...event.zipCodes] }));
}

function family(ctx: CoreContext, root: LineRecord): LineRecord[] {
  const children = root.childMdns
    .map((mdn) => ctx.state.lines.get(mdn))
    .filter((line): line is LineRecord => line !== undefined);
  return [root, ...children];
}

function accountLine(line: LineRecord): AccountLine {
  return { mdn: line.mdn, sim: line.sim, lineStatus: line.status, label: line.label };
}

function dataUsed(line: LineRecord): number {
  return line.usage.reduce((sum, record) => sum + (record.type === 'DATA' ? record.bytesUsed : 0), 0);
}
