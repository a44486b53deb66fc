// The bulk activation jobs' tables as requests use them: a job, its items and its batch id,
// created together; a job and a page of its entries, read; a job cancelled. What the replica
// running a job does to them is in job-leases.ts.

import { randomUUID } from 'node:crypto';
import type { Database } from '../../../db/client.js';
import { isUniqueViolation } from '../../../db/errors.js';
import { DuplicateTransactionError } from '../../../errors/gateway-errors.js';
import { insertItems } from '../../../pipeline/transaction-sql.js';
import type { TransactionRecord } from '../../../pipeline/transaction-log.js';
import type { BulkActivationEntry } from '../bulk-result.js';
import type { ActivationFields } from '../fields.js';
import { answerBatch, batchRow, type BatchId } from './batch-transaction.js';

export type JobStatus = 'queued' | 'running' | 'completed' | 'cancelled' | 'failed';

/** Statuses a job never leaves. */
export const FINISHED: readonly JobStatus[] = ['completed', 'cancelled', 'failed'];

export interface JobRecord {
  id: string;
  ownerId: string;
  status: JobStatus;
  transactionId: string | null;
  total: number;
  processed: number;
  succeeded: number;
  /** Processed items whose outcome was lost and is still being recovered (counted as not activated). */
  unresolved: number;
  cancelRequested: boolean;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export interface PendingItem {
  position: number;
  transactionId: string;
  input: ActivationFields;
}

/** What the transaction log recorded for one SIM's transaction id. */
export type LoggedAnswer = Pick<TransactionRecord, 'id' | 'status' | 'response' | 'resolvedAt'>;

/** A SIM's row as a resumed job reads it: its answer, and whether its call had no effect. */
export type SentRow = LoggedAnswer & Pick<TransactionRecord, 'noEffect'>;

/** A SIM's outcome with the item it belongs to (its row is written anew with it). */
export interface ItemOutcome {
  item: PendingItem;
  entry: BulkActivationEntry;
  /** The entry may not be the SIM's real outcome: see ItemAnswer (activate-item.ts). */
  outcomeUnknown?: boolean;
}

/** Items written per statement when a job is created (SQLite allows 32,766 bound values). */
const INSERT_CHUNK = 500;

const asJob = (row: Omit<JobRecord, 'status'> & { status: string }): JobRecord => ({
  ...row,
  status: row.status as JobStatus,
});

const jobColumns = {
  id: true,
  ownerId: true,
  status: true,
  transactionId: true,
  total: true,
  processed: true,
  succeeded: true,
  unresolved: true,
  cancelRequested: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
} as const;

/**
 * Stores a job (queued), its items and its batch id's transaction row in one transaction, so
 * that no crash leaves a batch id without its job (a row nothing would ever answer). Each item's
 * transaction id is chosen before the job exists: a resumed job sends every SIM under the id it
 * was given at creation. A batch id already taken is DuplicateTransactionError, nothing stored.
 */
export async function createJob(
  db: Database,
  job: {
    ownerId: string;
    batch: BatchId | undefined;
    items: readonly { input: ActivationFields; transactionId: string }[];
  },
  /** Insert the items with SQL statements (SQLite; see transaction-sql.ts). */
  rawSql = false,
): Promise<string> {
  const id = randomUUID();
  const rows = job.items.map((item, position) => ({
    jobId: id,
    position,
    sim: item.input.sim,
    input: JSON.stringify(item.input),
    transactionId: item.transactionId,
    status: 'pending',
    result: null,
  }));
  const { batch } = job;
  await db.$transaction(async (tx) => {
    if (batch)
      await tx.transaction.create({ data: batchRow(batch, job.ownerId, id) }).catch((error: unknown) => {
        throw isUniqueViolation(error) ? new DuplicateTransactionError(batch.id) : error;
      });
    await tx.bulkActivationJob.create({
      data: {
        id,
        ownerId: job.ownerId,
        status: 'queued',
        transactionId: batch?.id ?? null,
        total: rows.length,
      },
    });
    // Prisma compiles every createMany anew (~35 ms of CPU per 500 rows); the INSERT is not compiled.
    for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
      const chunk = rows.slice(start, start + INSERT_CHUNK);
      await (rawSql ? insertItems(tx, chunk) : tx.bulkActivationItem.createMany({ data: chunk }));
    }
  });
  return id;
}

export async function findJob(db: Database, id: string): Promise<JobRecord | null> {
  const row = await db.bulkActivationJob.findUnique({ where: { id }, select: jobColumns });
  return row ? asJob(row) : null;
}

/** What cancelJob would do to a job now: end it at once, flag it for its runner, or nothing (finished). */
export type CancelEffect = 'ends' | 'flagged' | 'none';

/** cancelJob's effect on the job now, changing nothing (its dry run): the same conditions as its UPDATEs. */
export async function cancelEffect(db: Database, jobId: string, now = new Date()): Promise<CancelEffect> {
  const row = await db.bulkActivationJob.findUnique({
    where: { id: jobId },
    select: { status: true, leaseUntil: true },
  });
  if (!row || FINISHED.includes(row.status as JobStatus)) return 'none';
  return row.leaseUntil === null || row.leaseUntil < now ? 'ends' : 'flagged';
}

/**
 * Cancels an unfinished job: one nobody runs ends at once; a running one is flagged, and its
 * runner stops before its next SIM. Answers the job as it now is.
 */
export async function cancelJob(db: Database, jobId: string): Promise<JobRecord | null> {
  const now = new Date();
  await db.bulkActivationJob.updateMany({
    where: { id: jobId, status: { in: ['queued', 'running'] } },
    data: { cancelRequested: true },
  });
  // Queued, or running under an expired lease (its replica is gone): nobody will stop it, so
  // its batch id is answered here, as its runner would have at its end.
  await db.$transaction(async (tx) => {
    const { count } = await tx.bulkActivationJob.updateMany({
      where: {
        id: jobId,
        status: { in: ['queued', 'running'] },
        OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }],
      },
      data: { status: 'cancelled', finishedAt: now, leaseOwner: null, leaseUntil: null },
    });
    if (count === 0) return;
    // A job that had started lost the run (and the request) that would have answered it.
    const { startedAt } = await tx.bulkActivationJob.findUniqueOrThrow({
      where: { id: jobId },
      select: { startedAt: true },
    });
    await answerBatch(tx, jobId, { kind: 'ended', resumed: startedAt !== null });
  });
  return findJob(db, jobId);
}

/** Entries of the items with an outcome, in order from `afterPosition` (exclusive), at most `limit`. */
export async function jobEntries(
  db: Database,
  jobId: string,
  afterPosition: number,
  limit: number,
): Promise<{ position: number; status: string; sim: string; transactionId: string; result: string | null }[]> {
  return db.bulkActivationItem.findMany({
    where: { jobId, position: { gt: afterPosition }, status: { not: 'pending' } },
    select: { position: true, status: true, sim: true, transactionId: true, result: true },
    orderBy: { position: 'asc' },
    take: limit,
  });
}
