// A SIM of a bulk activation job whose outcome was lost: its carrier call timed out after it may
// have been delivered (or an unexpected error came after the reservation), so its transaction row
// is `unknown` (`pending` after a crash) and the job can only write a failure entry. Its item is
// written `unknown` (counted in the job's `unresolved`, and as not activated); when recovery
// (src/recovery/) learns the outcome, it rewrites the entry in the database transaction that
// records the outcome, and the job's counts follow.
//
// The job's write and recovery's may meet: recovery can resolve the row before the job writes
// the entry (it re-sends at once). The job's write therefore reads the row again inside its own
// database transaction, and takes the outcome it finds; on PostgreSQL it first locks the row, so
// that of the two transactions one waits for the other (SQLite runs one writer at a time), and
// both take the row before the job's, in the same order, so they cannot deadlock. Each rewrite
// is conditional on the item still being `unknown`, so a second resolution changes nothing.

import type { DatabaseTransaction } from '../../../db/client.js';
import type { TransactionStatus } from '../../../pipeline/transaction-log.js';
import { entryFromTransaction } from './activate-item.js';
import { answerBatch } from './batch-transaction.js';
import type { ItemOutcome, JobRecord, LoggedAnswer } from './job-store.js';

/** What an item's status column says once it has an entry. */
export type ItemStatus = 'success' | 'failure' | 'unknown';

/** An outcome as the job writes it. */
export interface SettledOutcome extends ItemOutcome {
  status: ItemStatus;
}

const UNRESOLVED: readonly TransactionStatus[] = ['pending', 'unknown'];

/**
 * Locks the transaction rows of `ids` until the end of `tx` (PostgreSQL), one by one in id
 * order: recovery resolving one of them waits for the job's write, or the write for it.
 */
export async function lockTransactions(tx: DatabaseTransaction, ids: readonly string[]): Promise<void> {
  for (const id of [...ids].sort()) await tx.$queryRaw`SELECT 1 FROM "Transaction" WHERE "id" = ${id} FOR UPDATE`;
}

/**
 * The outcomes of a write of the job's entries, those whose outcome may be lost read again from
 * their transaction rows: still unresolved, `unknown` (the failure entry stays, for now); already
 * resolved (recovery got there first), the entry of the outcome it learned; no row of this job's
 * (the error came before the reservation), the failure entry as it is.
 */
export async function settleOutcomes(
  tx: DatabaseTransaction,
  job: Pick<JobRecord, 'ownerId' | 'createdAt'>,
  outcomes: readonly ItemOutcome[],
): Promise<SettledOutcome[]> {
  const lost = outcomes.filter((outcome) => outcome.outcomeUnknown).map((outcome) => outcome.item.transactionId);
  const rows =
    lost.length === 0
      ? []
      : await tx.transaction.findMany({
          // The job's own rows only, as a resumed job reads them (job-leases.ts, activationsSince).
          where: { id: { in: lost }, operation: 'activateSim', userId: job.ownerId, createdAt: { gte: job.createdAt } },
          select: { id: true, status: true, response: true, resolvedAt: true },
        });
  const logged = new Map<string, LoggedAnswer>(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        status: row.status as TransactionStatus,
        response: row.response === null ? null : (JSON.parse(row.response) as unknown),
        resolvedAt: row.resolvedAt,
      },
    ]),
  );
  return outcomes.map((outcome) => {
    const row = outcome.outcomeUnknown ? logged.get(outcome.item.transactionId) : undefined;
    if (!row) return { ...outcome, status: outcome.entry.status };
    if (UNRESOLVED.includes(row.status)) return { ...outcome, status: 'unknown' };
    const entry = entryFromTransaction(outcome.item.input.sim, row);
    return { ...outcome, entry, status: entry.status };
  });
}

/** The transaction row recovery has just resolved, as it knows it. */
export interface ResolvedActivation {
  id: string;
  userId: string;
  createdAt: Date;
}

/**
 * Recovery's part, in the database transaction that records the learned outcome of an
 * activation (`row`, now `outcome`): every item of its owner's jobs written `unknown` under that
 * id takes the entry of the outcome (`recovered`), and its job's counts follow: one fewer
 * unresolved, one more activated on success (a failure was already counted as one). A job that
 * has ended keeps its status; a synchronous batch's answer under its batch id is written again.
 */
export async function followRecoveredActivation(
  tx: DatabaseTransaction,
  row: ResolvedActivation,
  outcome: LoggedAnswer,
): Promise<void> {
  // Literal 'unknown' (not a bound value), so that the partial index over those rows applies.
  const items = await tx.$queryRaw<{ jobId: string; position: number; sim: string }[]>`
    SELECT "jobId", "position", "sim" FROM "BulkActivationItem"
    WHERE "transactionId" = ${row.id} AND "status" = 'unknown'`;
  for (const item of items) {
    const job = await tx.bulkActivationJob.findUnique({
      where: { id: item.jobId },
      select: { ownerId: true, createdAt: true },
    });
    if (!job || job.ownerId !== row.userId || job.createdAt > row.createdAt) continue;
    const entry = entryFromTransaction(item.sim, outcome);
    const { count } = await tx.bulkActivationItem.updateMany({
      where: { jobId: item.jobId, position: Number(item.position), status: 'unknown' },
      data: { status: entry.status, result: JSON.stringify(entry) },
    });
    if (count === 0) continue;
    await tx.bulkActivationJob.update({
      where: { id: item.jobId },
      data: { unresolved: { decrement: 1 }, ...(entry.status === 'success' ? { succeeded: { increment: 1 } } : {}) },
    });
    await answerBatch(tx, item.jobId, { kind: 'recovered' });
  }
}
