// The pieces of carrier_b's wire format that several methods share, each as a zod schema
// that validates the wire value and yields the domain value (or, for requests, a function
// from domain to wire). Anything that does not match is a bad_response, never half-parsed
// data. See docs/carriers/carrier-b.md.

import { z } from 'zod';
import type {
  Balance,
  BalanceDetails,
  BalanceUnit,
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

/** Latest instant whose ISO form still has a four-digit year; later ones are not timestamps. */
const MAX_EPOCH_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
const wireEpochMs = z.number().int().min(0).max(MAX_EPOCH_MS);

export const wireText = z.string();
export const wireCount = z.number().finite();

/** Epoch milliseconds on the wire → the domain's `YYYY-MM-DD HH:MM:SS` (UTC). */
export const wireTimestamp = wireEpochMs.transform((ms) => new Date(ms).toISOString().slice(0, 19).replace('T', ' '));

/** Epoch milliseconds → `YYYY-MM-DD` (UTC). */
export const wireDay = wireEpochMs.transform(toDay);

/** Epoch milliseconds → ISO 8601 UTC with a `Z`, to the second (SIM create dates). */
export const wireIsoUtc = wireEpochMs.transform((ms) => `${new Date(ms).toISOString().slice(0, 19)}Z`);

/** Epoch milliseconds → ISO 8601 with an explicit `+00:00` offset (SIM expiry dates). */
export const wireIsoWithOffset = wireEpochMs.transform((ms) => `${new Date(ms).toISOString().slice(0, 19)}+00:00`);

function toDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * `YYYY-MM-DD` → epoch milliseconds at 00:00 UTC. The gateway validates dates before they get
 * here, so an unreadable one is a programming error, not something to send.
 */
export function toWireDay(day: string | undefined): number | undefined {
  if (day === undefined) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(day) ? Date.parse(`${day}T00:00:00Z`) : Number.NaN;
  // Date.parse rolls 2026-02-30 over to March 2nd; the round trip refuses such days.
  if (Number.isNaN(ms) || toDay(ms) !== day)
    throw new TypeError('carrier_b adapter: expiry date must be a real YYYY-MM-DD day');
  return ms;
}

const STATES = {
  pending: 'NEW',
  live: 'ACTIVE',
  barred: 'SUSPENDED',
  ceased: 'DISCONNECTED',
} as const satisfies Record<string, LineStatus>;

export const wireSubscriberState = z
  .enum(['pending', 'live', 'barred', 'ceased'])
  .transform((state): LineStatus => STATES[state]);

const SCOPES = { VOICE: 'voice', SMS: 'sms', DATA: 'data' } as const satisfies Record<ServiceScope, string>;

/** The wire always names the scope; `all` is its word for "no particular service". */
export function toWireScope(service: ServiceScope | undefined): string {
  return service === undefined ? 'all' : SCOPES[service];
}

const LANGUAGES = { ENGL: 'en', SPAN: 'es' } as const satisfies Record<VoicemailLanguage, string>;

export function toWireLanguage(language: VoicemailLanguage): string {
  return LANGUAGES[language];
}

const UNITS = { SECOND: 'seconds', EVENT: 'events', BYTE: 'bytes' } as const satisfies Record<BalanceUnit, string>;

export function toWireUnit(uom: BalanceUnit): string {
  return UNITS[uom];
}

const UNIT_NAMES: Record<string, string> = { seconds: 'SECOND', events: 'EVENT', bytes: 'BYTE' };

/** Units without a wire word arrive as the carrier names them and pass through unchanged. */
const wireUnit = wireText.transform((unit) => UNIT_NAMES[unit] ?? unit);

// ---------------------------------------------------------------- the answer envelope

const wireFaultCode = z.union([z.number().int().nonnegative(), z.string().min(1)]);

/** The answer envelope; the transport checks that exactly one of result or fault is present. */
export const wireAnswerEnvelope = z.object({
  requestId: z.string().nullable(),
  result: z.record(z.string(), z.unknown()).optional(),
  fault: z.object({ faultCode: wireFaultCode, faultString: wireText }).optional(),
});

// ---------------------------------------------------------------- addresses and Wi-Fi Calling

export interface WireAddress {
  line1: string;
  line2?: string;
  town: string;
  stateCode: string;
  postCode: string;
}

export function toWireAddress(address: E911Address): WireAddress {
  return {
    line1: address.address1,
    line2: address.address2,
    town: address.city,
    stateCode: address.state,
    postCode: address.zipCode,
  };
}

export const wireAddress = z
  .object({ line1: wireText, line2: wireText.optional(), town: wireText, stateCode: wireText, postCode: wireText })
  .transform((w): E911Address => ({
    address1: w.line1,
    ...(w.line2 === undefined ? {} : { address2: w.line2 }),
    city: w.town,
    state: w.stateCode,
    zipCode: w.postCode,
  }));

/**
 * `wifiCalling` member of a plan-bearing request; absent when the plan is not a WFC plan.
 * `{emergencyAddress: null}` still asks for Wi-Fi Calling: the carrier then reports it failed.
 */
export function toWireWifiCalling(wfc: WfcRequest | undefined): {
  wifiCalling?: { emergencyAddress: WireAddress | null };
} {
  return wfc === undefined
    ? {}
    : { wifiCalling: { emergencyAddress: wfc.address === null ? null : toWireAddress(wfc.address) } };
}

export const wireWifiCallingOutcome = z
  .discriminatedUnion('provisioned', [
    z.object({ provisioned: z.literal(true) }),
    z.object({ provisioned: z.literal(false), faultCode: wireFaultCode, faultString: wireText }),
  ])
  .transform((w): WfcOutcome =>
    w.provisioned
      ? { provisioned: true }
      : { provisioned: false, failure: { code: String(w.faultCode), text: w.faultString } },
  );

/** An E911 address validation: `{valid: true}`, or `{valid: false}` with the WFC writes' fault. */
export const wireAddressValidation = z
  .discriminatedUnion('valid', [
    z.object({ valid: z.literal(true) }),
    z.object({ valid: z.literal(false), faultCode: wireFaultCode, faultString: wireText }),
  ])
  .transform((w): E911Validation =>
    w.valid ? { valid: true } : { valid: false, failure: { code: String(w.faultCode), text: w.faultString } },
  );

// ---------------------------------------------------------------- balances

export const wireAllowances = z
  .object({ voiceMinutes: wireCount, smsCount: wireCount, dataBytes: wireCount })
  .transform((w): BalanceDetails => ({ talk: w.voiceMinutes, text: w.smsCount, data: w.dataBytes }));

const wireBucket = z
  .object({ unit: wireUnit, remaining: wireCount, startsAt: wireTimestamp, endsAt: wireTimestamp })
  .transform((w): Balance => ({ uom: w.unit, balance: w.remaining, validFrom: w.startsAt, validTo: w.endsAt }));

export const wireBundle = z
  .object({ bundleId: wireText, tariffCode: wireText, tariffName: wireText, buckets: z.array(wireBucket) })
  .transform((w): Subscription => ({
    purchaseId: w.bundleId,
    planCode: w.tariffCode,
    planName: w.tariffName,
    balances: w.buckets,
  }));

// ---------------------------------------------------------------- answers to writes

/** The answer to writes that have nothing to return. */
export const wireAccepted = z.object({ msisdn: wireText, accepted: z.literal(true) }).transform((): void => undefined);

/** The answer to family (child line) writes, which name the owner's number. */
export const wireFamilyAccepted = z
  .object({ ownerMsisdn: wireText, accepted: z.literal(true) })
  .transform((): void => undefined);

export const wireLineRef = z
  .object({ msisdn: wireText, iccid: wireText })
  .transform((w): LineRef => ({ mdn: w.msisdn, sim: w.iccid }));
