// `cancelBulkActivation`: stops a bulk activation job between two SIMs (the SIM being sent when
// it arrives is finished and kept). Cancelling a finished job changes nothing and answers it.
// The answer carries the first page of outcomes exactly as `bulkActivation(id)` answers it by
// default: a normalized client cache keys both on the job's id, so an empty list here would
// replace the outcomes a dashboard shows.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { cancelJob } from './bulk-jobs/job-store.js';
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
  handle: async ({ input, user, services }) => {
    await visibleJob(services.db, input.id, user);
    const job = (await cancelJob(services.db, input.id))!;
    // If it runs here it stops at once; elsewhere its replica reads the request at its next write.
    services.bulkJobs.cancelled(input.id);
    return { status: 200, body: await viewOf(services.db, job, FIRST_PAGE) };
  },
});
