// What the extended operations share: the envelope members of their answers and the request
// fields only they use (the bodies come from ../schemas/envelope.ts). The spec shows no response body
// for these operations (except the plan catalogue), so every answer is the operation
// envelope (`status`, `message`) around the carrier's data; see docs/extended-operations.md.

import { z } from 'zod';
import { matching } from '../schemas/fields.js';

export const resultMessage = z
  .string()
  .describe('Success, or the carrier message ending with the error code in parentheses');

export const resultTransactionId = z
  .string()
  .describe('The caller-supplied transaction id, or the generated one: the prefix and 12 uppercase hex characters');

/** A 10-digit number on a phone list (the spec leaves the item format open; we take MDNs). */
export const phoneNumber = matching(/^\d{10}$/, 10, 'each number must be exactly 10 digits').describe(
  'A phone number, 10 digits',
);

export const accountId = matching(
  /^[A-Za-z0-9_-]{1,64}$/,
  64,
  'account_id must be 1 to 64 letters, digits, - or _',
).describe('Carrier account id (as shown by `account`), e.g. ACCT00000001');

const CALENDAR = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/;
const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/**
 * Whether `text` is a time the carrier adapters can pass on: `YYYY-MM-DD`, `YYYY-MM-DD HH:MM:SS`
 * (both UTC) or ISO 8601 with a zone, and a real instant (no February 30th).
 */
export function isTime(text: string): boolean {
  const calendar = CALENDAR.exec(text);
  if (calendar) {
    const [year, month, day, hour, minute, second] = calendar.slice(1).map((part) => Number(part ?? 0)) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const back = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
    // Date.UTC rolls impossible parts over (Feb 30 → Mar 2); a round trip catches them.
    return (
      back.getUTCFullYear() === year &&
      back.getUTCMonth() === month - 1 &&
      back.getUTCDate() === day &&
      back.getUTCHours() === hour &&
      back.getUTCMinutes() === minute &&
      back.getUTCSeconds() === second
    );
  }
  return ISO_WITH_ZONE.test(text) && !Number.isNaN(Date.parse(text));
}

const timeForms = (field: string) =>
  `${field} must be YYYY-MM-DD, YYYY-MM-DD HH:MM:SS (UTC) or ISO 8601 with a time zone`;

export const timeBound = (field: string, description: string) =>
  z
    .string()
    // The longest accepted form: 2026-01-01T00:00:00.123456789+00:00 (35 characters).
    .max(40, { error: timeForms(field), abort: true })
    .refine(isTime, timeForms(field))
    .describe(description);
