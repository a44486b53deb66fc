// `bulkActivation(id)`: a bulk activation job's progress and a page of its SIMs' outcomes, for
// its owner or a superuser (anyone else's id is not found).

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { capped } from '../schemas/fields.js';
import {
  bulkActivationJob,
  DEFAULT_PAGE,
  FIRST_PAGE,
  jobId,
  MAX_PAGE,
  viewOf,
  visibleJob,
  type BulkActivationJobView,
} from './bulk-jobs/job-view.js';

const CURSOR = /^\d{1,5}$/;

const viewInput = z.object({
  id: jobId,
  first: z
    .number()
    .int()
    .min(0, 'first must be 0 or more')
    .max(MAX_PAGE, `first must be at most ${MAX_PAGE}`)
    .optional()
    .describe(`How many outcomes to list (0 to ${MAX_PAGE}, default ${DEFAULT_PAGE})`),
  after: capped('after', 5)
    .regex(CURSOR, 'after must be a cursor this query answered')
    .optional()
    .describe('The nextCursor of the previous page'),
});

type ViewInput = z.infer<typeof viewInput>;

export const bulkActivation = defineOperation<ViewInput, BulkActivationJobView, 'bulkActivation'>({
  name: 'bulkActivation',
  kind: 'query',
  description:
    'A bulk activation job you started (any job for a superuser): its status, counts and the outcomes of its SIMs so far, in request order, a page at a time',
  input: viewInput,
  output: bulkActivationJob,
  rateLimit: { max: 120, window: 'minute' },
  routing: 'none',
  handle: async ({ input, user, services }) => {
    const job = await visibleJob(services.db, input.id, user);
    const page = {
      after: input.after === undefined ? FIRST_PAGE.after : Number(input.after),
      first: input.first ?? FIRST_PAGE.first,
    };
    return { status: 200, body: await viewOf(services.db, job, page) };
  },
});
