// The lease that lets one replica run a bulk activation job (one conditional UPDATE, so on
// SQLite and PostgreSQL alike only one replica can hold it), and what the holder writes: the
// items' outcomes in batches with the job's counts, then the job's end.

import type { Database } from '../../../db/client.js';
import { insertItems } from '../../../pipeline/transaction-sql.js';
import type { TransactionStatus } from '../../../pipeline/transaction-log.js';
import type { ActivationFields } from '../fields.js';
import { type ItemOutcome, type JobRecord, type LoggedAnswer, type PendingItem } from './job-store.js';

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
   */
  async record(
    jobId: string,
    outcomes: readonly ItemOutcome[],
    /** Insert the rows with one SQL statement (SQLite; see transaction-sql.ts). */
    rawSql = false,
  ): Promise<'running' | 'cancelled' | 'lost'> {
    const succeeded = outcomes.filter((outcome) => outcome.entry.status === 'success').length;
    return this.db.$transaction(async (tx) => {
      const { count } = await tx.bulkActivationJob.updateMany({
        where: { id: jobId, leaseOwner: this.owner, status: 'running' },
        data: { processed: { increment: outcomes.length }, succeeded: { increment: succeeded } },
      });
      if (count === 0) return 'lost';
      // Two statements for the whole batch instead of one update per item: the rows are written
      // anew, in this same transaction, with every column they had but the input (the address
      // and email go once the SIM has its outcome).
      await tx.bulkActivationItem.deleteMany({
        where: { jobId, position: { in: outcomes.map(({ item }) => item.position) } },
      });
      const rows = outcomes.map(({ item, entry }) => ({
        jobId,
        position: item.position,
        sim: item.input.sim,
        transactionId: item.transactionId,
        status: entry.status,
        result: JSON.stringify(entry),
        input: null,
      }));
      await (rawSql ? insertItems(tx, rows) : tx.bulkActivationItem.createMany({ data: rows }));
      const job = await tx.bulkActivationJob.findUnique({ where: { id: jobId }, select: { cancelRequested: true } });
      return job?.cancelRequested ? 'cancelled' : 'running';
    });
  }

  /** Ends the job (if it is still this replica's) and frees its lease. */
  async finish(jobId: string, status: 'completed' | 'cancelled' | 'failed'): Promise<boolean> {
    const { count } = await this.db.bulkActivationJob.updateMany({
      where: { id: jobId, leaseOwner: this.owner, status: 'running' },
      data: { status, finishedAt: new Date(), leaseOwner: null, leaseUntil: null },
    });
    return count === 1;
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
  async activationsSince(job: JobRecord, ids: readonly string[]): Promise<LoggedAnswer[]> {
    const rows = await this.db.transaction.findMany({
      where: { id: { in: [...ids] }, operation: 'activateSim', userId: job.ownerId, createdAt: { gte: job.createdAt } },
      select: { id: true, status: true, response: true },
    });
    return rows.map((row) => ({
      id: row.id,
      status: row.status as TransactionStatus,
      response: row.response === null ? null : (JSON.parse(row.response) as unknown),
    }));
  }
}
