// Runs bulk activation jobs: each SIM through the shared pipeline (plan authorization, carrier,
// transaction id reserved before the call, line record), up to BULK_JOB_CONCURRENCY of a job's
// SIMs at once and BULK_REPLICA_CONCURRENCY of all the jobs' here, one failure never stopping
// the rest. The SIMs in flight together share their database writes (job-services.ts: group
// commit), each still waiting for its own rows. A job runs on the one replica holding its
// lease, renewed while it runs; a job whose lease expired (its replica died) is taken over by the
// next sweep here. Outcomes are written in batches, in SIM order: a SIM's answer is already in
// the transaction log, under the id the job gave it, so a resumed job reads what a crash left
// unwritten from there and never sends a SIM twice (a SIM whose outcome is still unknown, or
// whose id was reserved but not sent, is resolved by src/recovery/, then read: resumed-sims.ts).
// A SIM its carrier's breaker turned away waits for the carrier (carrier-wait.ts). A SIM of this
// run whose outcome is lost gets a failure entry, written `unknown`; recovery rewrites it once it
// learns the outcome (recovered-items.ts), even after the job has ended.

import pLimit, { type LimitFunction } from 'p-limit';
import { parseDatabaseUrl } from '../../../db/client.js';
import type { UserRecord } from '../../../directory/types.js';
import { requestContextFor, type RequestContext } from '../../../pipeline/request-context.js';
import type { BulkActivationJobs, Services } from '../../../pipeline/services.js';
import { activateItem, primeSimHomes, type ItemAnswer } from './activate-item.js';
import type { JobLeases } from './job-leases.js';
import { sendWaitingForCarrier, type WaitingRun } from './carrier-wait.js';
import { sentBefore, sentWithEffect, settleSent } from './resumed-sims.js';
import { OrderedOutcomes } from './ordered-outcomes.js';
import { groupCommitting } from './job-services.js';
import { findJob, type JobRecord, type JobStatus, type PendingItem, type SentRow } from './job-store.js';
import { asDatabaseUnavailable, logPassFailure } from '../../../errors/database-unavailable.js';

/** Jobs one replica runs side by side (each up to BULK_JOB_CONCURRENCY SIMs at a time). */
const MAX_JOBS_HERE = 4;
/** Least time between two progress events of a running job. */
const PROGRESS_EVERY_MS = 100;

interface RunState extends WaitingRun {
  job: JobRecord;
  processed: number;
  succeeded: number;
  /** SIMs written with an outcome still being learned (recovery may rewrite them later). */
  unresolved: number;
  cancelled: boolean;
  /** The database stopped answering: stop without writing; the job resumes once it answers. */
  databaseDown: boolean;
  /** Another replica holds the lease now: stop without writing. */
  lost: boolean;
  /** When progress was last published (ms). */
  publishedAt: number;
  done: Promise<void>;
}

/** One SIM at a time when two SIMs or two transaction ids repeat: the first must win, as in order. */
function concurrencyFor(items: readonly PendingItem[], bound: number): number {
  const sims = new Set(items.map((item) => item.input.sim));
  const ids = new Set(items.map((item) => item.transactionId));
  return sims.size === items.length && ids.size === items.length ? bound : 1;
}

/** One warning, no stack: the job's lease lapses and a sweep resumes it once the database answers. */
function pausedForDatabase(services: Services, jobId: string): void {
  services.logger.warn('bulk activation job paused: the database is not answering; it resumes once it does', { jobId });
}

export class BulkJobRunner implements BulkActivationJobs {
  private services?: Services;
  private batched?: Services;
  private readonly running = new Map<string, RunState>();
  private sweepTimer?: NodeJS.Timeout;
  private stopping = false;
  /**
   * Every job's SIMs here take a place in it for their activation: jobs side by side share the
   * carriers' connections, and interactive requests keep the rest. A job alone may fill its own
   * bound (the SIMs in flight together share their commits: 16 at once write ~25 % fewer WAL
   * pages per SIM than 8, docs/performance.md, "Bulk activation", Round 6).
   */
  private readonly inFlight: LimitFunction;

