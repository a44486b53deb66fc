// Resolves every write whose outcome was lost (`unknown` after a carrier fault, `pending` after
// a crash) by re-sending it with the same transaction id until the carrier's answer is known:
// at once after a request ends `unknown`, at start-up, and in a low-frequency sweep. Faults are
// retried with exponential backoff, for ever, with a warning at each doubling of attempts. A row
// that a later write of the same kind on the same line has superseded is resolved as such
// instead, without a re-send (src/recovery/supersede.ts). A line's writes are re-sent oldest
// first: a row waits while an older write on its line is unresolved, and is re-sent as soon as
// that one resolves (src/recovery/line-order.ts); each sweep counts the writes so held back
// and warns of long waits (src/recovery/waits.ts).

import { CarrierFault } from '../carriers/errors.js';
import { asDatabaseUnavailable, logPassFailure } from '../errors/database-unavailable.js';
import { atWallClock, type WallClockTimer } from '../lib/wall-clock-timer.js';
import type { RegisteredOperation } from '../pipeline/operation.js';
import type { AbandonedWrite, OutcomeRecovery, Services } from '../pipeline/services.js';
import { abandonWrite } from './abandon.js';
import type { TransactionRecord } from '../pipeline/transaction-log.js';
import type { LineMatch, RecoveryLeases } from './leases.js';
import { LineOrder, type LineRow } from './line-order.js';
import { NotResendable, resend } from './resend.js';
import { recordRecovered, type OutcomeFollowers } from './record-recovered.js';
import { StateAspects, Supersession } from './supersede.js';
import type { RecoveryTiming } from './timing.js';
import { WaitWatch } from './waits.js';

/** Rows re-sent side by side in one sweep: a backlog must not flood a recovering carrier. */
const SWEEP_CONCURRENCY = 4;
const SWEEP_BATCH = 100;
/**
 * A line's next writes tried at once when a write on it resolves: the one after it, and the
 * first of each of its other lines (a child line's parent and child), which need not wait.
 */
const WAKE_BATCH = 8;

const isMilestone = (attempts: number) => attempts > 0 && (attempts & (attempts - 1)) === 0;

export class Reconciler implements OutcomeRecovery {
  private services?: Services;
  private readonly timers = new Map<string, WallClockTimer>();
  private readonly working = new Map<string, Promise<void>>();
  private sweepTimer?: NodeJS.Timeout;
  private startupTimer?: NodeJS.Timeout;
  private sweeping?: Promise<void>;
  private stopped = false;
  private writes = 0;
  private writesDrained?: () => void;
  private readonly supersession: Supersession;
  private readonly order: LineOrder;
  private readonly waits: WaitWatch;

  constructor(
    private readonly leases: RecoveryLeases,
    private readonly operations: readonly RegisteredOperation[],
    readonly timing: RecoveryTiming,
    /** Told after a learned outcome's line event commits (the outbox relay publishes it). */
    private readonly eventWritten: () => void = () => {},
    private readonly followers: OutcomeFollowers = {},
  ) {
    this.supersession = new Supersession(leases, operations);
    this.order = new LineOrder(leases.db, operations, new StateAspects(operations));
    this.waits = new WaitWatch(leases, timing.waitWarnMs);
  }

  /** Resolves what a crash left behind, then sweeps every `sweepMs`. */
  start(services: Services): void {
    this.services = services;
    void this.sweep();
    // Rows a crash left `pending` just before this start become eligible after pendingAfterMs.
    this.startupTimer = setTimeout(() => void this.sweep(), this.timing.pendingAfterMs).unref();
    this.sweepTimer = setInterval(() => void this.sweep(), this.timing.sweepMs).unref();
  }

  /** An operator gives `id` up (src/recovery/abandon.ts); the writes that waited for it go at once. */
  async abandon(id: string, reason: string, { dryRun = false } = {}): Promise<AbandonedWrite> {
    const abandoned = await abandonWrite(
      { leases: this.leases, order: this.order, followers: this.followers },
      { id, reason, pendingAfterMs: this.timing.pendingAfterMs, wakeLimit: WAKE_BATCH, dryRun },
    );
    if (dryRun) return abandoned;
    this.services?.metrics.recoveries.inc({ outcome: 'abandoned' });
    // Where this reconciler runs (not the admin CLI's, never started): elsewhere the next sweep.
    for (const next of abandoned.released) this.resolveSoon(next);
    return abandoned;
  }

