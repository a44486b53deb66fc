// One carrier's circuit breaker. A carrier that stops answering (every call times out, its
// connections are refused, it answers 502/503/504) would otherwise hold each request for the
// whole timeout and its retries (~30 s by default), fill the carrier's connection pool, and keep
// a `lines` screen of that carrier's numbers waiting minutes. After `failures` such calls in a
// row, calls are refused at once for `cooldownMs` (nothing is sent, so the caller knows nothing
// happened and may retry); then one call goes through as a trial: its answer closes the breaker,
// its fault opens it again for another cooldown. Any answer between faults resets the count.

export interface BreakerSettings {
  /** Consecutive faults that open the breaker; 0 = never opens. */
  failures: number;
  /** How long an open breaker refuses calls before one trial may go. */
  cooldownMs: number;
}

/** What the breaker lets a call do: go as usual, go as the one trial of an open breaker, or not go. */
export type Admission = { kind: 'call' } | { kind: 'trial' } | { kind: 'refused'; retryInMs: number };

const CALL: Admission = Object.freeze({ kind: 'call' });
const TRIAL: Admission = Object.freeze({ kind: 'trial' });

/** A change of the breaker's state, for the log and the metrics. */
export type BreakerTransition = 'opened' | 'closed' | null;

export class CircuitBreaker {
  private consecutiveFaults = 0;
  /** When the breaker last opened (or a trial failed); null while closed. */
  private openedAt: number | null = null;
  private trialInFlight = false;

  constructor(
    private readonly settings: BreakerSettings,
    private readonly now: () => number = Date.now,
  ) {}

  get open(): boolean {
    return this.openedAt !== null;
  }

  admit(): Admission {
    if (this.openedAt === null) return CALL;
    const waited = this.now() - this.openedAt;
    if (waited < this.settings.cooldownMs) return { kind: 'refused', retryInMs: this.settings.cooldownMs - waited };
    // One trial at a time: the others wait for its answer, told to come back within a second.
    if (this.trialInFlight) return { kind: 'refused', retryInMs: Math.min(1_000, this.settings.cooldownMs) };
    this.trialInFlight = true;
    return TRIAL;
  }

  /** How an admitted call ended: `faulted` when the carrier did not answer, or answered 502/503/504. */
  settle(admission: Admission, faulted: boolean): BreakerTransition {
    if (admission.kind === 'trial') {
      this.trialInFlight = false;
      if (faulted) {
        this.openedAt = this.now();
        return null;
      }
      this.openedAt = null;
      this.consecutiveFaults = 0;
      return 'closed';
    }
    if (!faulted) {
      // A call sent before the breaker opened that is answered after it does not close it:
      // only the trial does, so that one slow answer cannot undo the count of many faults.
      this.consecutiveFaults = 0;
      return null;
    }
    this.consecutiveFaults += 1;
    if (this.settings.failures === 0 || this.openedAt !== null) return null;
    if (this.consecutiveFaults < this.settings.failures) return null;
    this.openedAt = this.now();
    return 'opened';
  }
}
