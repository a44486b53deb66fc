// The spec's answer bodies, written in one place: every handler answers with these, and the
// pipeline's default answer to a carrier refusal is `refused` too.

import type { CarrierRejection } from '../carriers/errors.js';
import type { Outcome } from './operation.js';

/** An answer body: the data, `status: success` unless the data carries its own (a line record's), and a message. */
type Answered<T> = Omit<{ status: 'success' }, keyof T> & Omit<T, 'message'> & { message: string };

/**
 * A query the carrier answered: HTTP 200, `status: success` (a line record's own status wins),
 * the data, `message` (Success unless the spec words it otherwise).
 */
export function answered<T extends object>(data: T, message = 'Success'): Outcome<Answered<T>> {
  // The spread builds exactly Answered<T>; the compiler cannot follow a spread of a generic.
  return { status: 200, body: { status: 'success', ...data, message } as Answered<T> };
}

/** A write the carrier performed: the envelope with the transaction id (`success`, `message: Success`), plus the carrier's data. */
export function performed<T extends object>(
  transactionIdValue: string,
  data: T,
): Outcome<{ status: 'success'; transactionId: string; message: string } & T> {
  return { status: 200, body: { status: 'success', ...data, transactionId: transactionIdValue, message: 'Success' } };
}

/**
 * A query the carrier refused: HTTP 400, `status: failure`, what the caller asked about and the
 * carrier message with its code. Queries record no transaction, so unlike the pipeline's failure
 * envelope (for writes) this carries no transaction id.
 */
export function refused<T extends object>(
  rejection: CarrierRejection,
  asked: T,
): Outcome<{ status: 'failure'; message: string } & T> {
  return { status: 400, body: { status: 'failure', ...asked, message: rejection.message } };
}
