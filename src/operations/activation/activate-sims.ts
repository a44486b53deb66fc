// POST /sim/activate/bulk/: activates many SIMs in one request, one after the other, each
// exactly as a single activation would (plan authorization, carrier resolution, transaction
// id, carrier call, line record); one SIM's failure is an entry in the answer, never the end.
// Built on the bulk activation job (./bulk-jobs/): the request stores a job, runs it here and
// answers once it has finished, so a batch cut short by a crash is still finished elsewhere; the
// batch id's row is answered by whichever replica ends the job (bulk-jobs/batch-transaction.ts).

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { predictBatch } from './bulk-jobs/predict-batch.js';
import { transactionId } from '../schemas/fields.js';
import { batchAnswer, bulkActivationResult, type BulkActivationResult } from './bulk-result.js';
import { SYNCHRONOUS_BATCH } from './bulk-jobs/batch-transaction.js';
import { FINISHED, findJob } from './bulk-jobs/job-store.js';
import { viewOf } from './bulk-jobs/job-view.js';
import { batchDescription, storeJob } from './bulk-jobs/new-job.js';
import { activationFields } from './fields.js';

/** The most SIMs one request may carry (the spec names none; this bounds one request's work). */
export const MAX_BULK_ACTIVATIONS = 100;

/** How often a batch that another replica took over is looked at until it has finished. */
const FINISH_POLL_MS = 200;

const bulkInput = z.object({
  activations: z
    .array(activationFields)
    .min(1, 'activations must contain at least one activation')
    .max(MAX_BULK_ACTIVATIONS, `activations must contain at most ${MAX_BULK_ACTIVATIONS} activations`)
    .describe(batchDescription(MAX_BULK_ACTIVATIONS)),
  transactionId: transactionId
    .optional()
    .describe('Id of the whole batch (unique; repeating one answers 409). Each SIM has its own transaction id'),
});

type BulkInput = z.infer<typeof bulkInput>;

export const activateSims = defineOperation<BulkInput, BulkActivationResult, 'activateSims'>({
  name: 'activateSims',
  kind: 'mutation',
  description:
    'Activates several SIMs in one request, sequentially, each as `activateSim` would (plan authorization, carrier and transaction id per SIM). Answers HTTP 200 even with mixed results: one entry per SIM, in order, with `error` on failure',
  rest: { method: 'POST', path: '/sim/activate/bulk/' },
  input: bulkInput,
  output: bulkActivationResult,
  rateLimit: { max: 10, window: 'hour' },
  // Each SIM resolves its own carrier (by its plan) inside the pipeline, so the batch has none.
  routing: 'none',
  usesCarriers: true,
  dryRunsItems: true,
  // Dry run: every SIM as a single activation's dry run; the entries the batch would answer.
  predict: async (context) => {
    const results = await predictBatch(context);
    const processed = results.filter((entry) => entry.status === 'success').length;
    return { results, total: results.length, processed };
  },
  handle: async ({ input, user, services }) => {
    const jobId = await storeJob(services, user, SYNCHRONOUS_BATCH, input);
    await services.bulkJobs.runHere(jobId, { answerNow: true });
    // Normally finished here; a job another replica took over (this one stalled) is awaited.
    let job = await findJob(services.db, jobId);
    while (job && !FINISHED.includes(job.status)) {
      await new Promise((resolve) => setTimeout(resolve, FINISH_POLL_MS));
      job = await findJob(services.db, jobId);
    }
    const { results } = await viewOf(services.db, job!, { after: -1, first: MAX_BULK_ACTIVATIONS });
    return { status: 200, body: batchAnswer(results, input.activations.length) };
  },
});
