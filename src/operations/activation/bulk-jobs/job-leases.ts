// The lease that lets one replica run a bulk activation job (one conditional UPDATE, so on
// SQLite and PostgreSQL alike only one replica can hold it), and what the holder writes: the
// items' outcomes in batches with the job's counts, then the job's end (with its batch id's answer).

import { sqliteDriver, type Database } from '../../../db/client.js';
import { insertItems } from '../../../pipeline/transaction-sql.js';
import type { TransactionStatus } from '../../../pipeline/transaction-log.js';
import type { ActivationFields } from '../fields.js';
import { answerBatch } from './batch-transaction.js';
import { type ItemOutcome, type JobRecord, type PendingItem, type SentRow } from './job-store.js';
import { lockTransactions, settleOutcomes } from './recovered-items.js';

/** What a write of outcomes found: whether the job goes on, and how many lost outcomes it found already recovered as activations. */
export interface Recorded {
  state: 'running' | 'cancelled' | 'lost';
  /** Entries written as successes although the run had a failure for them (recovery got there first). */
  learned: number;
  /** Entries written `unknown`: their outcome is still being learned (the job's `unresolved` grew by as many). */
  unresolved: number;
}

export class JobLeases {
  constructor(
    private readonly db: Database,
    /** This replica's name on the jobs it runs. */
    readonly owner: string,
  ) {}

  /**
   * Takes the job for `leaseMs` if it is unfinished and its lease is free, expired or already
   * this replica's; marks it running. False when another replica holds it or it has finished.
   */
  async claim(id: string, leaseMs: number): Promise<boolean> {
    const now = new Date();
    const { count } = await this.db.bulkActivationJob.updateMany({
      where: {
        id,
        status: { in: ['queued', 'running'] },
        OR: [{ leaseOwner: this.owner }, { leaseUntil: null }, { leaseUntil: { lt: now } }],
      },
      data: { status: 'running', leaseOwner: this.owner, leaseUntil: new Date(now.getTime() + leaseMs) },
    });
    if (count === 1)
      await this.db.bulkActivationJob.updateMany({ where: { id, startedAt: null }, data: { startedAt: now } });
    return count === 1;
  }

  /** Extends this replica's lease; false when it is no longer this replica's (taken over). */
  async renew(id: string, leaseMs: number): Promise<boolean> {
    const { count } = await this.db.bulkActivationJob.updateMany({
      where: { id, leaseOwner: this.owner, status: 'running' },
      data: { leaseUntil: new Date(Date.now() + leaseMs) },
    });
    return count === 1;
  }

  /** Unfinished jobs whose lease is free or expired, oldest first. */
  async claimable(limit: number): Promise<string[]> {
    const rows = await this.db.bulkActivationJob.findMany({
      where: {
        status: { in: ['queued', 'running'] },
        OR: [{ leaseUntil: null }, { leaseUntil: { lt: new Date() } }],
      },
      select: { id: true },
      orderBy: { createdAt: 'asc' },
      take: limit,
    });
    return rows.map((row) => row.id);
  }

  /** The items still without an outcome, in order. */
  async pendingItems(jobId: string): Promise<PendingItem[]> {
    const rows = await this.db.bulkActivationItem.findMany({
      where: { jobId, status: 'pending' },
      select: { position: true, transactionId: true, input: true },
      orderBy: { position: 'asc' },
    });
    return rows.map((row) => ({
      position: row.position,
      transactionId: row.transactionId,
      input: JSON.parse(row.input ?? '{}') as ActivationFields,
    }));
  }

