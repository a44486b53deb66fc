// The batch transaction id of a bulk activation job (the request's optional `transaction_id`):
// its row in the transaction log is written with the job (job-store.ts, createJob) and answered
// in the database transaction that ends the job, whichever replica ends it, so that a crash
// mid-batch leaves a row that the resumed job answers instead of one `pending` for ever. The
// synchronous batch's answer is its entries, and follows them when recovery learns a lost one.

import type { DatabaseTransaction } from '../../../db/client.js';
import { convertKeys, toSnake } from '../../../lib/case.js';
import { completedRow, reservedRow } from '../../../pipeline/transaction-log.js';
import { batchAnswer, type BulkActivationEntry } from '../bulk-result.js';

/**
 * The operation whose batch id is answered with the job's entries when the job ends: the
 * synchronous batch (POST /sim/activate/bulk/, `activateSims`). startBulkActivation's is
 * answered with the job id as soon as the job is stored.
 */
export const SYNCHRONOUS_BATCH = 'activateSims';

/** A batch id to store with its job, under the operation that took it. */
export interface BatchId {
  id: string;
  operation: string;
}

/** The batch id's row: `pending` until the job ends for the synchronous batch, else answered at once. */
export function batchRow(batch: BatchId, userId: string, jobId: string) {
  const reserved = reservedRow({ id: batch.id, userId, operation: batch.operation, carrier: null });
  if (batch.operation === SYNCHRONOUS_BATCH) return reserved;
  return { ...reserved, ...completedRow('success', 200, { job_id: jobId }) };
}

/**
 * When a batch id is answered: the job has ended (`resumed`: by other than the run its request
 * started, which may never have answered: the row is then marked resolved, i.e. recovered), or
 * one of its entries has been recovered after the job ended (the answer is written again).
 */
export type BatchOccasion = { kind: 'ended'; resumed: boolean } | { kind: 'recovered' };

/**
 * Writes the synchronous batch's answer (its entries as the REST body: success, HTTP 200 even
 * with mixed results) to its batch id's row, if the job has one: once `pending` when the job
 * ends, again when an entry is recovered. Conditional on the row's status, so that a second
 * ending (none should happen) or a recovery before the end changes nothing.
 */
export async function answerBatch(tx: DatabaseTransaction, jobId: string, occasion: BatchOccasion): Promise<void> {
  const job = await tx.bulkActivationJob.findUnique({
    where: { id: jobId },
    select: { transactionId: true, total: true },
  });
  if (!job?.transactionId) return;
  const answered = occasion.kind === 'recovered';
  const row = await tx.transaction.findUnique({
    where: { id: job.transactionId },
    select: { operation: true, status: true },
  });
  if (row?.operation !== SYNCHRONOUS_BATCH || row.status !== (answered ? 'success' : 'pending')) return;
  const items = await tx.bulkActivationItem.findMany({
    where: { jobId, status: { not: 'pending' } },
    select: { result: true },
    orderBy: { position: 'asc' },
  });
  const entries = items.map((item) => JSON.parse(item.result!) as BulkActivationEntry);
  const body = convertKeys(batchAnswer(entries, job.total), toSnake);
  const lost = occasion.kind === 'recovered' || occasion.resumed;
  await tx.transaction.updateMany({
    where: { id: job.transactionId, status: row.status },
    data: { ...completedRow('success', 200, body), resolvedAt: lost ? new Date() : null },
  });
}
