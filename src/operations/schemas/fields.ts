// The request fields of the spec, each defined once with its limits and the 422 message a
// caller sees (FastAPI-style: the spec's "state must be a 2-letter US state code"…).

import { z } from 'zod';
import { BALANCE_UNITS, PHONE_LIST_ACTIONS, SERVICE_SCOPES, VOICEMAIL_LANGUAGES } from '../../carriers/types.js';

export const mdn = z.string().regex(/^\d{10}$/, 'mdn must be exactly 10 digits').describe('Subscriber number (MDN), 10 digits');
export const iccid = z
  .string()
  .regex(/^[A-Za-z0-9]{1,25}$/, 'sim must be alphanumeric, at most 25 characters')
  .describe('SIM identifier (ICCID), alphanumeric, at most 25 characters');
export const activationIccid = z.string().regex(/^\d{19,20}$/, 'sim must be a 19 or 20 digit ICCID').describe('SIM identifier (ICCID), 19 or 20 digits');
export const imei = z.string().regex(/^\d{15}$/, 'imei must be exactly 15 digits').describe('Device identifier (IMEI), 15 digits');
export const zipCode = z.string().regex(/^\d{5}$/, 'zip_code must be 5 digits').describe('US ZIP code, 5 digits');
export const zipCodeOrPlus4 = z
  .string()
  .regex(/^\d{5}(-\d{4})?$/, 'zip_code must be 5 digits or ZIP+4 (NNNNN-NNNN)')
  .describe('US ZIP code: 5 digits or ZIP+4 (NNNNN-NNNN)');
export const state = z.string().regex(/^[A-Za-z]{2}$/, 'state must be a 2-letter US state code').describe('2-letter US state code');
export const upperState = z.string().regex(/^[A-Z]{2}$/, 'state must be a 2-letter US state code').describe('2-letter US state code, upper case');
/**
 * A caller's transaction id is stored, sent to the carrier (321's `Idempotency-Key` header,
 * carrier_b's `requestId`) and answered: it must be the same bytes in all three places. HTTP
 * header values lose surrounding spaces and cannot carry control characters, so only visible
 * ASCII is accepted; nothing is trimmed or re-encoded. Generated ids (`PREFIX` + 12 hex,
 * `BULK_<sim>_<ms>`) fit the same rule.
 */
export const TRANSACTION_ID_RULE = 'transaction_id must be 1 to 64 printable ASCII characters without spaces (0x21-0x7E)';
export const TRANSACTION_ID_PATTERN = /^[\x21-\x7E]{1,64}$/;
export const transactionId = z
  .string()
  .regex(TRANSACTION_ID_PATTERN, TRANSACTION_ID_RULE)
  .describe('Unique id of this request, 1 to 64 printable ASCII characters without spaces; generated when absent. Repeating one answers 409');
export const nonEmpty = (field: string, description: string) => z.string().trim().min(1, `${field} must not be empty`).describe(description);

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
