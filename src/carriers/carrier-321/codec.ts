// The pieces of carrier 321's wire format that several operations share, each as a zod
// schema that validates the wire value and yields the domain value (or, for requests, a
// function from domain to wire). See docs/carriers/321.md.

import { z } from 'zod';
import type {
  Balance,
  BalanceDetails,
  CarrierFailureDetail,
  E911Address,
  E911Validation,
  LineRef,
  LineStatus,
  ServiceScope,
  Subscription,
  VoicemailLanguage,
  WfcOutcome,
  WfcRequest,
} from '../types.js';

// ---------------------------------------------------------------- scalars

/** A wire time already in UTC (`Z`): its date and time are the domain's as written. */
const WIRE_UTC = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?Z$/;

/** ISO 8601 on the wire (any offset) → the domain's `YYYY-MM-DD HH:MM:SS` in UTC. */
export const wireTimestamp = z.iso.datetime({ offset: true }).transform((value) => {
  // Most answers carry UTC; taking it apart is ~10× cheaper than a Date round trip, and a usage
  // answer holds seven of them. (The validation above already bounds every field's range.)
  const utc = WIRE_UTC.exec(value);
  return utc ? `${utc[1]} ${utc[2]}` : new Date(value).toISOString().slice(0, 19).replace('T', ' ');
});

/** ISO 8601 kept as the carrier wrote it (SIM dates are ISO in the domain too). */
export const wireIsoTimestamp = z.iso.datetime({ offset: true });

export const wireDate = z.iso.date();

const DOMAIN_TIMESTAMP = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/;

/** A domain time (`YYYY-MM-DD HH:MM:SS` UTC, or already ISO) as the carrier wants it. */
export function toWireTimestamp(value: string): string {
  const match = DOMAIN_TIMESTAMP.exec(value);
  return match ? `${match[1]}T${match[2]}Z` : value;
}

const STATES = {
  pending: 'NEW',
  active: 'ACTIVE',
  hotlined: 'SUSPENDED',
  deactivated: 'DISCONNECTED',
} as const satisfies Record<string, LineStatus>;

export const wireLineState = z
  .enum(['pending', 'active', 'hotlined', 'deactivated'])
  .transform((state): LineStatus => STATES[state]);

const LANGUAGES = { ENGL: 'en-US', SPAN: 'es-US' } as const satisfies Record<VoicemailLanguage, string>;

export function toWireLanguage(language: VoicemailLanguage): string {
  return LANGUAGES[language];
}

const SCOPES = { VOICE: 'voice', SMS: 'sms', DATA: 'data' } as const satisfies Record<ServiceScope, string>;

export function toWireScope(scope: ServiceScope | undefined): string | undefined {
  return scope === undefined ? undefined : SCOPES[scope];
}

// ---------------------------------------------------------------- errors

export const wireErrorSchema = z.object({
  error: z.object({ code: z.string().min(1), description: z.string() }),
});

const wireFailure = z
  .object({ code: z.string().min(1), description: z.string() })
  .transform((e): CarrierFailureDetail => ({ code: e.code, text: e.description }));

// ---------------------------------------------------------------- addresses and WFC

export interface WireE911 {
  street1: string;
  street2?: string;
  city: string;
  region: string;
  postal_code: string;
}

export function toWireE911(address: E911Address): WireE911 {
  return {
    street1: address.address1,
    ...(address.address2 === undefined ? {} : { street2: address.address2 }),
    city: address.city,
    region: address.state,
    postal_code: address.zipCode,
  };
}

export const wireE911 = z
  .object({
    street1: z.string(),
    street2: z.string().nullish(),
    city: z.string(),
    region: z.string(),
    postal_code: z.string(),
  })
  .transform((w): E911Address => ({
    address1: w.street1,
    ...(w.street2 == null ? {} : { address2: w.street2 }),
    city: w.city,
    state: w.region,
    zipCode: w.postal_code,
  }));

/** `wfc` member of a plan-bearing request; absent when the plan is not a WFC plan. */
export function toWireWfc(wfc: WfcRequest | undefined): { wfc?: { e911: WireE911 | null } } {
  return wfc === undefined ? {} : { wfc: { e911: wfc.address === null ? null : toWireE911(wfc.address) } };
}

export const wireWfcOutcome = z
  .discriminatedUnion('provisioned', [
    z.object({ provisioned: z.literal(true) }),
    z.object({ provisioned: z.literal(false), error: wireFailure }),
  ])
  .transform((w): WfcOutcome => (w.provisioned ? { provisioned: true } : { provisioned: false, failure: w.error }));

/** An E911 address validation: `{valid: true}`, or `{valid: false, error}` with the WFC writes' code. */
export const wireE911Validation = z
  .discriminatedUnion('valid', [
    z.object({ valid: z.literal(true) }),
    z.object({ valid: z.literal(false), error: wireFailure }),
  ])
  .transform((w): E911Validation => (w.valid ? { valid: true } : { valid: false, failure: w.error }));

// ---------------------------------------------------------------- balances

export const wireBalanceSummary = z
  .object({ voice_minutes: z.number(), sms_count: z.number(), data_bytes: z.number() })
  .transform((w): BalanceDetails => ({ talk: w.voice_minutes, text: w.sms_count, data: w.data_bytes }));

const wireBucket = z
  .object({ unit: z.string(), remaining: z.number(), valid_from: wireTimestamp, valid_until: wireTimestamp })
  .transform((w): Balance => ({ uom: w.unit, balance: w.remaining, validFrom: w.valid_from, validTo: w.valid_until }));

export const wireSubscription = z
  .object({ purchase_ref: z.string(), soc: z.string(), name: z.string(), buckets: z.array(wireBucket) })
  .transform((w): Subscription => ({
    purchaseId: w.purchase_ref,
    planCode: w.soc,
    planName: w.name,
    balances: w.buckets,
  }));

export const wireServiceCode = z
  .object({ soc: z.string(), effective_on: wireDate })
  .transform((w) => ({ code: w.soc, effectiveDate: w.effective_on }));

/** The answer to writes that have nothing to return. */
export const wireAck = z
  .object({ msisdn: z.string(), outcome: z.literal('completed') })
  .transform((): void => undefined);

export const wireLineRef = z
  .object({ msisdn: z.string(), iccid: z.string() })
  .transform((w): LineRef => ({ mdn: w.msisdn, sim: w.iccid }));
