// `startBulkActivation`: stores a bulk activation job and answers its id at once; the job runs
// in the background (./bulk-jobs/runner.ts), SIM after SIM as activateSims does, and survives a
// restart. Every SIM is validated before anything is stored: one bad item refuses the whole job.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { transactionId } from '../schemas/fields.js';
import { findJob } from './bulk-jobs/job-store.js';
import { bulkActivationJob, viewOf, type BulkActivationJobView } from './bulk-jobs/job-view.js';
import { batchDescription, storeJob } from './bulk-jobs/new-job.js';
import { activationFields } from './fields.js';
import { predictBatch } from './bulk-jobs/predict-batch.js';

/** The most SIMs one job may carry: about three hours of carrier calls at one a second. */
export const MAX_JOB_ACTIVATIONS = 10_000;

const startInput = z.object({
  activations: z
    .array(activationFields)
    .min(1, 'activations must contain at least one activation')
    .max(MAX_JOB_ACTIVATIONS, `activations must contain at most ${MAX_JOB_ACTIVATIONS} activations`)
    .describe(batchDescription(MAX_JOB_ACTIVATIONS)),
  transactionId: transactionId
    .optional()
    .describe(
      'Id of the whole job (unique; repeating one answers DUPLICATE_TRANSACTION). Each SIM has its own transaction id',
    ),
});

type StartInput = z.infer<typeof startInput>;

export const startBulkActivation = defineOperation<StartInput, BulkActivationJobView, 'startBulkActivation'>({
  name: 'startBulkActivation',
  kind: 'mutation',
  description: `Starts a bulk activation job of up to ${MAX_JOB_ACTIVATIONS} SIMs and answers at once with its id. The job activates the SIMs in order in the background, each as \`activateSim\` would (plan authorization, carrier and transaction id per SIM; a failure does not stop the rest), and resumes after a restart without activating a SIM twice. Follow it with \`bulkActivation(id)\` or the \`bulkActivationProgress(id)\` subscription`,
  input: startInput,
  output: bulkActivationJob,
  rateLimit: { max: 10, window: 'hour' },
  routing: 'none',
  usesCarriers: true,
  dryRunsItems: true,
  // Dry run: every SIM as a single activation's dry run; the job as it would be when finished,
  // with no id (none is stored) and every predicted entry.
  predict: async (context) => {
    const results = await predictBatch(context);
    const succeeded = results.filter((entry) => entry.status === 'success').length;
    return {
      id: '',
      status: 'completed',
      transactionId: context.input.transactionId ?? null,
      total: results.length,
      processed: results.length,
      succeeded,
      failed: results.length - succeeded,
      unresolved: 0,
      createdAt: new Date().toISOString(),
      startedAt: null,
      finishedAt: null,
      results,
      nextCursor: null,
    };
  },
  handle: async ({ input, user, services }) => {
    // The batch id, if any, is stored answered with the job id (batch-transaction.ts).
    const jobId = await storeJob(services, user, 'startBulkActivation', input);
    const job = (await findJob(services.db, jobId))!;
    services.bulkJobs.runInBackground(jobId);
    return { status: 200, body: await viewOf(services.db, job, { after: -1, first: 0 }) };
  },
});
