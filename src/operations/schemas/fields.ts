// The request fields of the spec, each defined once with its limits and the 422 message a
// caller sees (FastAPI-style: the spec's "state must be a 2-letter US state code"…).
// Every string has a maximum length, checked first and stopping validation there, so no
// pattern ever runs on an oversized value (test/security/input-limits.test.ts walks them all).

import { z } from 'zod';
import { BALANCE_UNITS, PHONE_LIST_ACTIONS, SERVICE_SCOPES, VOICEMAIL_LANGUAGES } from '../../carriers/types.js';
import { US_STATE_CODES } from './us-states.js';

/**
 * Length caps of the free-text fields: within what carrier provisioning and E911 APIs take
 * (USPS address lines and city names are far shorter; RFC 5321 caps an email path at 254).
 */
export const MAX_LENGTH = {
  addressLine: 100,
  city: 50,
  /** Plan ids, as the management API creates them. */
  planId: 64,
  billingCode: 50,
  /** Carrier purchase and subscription ids. */
  carrierId: 64,
  reason: 500,
  email: 254,
} as const;

/**
 * A string of at most `max` characters matching `pattern`, one message for both: the length
 * is checked first and aborts validation, so the pattern only ever sees bounded input.
 */
export const matching = (pattern: RegExp, max: number, message: string) =>
  z.string().max(max, { error: message, abort: true }).regex(pattern, message);

/** A length cap that stops validation when exceeded (no later check runs on the value). */
export const capped = (field: string, max: number) =>
  z.string().max(max, { error: `${field} must be at most ${max} characters`, abort: true });

export const mdn = matching(/^\d{10}$/, 10, 'mdn must be exactly 10 digits').describe(
  'Subscriber number (MDN), 10 digits',
);
export const iccid = matching(/^[A-Za-z0-9]{1,25}$/, 25, 'sim must be alphanumeric, at most 25 characters').describe(
  'SIM identifier (ICCID), alphanumeric, at most 25 characters',
);
export const activationIccid = matching(/^\d{19,20}$/, 20, 'sim must be a 19 or 20 digit ICCID').describe(
  'SIM identifier (ICCID), 19 or 20 digits',
);
export const imei = matching(/^\d{15}$/, 15, 'imei must be exactly 15 digits').describe(
  'Device identifier (IMEI), 15 digits',
);
export const zipCode = matching(/^\d{5}$/, 5, 'zip_code must be 5 digits').describe('US ZIP code, 5 digits');
export const zipCodeOrPlus4 = matching(
  /^\d{5}(-\d{4})?$/,
  10,
  'zip_code must be 5 digits or ZIP+4 (NNNNN-NNNN)',
).describe('US ZIP code: 5 digits or ZIP+4 (NNNNN-NNNN)');
const STATE_RULE = 'state must be a 2-letter US state code';
/** Two letters that USPS gives a state, DC, a territory or a military post (us-states.ts); one issue at most. */
const usStateCode = (letters: RegExp) =>
  z
    .string()
    .max(2, { error: STATE_RULE, abort: true })
    .regex(letters, { error: STATE_RULE, abort: true })
    .refine((code) => US_STATE_CODES.has(code.toUpperCase()), STATE_RULE);
export const state = usStateCode(/^[A-Za-z]{2}$/).describe(
  '2-letter US state code (USPS: a state, DC, a territory or a military post), either case',
);
export const upperState = usStateCode(/^[A-Z]{2}$/).describe(
  '2-letter US state code (USPS: a state, DC, a territory or a military post), upper case',
);
/**
 * A caller's transaction id is stored, sent to the carrier (321's `Idempotency-Key` header,
 * carrier_b's `requestId`) and answered: it must be the same bytes in all three places. HTTP
 * header values lose surrounding spaces and cannot carry control characters, so only visible
 * ASCII is accepted; nothing is trimmed or re-encoded. Generated ids (`PREFIX` + 12 hex,
 * `BULK_<sim>_<ms>`) fit the same rule.
 */
export const TRANSACTION_ID_RULE =
  'transaction_id must be 1 to 64 printable ASCII characters without spaces (0x21-0x7E)';
export const TRANSACTION_ID_PATTERN = /^[\x21-\x7E]{1,64}$/;
export const transactionId = matching(TRANSACTION_ID_PATTERN, 64, TRANSACTION_ID_RULE).describe(
  'Unique id of this request, 1 to 64 printable ASCII characters without spaces; generated when absent. Repeating one answers 409',
);
/** Free text, trimmed, 1 to `max` characters; the cap is stated in the description. */
export const nonEmpty = (field: string, description: string, max: number) =>
  capped(field, max).trim().min(1, `${field} must not be empty`).describe(`${description}; at most ${max} characters`);

export const language = z
  .enum(VOICEMAIL_LANGUAGES, { error: 'language must be ENGL or SPAN' })
  .meta({ id: 'VoicemailLanguage', description: 'Voicemail and IVR language: ENGL (English) or SPAN (Spanish)' });
export const balanceUnit = z
  .enum(BALANCE_UNITS, { error: 'UOM must be SECOND, EVENT or BYTE' })
  .meta({ id: 'BalanceUnit', description: 'Unit of measure: SECOND (voice), EVENT (SMS), BYTE (data)' });
export const serviceScope = z
  .enum(SERVICE_SCOPES, { error: 'service must be VOICE, SMS or DATA' })
  .meta({ id: 'ServiceScope', description: 'One service (VOICE, SMS or DATA); absent = all services' });
export const phoneListAction = z
  .enum(PHONE_LIST_ACTIONS, { error: 'action must be add, remove, block or unblock' })
  .meta({ id: 'PhoneListAction', description: 'What to do with the numbers: add, remove, block or unblock' });
