// `cancelBulkActivation`: stops a bulk activation job between two SIMs (the SIM being sent when
// it arrives is finished and kept). Cancelling a finished job changes nothing and answers it.
// The answer carries the first page of outcomes exactly as `bulkActivation(id)` answers it by
// default: a normalized client cache keys both on the job's id, so an empty list here would
// replace the outcomes a dashboard shows.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { cancelEffect, cancelJob, type CancelEffect, type JobRecord } from './bulk-jobs/job-store.js';
import {
  bulkActivationJob,
  DEFAULT_PAGE,
  FIRST_PAGE,
  jobId,
  viewOf,
  visibleJob,
  type BulkActivationJobView,
} from './bulk-jobs/job-view.js';

const cancelInput = z.object({ id: jobId });

const CANCEL_EFFECTS: Readonly<Record<CancelEffect, string>> = {
  ends: 'Nobody runs the job (queued, or its replica is gone): it would end at once, CANCELLED',
  flagged: 'The job is running: it would stop before its next SIM, and turn CANCELLED then',
  none: 'The job has finished: cancelling it changes nothing and answers it as it is',
};

/** The job as cancelJob would leave it, by its effect. */
function cancelled(job: JobRecord, effect: CancelEffect): JobRecord {
  if (effect === 'none') return job;
  if (effect === 'flagged') return { ...job, cancelRequested: true };
  return { ...job, cancelRequested: true, status: 'cancelled', finishedAt: new Date() };
}

export const cancelBulkActivation = defineOperation<
  z.infer<typeof cancelInput>,
  BulkActivationJobView,
  'cancelBulkActivation'
>({
  name: 'cancelBulkActivation',
  kind: 'mutation',
  description: `Cancels a bulk activation job you started (any job for a superuser): it stops before its next SIM; the SIMs already sent keep their outcome. The answer is the job as it then is (status CANCELLED once its replica has stopped it), with the first page of outcomes as bulkActivation(id) answers it by default (${DEFAULT_PAGE}; nextCursor for the rest)`,
  input: cancelInput,
  output: bulkActivationJob,
  rateLimit: { max: 30, window: 'minute' },
  routing: 'none',
  // Dry run: the job as the call would leave it, changing nothing. When its runner would stop it
  // (at its next SIM, on whichever replica runs it) is the one thing no dry run can know.
  predict: async ({ input, user, services, checks }) => {
    const job = await visibleJob(services.db, input.id, user);
    const effect = await cancelEffect(services.db, job.id);
    checks.passed('job', 'Yours, or you are a superuser');
    checks.passed('jobStatus', CANCEL_EFFECTS[effect]);
    if (effect === 'flagged')
      checks.cannotPredict('How many more SIMs the job sends before its replica stops it (each keeps its outcome)');
    return viewOf(services.db, cancelled(job, effect), FIRST_PAGE);
  },
  handle: async ({ input, user, services }) => {
    await visibleJob(services.db, input.id, user);
    const job = (await cancelJob(services.db, input.id))!;
    // If it runs here it stops at once; elsewhere its replica reads the request at its next write.
    services.bulkJobs.cancelled(input.id);
    return { status: 200, body: await viewOf(services.db, job, FIRST_PAGE) };
  },
});