  constructor(
    readonly store: JobLeases,
    readonly leaseMs: number,
    replicaConcurrency: number,
  ) {
    this.inFlight = pLimit(replicaConcurrency);
  }

  /** Resumes what a crash or another replica left, then looks for such jobs every lease period. */
  start(services: Services): void {
    this.services = services;
    void this.sweep();
    this.sweepTimer = setInterval(() => void this.sweep(), this.leaseMs);
    this.sweepTimer.unref();
  }

  /** Stops every job here after its current SIM, writes what it did and frees its lease. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.sweepTimer);
    await Promise.allSettled([...this.running.values()].map((state) => state.done));
  }

  runHere(jobId: string, options: { answerNow?: boolean } = {}): Promise<void> {
    const existing = this.running.get(jobId);
    if (existing) return existing.done;
    if (this.stopping || !this.services) return Promise.resolve();
    const state = {
      answerNow: options.answerNow ?? false,
      cancellationReadAt: 0,
      cancelled: false,
      databaseDown: false,
      lost: false,
      processed: 0,
      succeeded: 0,
      unresolved: 0,
      publishedAt: 0,
    } as RunState;
    state.done = this.run(jobId, state, this.services)
      .catch((error: unknown) => {
        // An outage: one warning, no stack; the job's lease lapses and a sweep resumes it.
        if (asDatabaseUnavailable(error) || state.databaseDown) pausedForDatabase(this.services!, jobId);
        else this.services!.logger.error('bulk activation job failed unexpectedly', { jobId, err: error });
      })
      .finally(() => this.running.delete(jobId));
    this.running.set(jobId, state);
    return state.done;
  }

  runInBackground(jobId: string): void {
    void this.runHere(jobId);
  }

  cancelled(jobId: string): void {
    const state = this.running.get(jobId);
    if (state) state.cancelled = true;
  }

  private async sweep(): Promise<void> {
    if (this.stopping || !this.services || this.running.size >= MAX_JOBS_HERE) return;
    try {
      const ids = await this.store.claimable(MAX_JOBS_HERE);
      for (const id of ids) if (this.running.size < MAX_JOBS_HERE) this.runInBackground(id);
    } catch (error) {
      logPassFailure(this.services.logger, 'bulk activation sweep failed', error);
    }
  }

  private async run(jobId: string, state: RunState, services: Services): Promise<void> {
    const before = await findJob(services.db, jobId);
    if (!before || !(await this.store.claim(jobId, this.leaseMs))) return;
    state.job = before;
    // Cancelled while an earlier run held it (that replica died before it could stop): no SIM
    // more is sent; those the dead run had sent get their outcome, and the job ends cancelled.
    state.cancelled = before.cancelRequested;
    state.processed = before.processed;
    state.succeeded = before.succeeded;
    state.unresolved = before.unresolved;
    const renewal = setInterval(() => {
      this.store.renew(jobId, this.leaseMs).then(
        (held) => void (held || (state.lost = true)),
        (error: unknown) => services.logger.warn('bulk activation lease not renewed', { jobId, err: error }),
      );
    }, this.leaseMs / 3);
    renewal.unref();
    try {
      const owner = await services.directory.user(before.ownerId);
      if (!owner) {
        services.logger.warn('bulk activation job dropped: its owner no longer exists', { jobId });
        return void (await this.end(state, 'failed', services));
      }
      const ended = await this.process(state, owner, services);
      if (ended !== null) await this.end(state, ended, services);
      else if (state.databaseDown) pausedForDatabase(services, jobId);
    } finally {
      clearInterval(renewal);
      if (this.stopping && !state.lost) await this.store.release(jobId).catch(() => undefined);
    }
  }

  /** Runs the job's remaining SIMs; answers how it ended, or null when it is left for another run. */
  private async process(
    state: RunState,
    owner: UserRecord,
    services: Services,
  ): Promise<'completed' | 'cancelled' | null> {
    const { job } = state;
    const request = requestContextFor(this.groupCommitting(services), `bulk-${job.id}`, owner);
    const items = await this.store.pendingItems(job.id);
    await primeSimHomes(
      request,
      items.map((item) => item.input.sim),
    );
    const rawSql = parseDatabaseUrl(services.config.DATABASE_URL).provider === 'sqlite';
    // Only a job that ran before can have SIMs already sent whose outcome it did not write.
    const sent = job.startedAt === null ? new Map<string, SentRow>() : await sentBefore(this.store, job, items);
    this.publish(state, 'running', services);
    const outcomes = new OrderedOutcomes(items, async (batch) => {
      if (state.lost) return;
      const result = await this.store.record(job, batch, rawSql);
      if (result.state === 'lost') state.lost = true;
      if (result.state === 'cancelled') state.cancelled = true;
      state.succeeded += result.learned;
      state.unresolved += result.unresolved;
    });
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < items.length && !this.leaving(state)) {
        const item = items[next]!;
        const earlier = sentWithEffect(sent.get(item.transactionId));
        // Cancelled: no SIM more is sent, but those an earlier run sent (the first pending ones,
        // as SIMs go out in order) still get their outcome.
        if (state.cancelled && !earlier) return;
        const index = next++;
        const answer = earlier
          ? await settleSent(earlier, item, () => this.leaving(state), services)
          : await this.activate(item, request, state, services);
        if (!answer) return;
        if (answer.databaseDown) {
          // Nothing of it is written: the run that resumes the job reads the SIM's row, if any.
          state.databaseDown = true;
          return;
        }
        state.processed += 1;
        if (answer.entry.status === 'success') state.succeeded += 1;
        this.publish(state, 'running', services);
        await outcomes.add(index, answer);
      }
    };
    await Promise.all(Array.from({ length: concurrencyFor(items, services.config.BULK_JOB_CONCURRENCY) }, worker));
    // A job that ends here (cancelled while a resumed SIM was still unresolved) keeps every entry
    // it has; one left for another run leaves those beyond the gap to be read from the log again.
    await outcomes.flush(!this.stopping && !state.databaseDown);
    if (state.lost || state.databaseDown) return null;
    if (this.stopping && !state.cancelled && state.processed < job.total) return null;
    return state.cancelled && state.processed < job.total ? 'cancelled' : 'completed';
  }

  /** A SIM's answer; null when it was not sent and will not be by this run (carrier-wait.ts). */
  private activate(
    item: PendingItem,
    request: RequestContext,
    state: RunState,
    services: Services,
  ): Promise<ItemAnswer | null> {
    const send = () => this.inFlight(() => activateItem(item.input, item.transactionId, request));
    return sendWaitingForCarrier(send, state, () => this.leaving(state), services);
  }

  /** The services that commit the writes of the SIMs in flight together, shared by the jobs here. */
  private groupCommitting(services: Services): Services {
    return (this.batched ??= groupCommitting(services));
  }

  /** Whether this run stops here, leaving the job to another (lost lease, shutting down, database down). */
  private leaving(state: RunState): boolean {
    return state.lost || this.stopping || state.databaseDown;
  }

  private async end(state: RunState, status: 'completed' | 'cancelled' | 'failed', services: Services) {
    // `state.job` was read before this run claimed the job: started already, it is resumed.
    if (!(await this.store.finish(state.job.id, status, state.job.startedAt !== null))) return;
    // The counts as they ended, recovery's rewrites of entries written earlier included.
    const ended = await findJob(services.db, state.job.id);
    if (ended)
      Object.assign(state, { processed: ended.processed, succeeded: ended.succeeded, unresolved: ended.unresolved });
    this.publish(state, status, services);
  }

  private publish(state: RunState, status: JobStatus, services: Services): void {
    const { job } = state;
    // Each event is a GraphQL execution and a write per subscriber: a running job's progress goes
    // out at most every PROGRESS_EVERY_MS (its last SIM and its end always).
    const now = Date.now();
    if (status === 'running' && state.processed < job.total && now - state.publishedAt < PROGRESS_EVERY_MS) return;
    state.publishedAt = now;
    services.events.pubsub.publish('bulk-progress', job.id, {
      jobId: job.id,
      status,
      processed: state.processed,
      succeeded: state.succeeded,
      unresolved: state.unresolved,
      total: job.total,
    });
  }
}
