// Translation between carrier_b's wire vocabulary and the carrier-neutral domain, as the
// sandbox server needs it: zod schemas for the params it reads, encoders for what it answers.

import { z } from 'zod';
import type {
  Balance,
  BalanceUnit,
  E911Address,
  LineStatus,
  ServiceScope,
  Subscription,
  VoicemailLanguage,
  WfcOutcome,
  WfcRequest,
} from '../../carriers/types.js';
import { wireFaultCode } from './envelope.js';

// ---------------------------------------------------------------- params (wire → domain)

// Identifiers are checked for shape only; whether a number, SIM or ZIP is valid, known or
// covered is the carrier's business decision (a spec fault code), not a protocol error.
const identifier = (max: number) => z.string().min(1).max(max);
export const msisdn = identifier(15);
export const iccid = identifier(25);
export const imei = identifier(15);
export const postCode = identifier(10);
export const nonEmpty = z.string().min(1).max(200);
/** A calendar day as epoch milliseconds (the time of day is ignored). */
export const dayEpochMs = z.number().int().nonnegative();

export const emergencyAddress = z
  .object({ line1: nonEmpty, line2: nonEmpty.optional(), town: nonEmpty, stateCode: identifier(2), postCode })
  .transform((wire): E911Address => ({
    address1: wire.line1,
    ...(wire.line2 === undefined ? {} : { address2: wire.line2 }),
    city: wire.town,
    state: wire.stateCode,
    zipCode: wire.postCode,
  }));

/** `{emergencyAddress: … | null}` asks for Wi-Fi Calling with that address (null: none known). */
export const wifiCallingRequest = z
  .object({ emergencyAddress: emergencyAddress.nullable() })
  .transform((wire): WfcRequest => ({ address: wire.emergencyAddress }));

const SCOPES = { voice: 'VOICE', sms: 'SMS', data: 'DATA' } as const satisfies Record<string, ServiceScope>;
/** `all` is the wire's word for "no particular service". */
export const scope = z
  .enum(['all', 'voice', 'sms', 'data'])
  .transform((wire): ServiceScope | undefined => (wire === 'all' ? undefined : SCOPES[wire]));

const LANGUAGES = { en: 'ENGL', es: 'SPAN' } as const satisfies Record<string, VoicemailLanguage>;
export const greetingLanguage = z.enum(['en', 'es']).transform((wire): VoicemailLanguage => LANGUAGES[wire]);

const UNITS = { seconds: 'SECOND', events: 'EVENT', bytes: 'BYTE' } as const satisfies Record<string, BalanceUnit>;
export const unit = z.enum(['seconds', 'events', 'bytes']).transform((wire): BalanceUnit => UNITS[wire]);

/** Domain calendar day `YYYY-MM-DD` from the wire's midnight-UTC epoch milliseconds. */
export function dayFromEpochMs(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

// ---------------------------------------------------------------- results (domain → wire)

/** `YYYY-MM-DD HH:MM:SS` (UTC), `YYYY-MM-DD` or ISO 8601 → epoch milliseconds. */
export function toEpochMs(timestamp: string): number {
  const iso = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(timestamp) ? `${timestamp.replace(' ', 'T')}Z` : timestamp;
  const ms = Date.parse(iso);
  // A timestamp the sandbox cannot read is a sandbox bug: fail loudly (500), never send null.
  if (Number.isNaN(ms)) throw new Error('Sandbox produced an unreadable timestamp');
  return ms;
}

export function toEpochMsOrNull(timestamp: string | null): number | null {
  return timestamp === null ? null : toEpochMs(timestamp);
}

const STATES: Record<LineStatus, string> = {
  NEW: 'pending',
  ACTIVE: 'live',
  SUSPENDED: 'barred',
  DISCONNECTED: 'ceased',
};
export function subscriberState(status: LineStatus): string {
  return STATES[status];
}

const UNIT_NAMES: Record<string, string> = { SECOND: 'seconds', EVENT: 'events', BYTE: 'bytes' };
/** Units the wire has no word for travel as the carrier core names them. */
export function unitName(uom: string): string {
  return UNIT_NAMES[uom] ?? uom;
}

export function encodeAddress(address: E911Address): Record<string, string> {
  return {
    line1: address.address1,
    ...(address.address2 === undefined ? {} : { line2: address.address2 }),
    town: address.city,
    stateCode: address.state,
    postCode: address.zipCode,
  };
}

export function encodeWifiCalling(outcome: WfcOutcome | undefined): Record<string, unknown> {
  if (outcome === undefined) return {};
  if (outcome.provisioned) return { wifiCalling: { provisioned: true } };
  return {
    wifiCalling: {
      provisioned: false,
      faultCode: wireFaultCode(outcome.failure.code),
      faultString: outcome.failure.text,
    },
  };
}

function encodeBalance(balance: Balance): Record<string, unknown> {
  return {
    unit: unitName(balance.uom),
    remaining: balance.balance,
    startsAt: toEpochMs(balance.validFrom),
    endsAt: toEpochMs(balance.validTo),
  };
}

export function encodeBundles(subscriptions: Subscription[]): Record<string, unknown>[] {
  return subscriptions.map((subscription) => ({
    bundleId: subscription.purchaseId,
    tariffCode: subscription.planCode,
    tariffName: subscription.planName,
    buckets: subscription.balances.map(encodeBalance),
  }));
}
