// Runs bulk activation jobs: each SIM in order through the shared pipeline (plan authorization,
// carrier, transaction id reserved before the call, line record), one failure never stopping
// the rest. A job runs on the one replica holding its lease, renewed while it runs; a job whose
// lease expired (its replica died) is taken over by the next sweep here. Outcomes are written in
// batches: a SIM's answer is already in the transaction log, under the id the job gave it, so a
// resumed job reads what a crash left unwritten from there and never sends a SIM twice (a SIM
// whose outcome is still unknown is resolved by src/recovery/, then read).

import type { UserRecord } from '../../../directory/types.js';
import { requestContextFor } from '../../../pipeline/request-context.js';
import type { BulkActivationJobs, Services } from '../../../pipeline/services.js';
import type { BulkActivationEntry } from '../bulk-result.js';
import { activateItem, entryFromTransaction } from './activate-item.js';
import type { JobLeases } from './job-leases.js';
import {
  findJob,
  type ItemOutcome,
  type JobRecord,
  type JobStatus,
  type LoggedAnswer,
  type PendingItem,
} from './job-store.js';

/** Outcomes are written every this many SIMs, or sooner when this long has passed. */
const WRITE_EVERY_ITEMS = 50;
const WRITE_EVERY_MS = 500;
/** Jobs one replica runs side by side (each one SIM at a time). */
const MAX_JOBS_HERE = 4;
/** How often a SIM whose outcome is being recovered is looked at again. */
const RECOVERY_POLL_MS = 500;
/** Transaction rows read per query when a job resumes. */
const RESUME_CHUNK = 500;

interface RunState {
  job: JobRecord;
  processed: number;
  succeeded: number;
  cancelled: boolean;
  /** Another replica holds the lease now: stop without writing. */
  lost: boolean;
  done: Promise<void>;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

export class BulkJobRunner implements BulkActivationJobs {
  private services?: Services;
  private readonly running = new Map<string, RunState>();
  private sweepTimer?: NodeJS.Timeout;
  private stopping = false;

  constructor(
    readonly store: JobLeases,
    readonly leaseMs: number,
  ) {}

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

  runHere(jobId: string): Promise<void> {
    const existing = this.running.get(jobId);
    if (existing) return existing.done;
    if (this.stopping || !this.services) return Promise.resolve();
    const state = { cancelled: false, lost: false, processed: 0, succeeded: 0 } as RunState;
    state.done = this.run(jobId, state, this.services)
      .catch((error: unknown) =>
        this.services!.logger.error('bulk activation job failed unexpectedly', { jobId, err: error }),
      )
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
      this.services.logger.error('bulk activation sweep failed', { err: error });
    }
  }

  private async run(jobId: string, state: RunState, services: Services): Promise<void> {
    const before = await findJob(services.db, jobId);
    if (!before || !(await this.store.claim(jobId, this.leaseMs))) return;
    state.job = before;
    state.processed = before.processed;
    state.succeeded = before.succeeded;
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
    const request = requestContextFor(services, `bulk-${job.id}`, owner);
    const items = await this.store.pendingItems(job.id);
    // Only a job that ran before can have SIMs already sent whose outcome it did not write.
    const sent = job.startedAt === null ? new Map<string, LoggedAnswer>() : await this.sentBefore(job, items);
    this.publish(state, 'running', services);
    let unwritten: ItemOutcome[] = [];
    let writtenAt = Date.now();
    const write = async (): Promise<'running' | 'cancelled' | 'lost'> => {
      const result = unwritten.length > 0 ? await this.store.record(job.id, unwritten) : 'running';
      unwritten = [];
      writtenAt = Date.now();
      if (result === 'lost') state.lost = true;
      if (result === 'cancelled') state.cancelled = true;
      return result;
    };
    for (const item of items) {
      if (this.interrupted(state)) break;
      const earlier = sent.get(item.transactionId);
      const entry = earlier
        ? await this.settle(earlier, item, state, services)
        : await activateItem(item.input, item.transactionId, request);
      if (!entry) break;
      unwritten.push({ position: item.position, entry });
      state.processed += 1;
      if (entry.status === 'success') state.succeeded += 1;
      this.publish(state, 'running', services);
      if (unwritten.length >= WRITE_EVERY_ITEMS || Date.now() - writtenAt >= WRITE_EVERY_MS) await write();
    }
    if (!state.lost) await write();
    if (state.lost || (this.stopping && !state.cancelled && state.processed < job.total)) return null;
    return state.cancelled && state.processed < job.total ? 'cancelled' : 'completed';
  }

  private interrupted(state: RunState): boolean {
    return state.cancelled || state.lost || this.stopping;
  }

  /** The transaction rows of this job's pending SIMs that a previous run had reserved. */
  private async sentBefore(job: JobRecord, items: readonly PendingItem[]): Promise<Map<string, LoggedAnswer>> {
    const found = new Map<string, LoggedAnswer>();
    for (let start = 0; start < items.length; start += RESUME_CHUNK) {
      const ids = items.slice(start, start + RESUME_CHUNK).map((item) => item.transactionId);
      for (const row of await this.store.activationsSince(job, ids)) found.set(row.id, row);
    }
    return found;
  }

  /**
   * The entry of a SIM a previous run sent: its recorded answer, once recovery has resolved an
   * outcome the crash left unknown (never re-sent from here). Null when the job stops meanwhile.
   */
  private async settle(
    row: LoggedAnswer,
    item: PendingItem,
    state: RunState,
    services: Services,
  ): Promise<BulkActivationEntry | null> {
    let current: LoggedAnswer | null = row;
    while (current && (current.status === 'pending' || current.status === 'unknown')) {
      if (this.interrupted(state)) return null;
      services.recovery.resolveSoon(current.id);
      await pause(RECOVERY_POLL_MS);
      current = await services.transactions.find(current.id);
    }
    return current ? entryFromTransaction(item.input.sim, current) : null;
  }

  private async end(state: RunState, status: 'completed' | 'cancelled' | 'failed', services: Services) {
    if (await this.store.finish(state.job.id, status)) this.publish(state, status, services);
  }

  private publish(state: RunState, status: JobStatus, services: Services): void {
    const { job } = state;
    services.events.pubsub.publish('bulk-progress', job.id, {
      jobId: job.id,
      status,
      processed: state.processed,
      succeeded: state.succeeded,
      total: job.total,
    });
  }
}
