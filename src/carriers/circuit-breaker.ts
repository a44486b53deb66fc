// One carrier's circuit breaker. A carrier that stops answering (every call times out, its
// connections are refused, it answers 5xx) would otherwise hold each request for the whole
// timeout and its retries (~30 s by default), fill the carrier's connection pool, and keep a
// `lines` screen of that carrier's numbers waiting minutes. After `failures` such calls in a
// row, calls are refused at once (nothing is sent, so the caller knows nothing happened and may
// retry). When `cooldownMs` has passed the breaker sends its own trial, the carrier's readiness
// probe (one cheap read, sent once), never a caller's request: a caller's write would fail in
// its place while the carrier is still down, and a bulk job would lose a SIM to each trial. The
// probe's answer closes the breaker; its failure opens it for another cooldown. Any answer
// between faults resets the count.

export interface BreakerSettings {
  /** Consecutive faults that open the breaker; 0 = never opens. */
  failures: number;
  /** How long an open breaker refuses calls before its trial. */
  cooldownMs: number;
}

export interface BreakerHooks {
  /** Whether the carrier answers (the trial): false, or a rejection, keeps the breaker open. */
  trial: () => Promise<boolean>;
  /** Told when the breaker opens or closes (the log, the metrics). */
  onChange?: (transition: 'opened' | 'closed') => void;
}

/**
 * What the breaker lets a call do: go (in the breaker's current generation, which the call's
 * end is counted in), or not go (and when to try again).
 */
export type Admission = { kind: 'call'; generation: number } | { kind: 'refused'; retryInMs: number };
/** What callers are told while the trial is out: its answer is due within the carrier timeout. */
const DURING_TRIAL_RETRY_MS = 1_000;

export class CircuitBreaker {
  private consecutiveFaults = 0;
  /** When the breaker last opened (or its trial failed); null while closed. */
  private openedAt: number | null = null;
  private trialTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  /**
   * Each close starts a generation: the ends of calls admitted before it (many of them slow,
   * against a carrier that was hung) no longer count, so they cannot reopen a breaker whose
   * trial has just found the carrier back. One admission object per generation.
   */
  private generation = 0;
  private call: Admission = Object.freeze({ kind: 'call', generation: this.generation });

  constructor(
    private readonly settings: BreakerSettings,
    private readonly hooks: BreakerHooks,
    // Monotonic: a wall clock set back would hold the breaker open for as long.
    private readonly now: () => number = () => performance.now(),
  ) {}

  get open(): boolean {
    return this.openedAt !== null;
  }

  admit(): Admission {
    if (this.openedAt === null) return this.call;
    const left = this.settings.cooldownMs - (this.now() - this.openedAt);
    return { kind: 'refused', retryInMs: left > 0 ? left : Math.min(DURING_TRIAL_RETRY_MS, this.settings.cooldownMs) };
  }

  /** How an admitted call ended: `faulted` when the carrier did not answer, or answered 5xx. */
  settle(admission: Admission, faulted: boolean): void {
    if (admission !== this.call) return;
    if (!faulted) {
      // A call sent before the breaker opened that is answered after it does not close it:
      // only the trial does, so that one slow answer cannot undo the count of many faults.
      if (this.openedAt === null) this.consecutiveFaults = 0;
      return;
    }
    this.consecutiveFaults += 1;
    if (this.settings.failures === 0 || this.openedAt !== null || this.stopped) return;
    if (this.consecutiveFaults < this.settings.failures) return;
    this.reopen();
    this.hooks.onChange?.('opened');
  }

  /** No more trials (the carrier's client is closing). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.trialTimer);
  }

  private reopen(): void {
    this.openedAt = this.now();
    clearTimeout(this.trialTimer);
    this.trialTimer = setTimeout(() => void this.runTrial(), this.settings.cooldownMs);
    this.trialTimer.unref();
  }

  private async runTrial(): Promise<void> {
    const answered = await this.hooks.trial().catch(() => false);
    if (this.stopped) return;
    if (!answered) return this.reopen();
    this.openedAt = null;
    this.consecutiveFaults = 0;
    this.call = Object.freeze({ kind: 'call', generation: ++this.generation });
    this.hooks.onChange?.('closed');
  }
}