  /**
   * Writes outcomes and the job's new counts in one transaction, while the job is still this
   * replica's. Answers 'lost' when it is not (nothing written: the transaction log still holds
   * each SIM's answer for the replica that took the job over), else whether a cancel was asked.
   * An outcome that may be lost is written as its transaction row now says (recovered-items.ts).
   */
  async record(
    job: JobRecord,
    outcomes: readonly ItemOutcome[],
    /** Insert the rows with one SQL statement (SQLite; see transaction-sql.ts). */
    rawSql = false,
  ): Promise<Recorded> {
    const jobId = job.id;
    const lost = outcomes.filter((outcome) => outcome.outcomeUnknown).map((outcome) => outcome.item.transactionId);
    const successes = (list: readonly { entry: { status: string } }[]) =>
      list.filter((outcome) => outcome.entry.status === 'success').length;
    return this.db.$transaction(async (tx) => {
      // The transaction rows before the job's, in the order recovery takes them (PostgreSQL).
      // SQLite runs one writing transaction at a time; this one writes first, so nothing can
      // change the rows it reads next.
      if (lost.length > 0 && !sqliteDriver(this.db)) await lockTransactions(tx, lost);
      // Without outcomes to read again, the counts are known now: one statement, as ever.
      const { count } = await tx.bulkActivationJob.updateMany({
        where: { id: jobId, leaseOwner: this.owner, status: 'running' },
        data: {
          processed: { increment: outcomes.length },
          ...(lost.length === 0 ? { succeeded: { increment: successes(outcomes) } } : {}),
        },
      });
      if (count === 0) return { state: 'lost', learned: 0, unresolved: 0 };
      const settled = await settleOutcomes(tx, job, outcomes);
      const unresolved = settled.filter((outcome) => outcome.status === 'unknown').length;
      if (lost.length > 0) {
        await tx.bulkActivationJob.update({
          where: { id: jobId },
          data: { succeeded: { increment: successes(settled) }, unresolved: { increment: unresolved } },
        });
      }
      // Two statements for the whole batch instead of one update per item: the rows are written
      // anew, in this same transaction, with every column they had but the input (the address
      // and email go once the SIM has its outcome).
      await tx.bulkActivationItem.deleteMany({
        where: { jobId, position: { in: outcomes.map(({ item }) => item.position) } },
      });
      const rows = settled.map(({ item, entry, status }) => ({
        jobId,
        position: item.position,
        sim: item.input.sim,
        transactionId: item.transactionId,
        status,
        result: JSON.stringify(entry),
        input: null,
      }));
      await (rawSql ? insertItems(tx, rows) : tx.bulkActivationItem.createMany({ data: rows }));
      const current = await tx.bulkActivationJob.findUnique({
        where: { id: jobId },
        select: { cancelRequested: true },
      });
      return {
        state: current?.cancelRequested ? 'cancelled' : 'running',
        learned: successes(settled) - successes(outcomes),
        unresolved,
      };
    });
  }

  /**
   * Ends the job (if it is still this replica's), frees its lease and answers its batch id in
   * the same transaction. `resumed`: this run took the job over from another that started it.
   */
  async finish(jobId: string, status: 'completed' | 'cancelled' | 'failed', resumed: boolean): Promise<boolean> {
    return this.db.$transaction(async (tx) => {
      const { count } = await tx.bulkActivationJob.updateMany({
        where: { id: jobId, leaseOwner: this.owner, status: 'running' },
        data: { status, finishedAt: new Date(), leaseOwner: null, leaseUntil: null },
      });
      if (count === 1) await answerBatch(tx, jobId, { kind: 'ended', resumed });
      return count === 1;
    });
  }

  /** Gives the lease back at shutdown, so that another replica may resume the job at once. */
  async release(jobId: string): Promise<void> {
    await this.db.bulkActivationJob.updateMany({
      where: { id: jobId, leaseOwner: this.owner },
      data: { leaseOwner: null, leaseUntil: null },
    });
  }

  /**
   * The owner's activations made since the job was created under these transaction ids: the
   * SIMs a previous run of the job sent (an older row under the same id belongs to another
   * request, which made this SIM's own call a duplicate).
   */
  async activationsSince(job: JobRecord, ids: readonly string[]): Promise<SentRow[]> {
    const rows = await this.db.transaction.findMany({
      where: { id: { in: [...ids] }, operation: 'activateSim', userId: job.ownerId, createdAt: { gte: job.createdAt } },
      select: { id: true, status: true, response: true, resolvedAt: true, noEffect: true },
    });
    return rows.map((row) => ({
      id: row.id,
      status: row.status as TransactionStatus,
      response: row.response === null ? null : (JSON.parse(row.response) as unknown),
      resolvedAt: row.resolvedAt,
      noEffect: row.noEffect,
    }));
  }
}
