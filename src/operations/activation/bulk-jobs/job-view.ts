// What a caller sees of a bulk activation job: its progress and a page of its SIMs' entries,
// in request order. Only the job's owner (or a superuser) sees it: anyone else is told it does
// not exist, exactly as for an id that names nothing.

import { z } from 'zod';
import type { Database } from '../../../db/client.js';
import type { UserRecord } from '../../../directory/types.js';
import { NotFoundError } from '../../../errors/gateway-errors.js';
import { quote } from '../../../lib/quote.js';
import { bulkActivationEntry, type BulkActivationEntry } from '../bulk-result.js';
import { findJob, jobEntries, type JobRecord } from './job-store.js';

/** The most entries one page holds, and how many a page holds when `first` is not given. */
export const MAX_PAGE = 1000;
export const DEFAULT_PAGE = 100;

export const jobStatus = z.enum(['queued', 'running', 'completed', 'cancelled', 'failed']).meta({
  id: 'BulkActivationStatus',
  description:
    'queued (stored, not started), running, completed (every SIM was sent and has its entry; `unresolved` of them may still wait for recovery to learn their outcome), cancelled (stopped between two SIMs; the SIMs before have their entry), failed (the job could not go on: its owner no longer exists)',
});

export const jobId = z
  .string()
  .min(1, 'id must not be empty')
  .max(64, 'id must be at most 64 characters')
  .describe('The job id that startBulkActivation answered');

export const bulkActivationJob = z
  .object({
    id: z.string().describe('The job id'),
    status: jobStatus,
    transactionId: z.string().nullable().describe('The batch transaction id the job was started with, if any'),
    total: z.number().int().describe('How many SIMs the job carries'),
    processed: z.number().int().describe('How many SIMs have their outcome so far'),
    succeeded: z.number().int().describe('How many SIMs were activated (success, including a WFC warning)'),
    failed: z.number().int().describe('How many SIMs were not activated (so far: `unresolved` of them may still be)'),
    unresolved: z
      .number()
      .int()
      .describe(
        'Of the failed, how many SIMs have a lost outcome (their carrier call timed out, or a crash cut it) that the gateway is still learning by re-sending them; each then becomes a success or a failure, `recovered: true`, and the counts follow, even after the job has completed',
      ),
    createdAt: z.string().describe('When the job was stored (ISO 8601)'),
    startedAt: z.string().nullable().describe('When a replica first started it (ISO 8601)'),
    finishedAt: z.string().nullable().describe('When it completed or was cancelled (ISO 8601)'),
    results: z
      .array(bulkActivationEntry)
      .describe('One page of the SIMs that have their outcome, in request order (see nextCursor)'),
    nextCursor: z
      .string()
      .nullable()
      .describe('Pass as `after` for the next page; null when this page holds the last outcome so far'),
  })
  .meta({ id: 'BulkActivationJob', description: 'A bulk activation job: its progress and its SIMs’ outcomes' });

export type BulkActivationJobView = z.infer<typeof bulkActivationJob>;

/** The job, if `user` may see it; else NOT_FOUND (another user's job is not said to exist). */
export async function visibleJob(db: Database, id: string, user: UserRecord): Promise<JobRecord> {
  const job = await findJob(db, id);
  if (!job || (job.ownerId !== user.id && !user.superuser))
    throw new NotFoundError(`Bulk activation job ${quote(id)} not found`);
  return job;
}

/** The first page of outcomes, as `bulkActivation(id)` answers it when no page is asked for. */
export const FIRST_PAGE: Readonly<{ after: number; first: number }> = Object.freeze({ after: -1, first: DEFAULT_PAGE });

/**
 * The job with one page of its outcomes. One entry past the page is read, so that `nextCursor`
 * is null exactly when the page holds the last outcome so far (a full last page included).
 */
export async function viewOf(
  db: Database,
  job: JobRecord,
  page: { after: number; first: number } = FIRST_PAGE,
): Promise<BulkActivationJobView> {
  const read = page.first === 0 ? [] : await jobEntries(db, job.id, page.after, page.first + 1);
  const rows = read.slice(0, page.first);
  const results = rows.map((row) => JSON.parse(row.result!) as BulkActivationEntry);
  const last = rows.at(-1);
  return {
    id: job.id,
    status: job.status,
    transactionId: job.transactionId,
    total: job.total,
    processed: job.processed,
    succeeded: job.succeeded,
    failed: job.processed - job.succeeded,
    unresolved: job.unresolved,
    createdAt: job.createdAt.toISOString(),
    startedAt: job.startedAt?.toISOString() ?? null,
    finishedAt: job.finishedAt?.toISOString() ?? null,
    results,
    nextCursor: last && read.length > rows.length ? String(last.position) : null,
  };
}