  /** Tries to resolve `id` in the background after `delayMs`. */
  resolveSoon(id: string, delayMs = 0): void {
    this.resolveAt(id, Date.now() + delayMs);
  }

  /**
   * Tries to resolve `id` once `Date.now()` reaches `dueAt`: not a moment before, or a re-send
   * would find its row's backoff lease not yet over, be refused, and wait for the next sweep
   * (a minute by default).
   */
  private resolveAt(id: string, dueAt: number): void {
    if (this.stopped || !this.services) return;
    this.timers.get(id)?.cancel();
    this.timers.set(
      id,
      atWallClock(dueAt, () => {
        this.timers.delete(id);
        void this.attempt(id);
      }),
    );
  }

  /** Marks a mutating request in flight; shutdown waits (bounded) for it to record its outcome. */
  begin(): () => void {
    this.writes++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (--this.writes === 0) this.writesDrained?.();
    };
  }

  /** One pass over every unresolved row nobody holds. */
  sweep(): Promise<void> {
    this.sweeping ??= this.sweepOnce().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  /** Stops timers; waits up to `drainMs` for writes and re-sends in flight (the rest stays unresolved). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.sweepTimer);
    clearTimeout(this.startupTimer);
    for (const timer of this.timers.values()) timer.cancel();
    this.timers.clear();
    const writes =
      this.writes === 0 ? Promise.resolve() : new Promise<void>((resolve) => (this.writesDrained = resolve));
    let deadline: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([writes, ...this.working.values(), this.sweeping]),
      new Promise((resolve) => (deadline = setTimeout(resolve, this.timing.drainMs))),
    ]);
    clearTimeout(deadline);
  }

  private pendingBefore(): Date {
    return new Date(Date.now() - this.timing.pendingAfterMs);
  }

  private async sweepOnce(): Promise<void> {
    if (this.stopped || !this.services) return;
    try {
      const ids = (await this.leases.due({ pendingBefore: this.pendingBefore() }, SWEEP_BATCH)).filter(
        (id) => !this.timers.has(id),
      );
      const queue = [...ids];
      const worker = async () => {
        for (let id = queue.shift(); id !== undefined && !this.stopped; id = queue.shift()) await this.attempt(id);
      };
      await Promise.all(Array.from({ length: SWEEP_CONCURRENCY }, worker));
    } catch (error) {
      logPassFailure(this.services.logger, 'transaction recovery sweep failed', error);
    }
    // What is still held back once the sweep has re-sent what it could (src/recovery/waits.ts).
    if (!this.stopped) await this.waits.observe({ pendingBefore: this.pendingBefore() }, this.services);
  }

  private async attempt(id: string): Promise<void> {
    if (this.stopped || this.working.has(id)) return;
    const run = this.resolveOnce(id)
      .catch((error: unknown) => logPassFailure(this.services!.logger, `transaction ${id} not recovered yet`, error))
      .finally(() => this.working.delete(id));
    this.working.set(id, run);
    await run;
  }

  /**
   * Tries `id`, after its attempt in progress on this replica if there is one: that attempt may
   * have found the older write still unresolved just before it resolved, and a wake it skipped
   * would leave the row to the next sweep.
   */
  private async attemptAfter(id: string): Promise<void> {
    await this.working.get(id);
    await this.attempt(id);
  }

  /**
   * Claims `id` unless an older write on its line is unresolved; the row as claimed (its
   * attempt counted), or null when it is not ours to re-send now.
   */
  private async claim(id: string): Promise<TransactionRecord | null> {
    const { logger, settings, transactions } = this.services!;
    try {
      // Maintenance mode stops all carrier traffic; the sweep tries again afterwards.
      if ((await settings.values()).maintenance_mode) return null;
      const unclaimed = await transactions.find(id);
      if (!unclaimed || (unclaimed.status !== 'unknown' && unclaimed.status !== 'pending')) return null;
      const line = await this.lineBefore(unclaimed);
      const rules = { leaseMs: this.timing.leaseMs, pendingBefore: this.pendingBefore() };
      if (await this.leases.claim(id, rules, line)) return await transactions.find(id);
      // Refused: held elsewhere, backing off, resolved meanwhile, or waiting for an older write on
      // its line. Nothing is scheduled for the last: the older write's resolution wakes this one
      // (one resolved by its own request rather than by recovery leaves it to the next sweep).
      const older = await this.leases.olderUnresolved(id, line);
      if (older)
        logger.debug('transaction waits for an older unresolved write on its line', {
          transactionId: id,
          operation: unclaimed.operation,
          waitsFor: older,
        });
      return null;
    } catch (error) {
      // A database outage: a warning without a stack (the row is tried again at the next sweep).
      if (asDatabaseUnavailable(error))
        logger.warn('transaction recovery could not claim a row', {
          transactionId: id,
          reason: 'the database is not answering',
        });
      else logger.error('transaction recovery could not claim a row', { transactionId: id, err: error });
      return null;
    }
  }

  private async lineBefore(row: LineRow): Promise<LineMatch> {
    const keys = await this.order.before(row);
    return (alias) => this.order.onLine(alias, keys);
  }

  /**
   * After `row` resolved (however: learned, superseded, or recorded elsewhere meanwhile): its
   * line's next writes, which may have waited for it, are made due and tried now, not after
   * their own backoff; awaited, so that a sweep ends with the line's chain it began.
   */
  private async wakeNext(row: TransactionRecord, answer?: unknown): Promise<void> {
    let next: string[];
    try {
      const keys = await this.order.after(row, answer);
      next = await this.leases.wake(
        row.id,
        (alias) => this.order.onLine(alias, keys),
        { pendingBefore: this.pendingBefore() },
        WAKE_BATCH,
      );
    } catch (error) {
      // The sweep takes them instead, once their own backoff (if any) has passed.
      logPassFailure(this.services!.logger, 'transaction recovery could not wake the next writes of a line', error);
      return;
    }
    for (const id of next) {
      this.timers.get(id)?.cancel();
      this.timers.delete(id);
    }
    await Promise.all(next.map((id) => this.attemptAfter(id)));
  }

  private async resolveOnce(id: string): Promise<void> {
    const row = await this.claim(id);
    if (!row) return;
    const resolved = await this.settle(row);
    if (resolved) await this.wakeNext(row, resolved.answer);
  }

  /** Supersedes or re-sends the claimed `row`; what resolved it (null when it stays unresolved, with its backoff). */
  private async settle(row: TransactionRecord): Promise<{ answer?: unknown } | null> {
    const services = this.services!;
    const { logger, metrics } = services;
    const id = row.id;
    try {
      // Checked at every attempt, not once: the later write may arrive while this one backs off.
      // With a line's re-sends in order, the later success is one its own request made (this
      // row's younger writes are re-sent only after it): see src/recovery/supersede.ts.
      if (await this.supersession.settle(row, services)) return {};
      const answer = await resend(services, this.operations, row);
      await recordRecovered(
        {
          services,
          leases: this.leases,
          operations: this.operations,
          followers: this.followers,
          eventWritten: this.eventWritten,
        },
        row,
        answer,
      );
      return { answer: answer.outcome.body };
    } catch (error) {
      const delay = Math.min(this.timing.backoffBaseMs * 2 ** Math.min(row.attempts - 1, 30), this.timing.backoffMaxMs);
      // The row's lease and this replica's timer end at the same instant.
      const retryAt = Date.now() + delay;
      await this.leases.release(id, new Date(retryAt)).catch(() => undefined);
      metrics.recoveries.inc({ outcome: 'retry' });
      const databaseDown = asDatabaseUnavailable(error) !== undefined;
      const reason =
        error instanceof CarrierFault
          ? error.kind
          : error instanceof NotResendable
            ? error.message
            : databaseDown
              ? 'the database is not answering'
              : 'unexpected error';
      if (!(error instanceof CarrierFault) && !(error instanceof NotResendable) && !databaseDown) {
        logger.error('transaction recovery failed unexpectedly', { transactionId: id, err: error });
      }
      const fields = { transactionId: id, operation: row.operation, attempts: row.attempts, reason, retryInMs: delay };
      if (isMilestone(row.attempts)) logger.warn('transaction outcome still unknown', fields);
      else logger.debug('transaction outcome still unknown', fields);
      this.resolveAt(id, retryAt);
      return null;
    }
  }
}
