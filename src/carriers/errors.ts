// The two ways a carrier call can fail: the carrier said no (a business rule, with a spec
// code), or the carrier could not be talked to (and the outcome may be unknown).

import type { CarrierFailureDetail, CarrierId } from './types.js';

/** The carrier refused the operation. `message` is the spec's form: `text (CODE)`. */
export class CarrierRejection extends Error {
  override readonly name = 'CarrierRejection';

  constructor(
    readonly code: string,
    readonly text: string,
  ) {
    super(`${text} (${code})`);
  }

  get detail(): CarrierFailureDetail {
    return { code: this.code, text: this.text };
  }
}

export type CarrierFaultKind =
  /** No answer within the adapter's timeout: a write may or may not have happened. */
  | 'timeout'
  /** Connection refused or reset before a request was sent or answered. */
  | 'unreachable'
  /** The carrier answered 5xx without a recognisable error body. */
  | 'server_error'
  /** The carrier answered something that is not its wire format. */
  | 'bad_response'
  /** Not sent: the carrier's last calls all failed, and its breaker refuses calls for a while. */
  | 'circuit_open';

/**
 * The carrier could not be talked to. Messages name the carrier and the kind of fault only:
 * never a URL, header or credential.
 */
export class CarrierFault extends Error {
  override readonly name = 'CarrierFault';

  constructor(
    readonly carrier: CarrierId,
    readonly kind: CarrierFaultKind,
    /** False when a write may have reached the carrier (timeouts, dropped answers). */
    readonly outcomeKnown: boolean,
    /** When a call may be tried again (`circuit_open`: when the breaker lets a trial through). */
    readonly retryAfterMs?: number,
  ) {
    super(CarrierFault.describe(carrier, kind));
  }

  /** For a call the breaker turned away: the carrier, and when to try again in whole seconds (at least 1). */
  get paused(): { carrier: CarrierId; retryAfterSeconds: number } | undefined {
    if (this.retryAfterMs === undefined) return undefined;
    return { carrier: this.carrier, retryAfterSeconds: Math.max(1, Math.ceil(this.retryAfterMs / 1000)) };
  }

  static describe(carrier: CarrierId, kind: CarrierFaultKind): string {
    const what: Record<CarrierFaultKind, string> = {
      timeout: 'did not answer in time',
      unreachable: 'could not be reached',
      server_error: 'reported an internal error',
      bad_response: 'sent an answer that could not be understood',
      circuit_open:
        'is not answering: its last calls all failed, so calls to it are paused until it answers again (nothing was sent)',
    };
    return `Carrier ${carrier} ${what[kind]}`;
  }
}

export function isCarrierRejection(error: unknown): error is CarrierRejection {
  return error instanceof CarrierRejection;
}

export function isCarrierFault(error: unknown): error is CarrierFault {
  return error instanceof CarrierFault;
}
