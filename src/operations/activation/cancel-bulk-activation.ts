// `cancelBulkActivation`: stops a bulk activation job between two SIMs (the SIM being sent when
// it arrives is finished and kept). Cancelling a finished job changes nothing and answers it.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { cancelJob } from './bulk-jobs/job-store.js';
import { bulkActivationJob, jobId, viewOf, visibleJob, type BulkActivationJobView } from './bulk-jobs/job-view.js';

const cancelInput = z.object({ id: jobId });

export const cancelBulkActivation = defineOperation<
  z.infer<typeof cancelInput>,
  BulkActivationJobView,
  'cancelBulkActivation'
>({
  name: 'cancelBulkActivation',
  kind: 'mutation',
  description:
    'Cancels a bulk activation job you started (any job for a superuser): it stops before its next SIM; the SIMs already sent keep their outcome. The answer is the job as it then is (status CANCELLED once its replica has stopped it)',
  input: cancelInput,
  output: bulkActivationJob,
  rateLimit: { max: 30, window: 'minute' },
  routing: 'none',
  handle: async ({ input, user, services }) => {
    await visibleJob(services.db, input.id, user);
    const job = (await cancelJob(services.db, input.id))!;
    // If it runs here it stops at once; elsewhere its replica reads the request at its next write.
    services.bulkJobs.cancelled(input.id);
    return { status: 200, body: await viewOf(services.db, job, { after: -1, first: 0 }) };
  },
});
