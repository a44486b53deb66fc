// How long recovery waits, holds and backs off, derived from the carrier call's own bounds: a
// row is not re-sent while its own request may still be waiting for the carrier.

import type { Config } from '../config.js';

export interface RecoveryTiming {
  /** `pending` rows younger than this may still be in their own request. */
  pendingAfterMs: number;
  /** How long one replica holds a row it re-sends. */
  leaseMs: number;
  sweepMs: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** A write waiting this long behind an older unresolved write on its line is warned of (RECOVERY_WAIT_WARN_MS). */
  waitWarnMs: number;
  /** How long shutdown waits for writes and re-sends in flight (SHUTDOWN_GRACE_MS). */
  drainMs: number;
}

export function recoveryTiming(config: Config): RecoveryTiming {
  // The longest one carrier call can take: every attempt timing out, plus ky's backoff between them.
  const carrierCallMs = config.CARRIER_TIMEOUT_MS * (config.CARRIER_RETRIES + 1) + config.CARRIER_RETRIES * 200;
  return {
    pendingAfterMs: 2 * carrierCallMs + 5_000,
    leaseMs: 2 * carrierCallMs + 10_000,
    sweepMs: config.RECOVERY_SWEEP_MS,
    backoffBaseMs: 1_000,
    backoffMaxMs: config.RECOVERY_BACKOFF_MAX_MS,
    waitWarnMs: config.RECOVERY_WAIT_WARN_MS,
    drainMs: config.SHUTDOWN_GRACE_MS,
  };
}
