// What the extended operations share: the envelope members of their answers, the success
// and failure bodies, and the request fields only they use. The spec shows no response body
// for these operations (except the plan catalogue), so every answer is the operation
// envelope (`status`, `message`) around the carrier's data; see docs/extended-operations.md.

import { z } from 'zod';
import type { CarrierRejection } from '../../carriers/errors.js';
import type { Outcome } from '../../pipeline/operation.js';
import { operationStatus } from '../schemas/envelope.js';
import { matching } from '../schemas/fields.js';

export { operationStatus };

export const resultMessage = z.string().describe('Success, or the carrier message ending with the error code in parentheses');

export const resultTransactionId = z
  .string()
  .describe('The caller-supplied transaction id, or the generated one: the prefix and 12 uppercase hex characters');

/** A query the carrier answered: HTTP 200, `status: success`, the data, `message: Success`. */
export function answered<T extends object>(data: T): Outcome<{ status: 'success'; message: string } & T> {
  return { status: 200, body: { status: 'success', ...data, message: 'Success' } };
}

/** A write the carrier performed: the envelope with the transaction id, plus the carrier's data. */
export function performed<T extends object>(transactionId: string, data: T): Outcome<{ status: 'success'; transactionId: string; message: string } & T> {
  return { status: 200, body: { status: 'success', ...data, transactionId, message: 'Success' } };
}

/**
 * A query the carrier refused: HTTP 400, `status: failure`, what the caller asked about and the
 * carrier message with its code. Queries record no transaction, so unlike the default failure
 * envelope this carries no (empty) transaction id.
 */
export function refused<T extends object>(rejection: CarrierRejection, asked: T): Outcome<{ status: 'failure'; message: string } & T> {
  return { status: 400, body: { status: 'failure', ...asked, message: rejection.message } };
}

/** A 10-digit number on a phone list (the spec leaves the item format open; we take MDNs). */
export const phoneNumber = matching(/^\d{10}$/, 10, 'each number must be exactly 10 digits').describe('A phone number, 10 digits');

export const accountId = matching(/^[A-Za-z0-9_-]{1,64}$/, 64, 'account_id must be 1 to 64 letters, digits, - or _')
  .describe('Carrier account id (as shown by `account`), e.g. ACCT00000001');

const CALENDAR = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/;
const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/**
 * Whether `text` is a time the carrier adapters can pass on: `YYYY-MM-DD`, `YYYY-MM-DD HH:MM:SS`
 * (both UTC) or ISO 8601 with a zone, and a real instant (no February 30th).
 */
export function isTime(text: string): boolean {
  const calendar = CALENDAR.exec(text);
  if (calendar) {
    const [year, month, day, hour, minute, second] = calendar.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
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

const timeForms = (field: string) => `${field} must be YYYY-MM-DD, YYYY-MM-DD HH:MM:SS (UTC) or ISO 8601 with a time zone`;

export const timeBound = (field: string, description: string) =>
  z
    .string()
    // The longest accepted form: 2026-01-01T00:00:00.123456789+00:00 (35 characters).
    .max(40, { error: timeForms(field), abort: true })
    .refine(isTime, timeForms(field))
    .describe(description);
