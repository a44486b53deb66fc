// The `bulkActivationProgress(id)` subscription: where a bulk activation job stands, first as it
// is when the subscription starts, then after each SIM, ending with the job's last status. The
// runner publishes on the event bus (src/pipeline/event-bus.ts), so a subscriber connected to
// one replica follows a job run by another when REDIS_URL is set.

import { FINISHED, findJob, type JobRecord } from '../operations/activation/bulk-jobs/job-store.js';
import { jobId, jobStatus, visibleJob } from '../operations/activation/bulk-jobs/job-view.js';
import { UnauthenticatedError } from '../errors/gateway-errors.js';
import type { BulkProgressMessage } from '../pipeline/event-bus.js';
import type { RequestContext } from '../pipeline/request-context.js';
import { builder } from './builder.js';
import { outputType } from './zod-to-graphql.js';

const progressOfJob = (job: JobRecord): BulkProgressMessage => ({
  jobId: job.id,
  status: job.status,
  processed: job.processed,
  succeeded: job.succeeded,
  unresolved: job.unresolved,
  total: job.total,
});

const isFinished = (message: BulkProgressMessage) => (FINISHED as readonly string[]).includes(message.status);

const BulkActivationProgress = builder.objectRef<BulkProgressMessage>('BulkActivationProgress').implement({
  description: 'Where a bulk activation job stands: sent when the subscription starts, after each SIM and when it ends',
  fields: (t) => ({
    id: t.exposeID('jobId', { nullable: false, description: 'Identity for client caches: the job id' }),
    jobId: t.exposeString('jobId', { nullable: false, description: 'The job id' }),
    status: t.field({
      type: outputType(jobStatus, 'BulkActivationStatus') as never,
      nullable: false,
      description: 'The job status; the stream ends after COMPLETED, CANCELLED or FAILED',
      resolve: (message) => message.status as never,
    }),
    total: t.exposeInt('total', { nullable: false, description: 'How many SIMs the job carries' }),
    processed: t.exposeInt('processed', { nullable: false, description: 'How many SIMs have their outcome so far' }),
    succeeded: t.exposeInt('succeeded', { nullable: false, description: 'How many SIMs were activated so far' }),
    failed: t.int({
      nullable: false,
      description: 'How many SIMs were not activated so far (`unresolved` of them may still be)',
      resolve: (message) => message.processed - message.succeeded,
    }),
    unresolved: t.int({
      nullable: false,
      description:
        'How many SIMs lost their answer (a timeout, a crash): written as not activated while recovery learns their outcome, which bulkActivation(id) then shows',
      resolve: (message) => message.unresolved ?? 0,
    }),
  }),
});

/** The job's progress from now until it finishes; NOT_FOUND before anything is streamed when the caller may not see it. */
async function progressStream(id: string, context: RequestContext): Promise<AsyncIterable<BulkProgressMessage>> {
  if (!context.user) throw new UnauthenticatedError(context.authFailure);
  const { db, events } = context.services;
  await visibleJob(db, id, context.user);
  // Listening before the job is read: nothing published in between is missed.
  const published = events.pubsub.subscribe('bulk-progress', id)[Symbol.asyncIterator]();
  const now = await findJob(db, id);
  const progress = (async function* () {
    try {
      if (!now) return;
      let last = progressOfJob(now);
      yield last;
      if (isFinished(last)) return;
      for (let next = await published.next(); !next.done; next = await published.next()) {
        const message = next.value;
        // Progress published before the job was read is already in what was sent.
        if (!isFinished(message) && message.processed < last.processed) continue;
        last = message;
        yield message;
        if (isFinished(message)) return;
      }
    } finally {
      await published.return?.();
    }
  })();
  // Ending the stream (its client left, its token was revoked, the replica drains) must not wait
  // for the job's next progress: a generator's return() waits for the `await` it is in, so the
  // subscription to the bus is ended first, which ends that wait.
  const stream: AsyncIterableIterator<BulkProgressMessage> = {
    [Symbol.asyncIterator]: () => stream,
    next: () => progress.next(),
    return: async () => {
      await published.return?.();
      return progress.return(undefined);
    },
    throw: (error: unknown) => progress.throw(error),
  };
  return stream;
}

builder.subscriptionField('bulkActivationProgress', (t) =>
  t.field({
    type: BulkActivationProgress,
    description:
      'Follows a bulk activation job you started (any job for a superuser): its progress now, after each SIM, and its end, after which the stream closes. Over Server-Sent Events (Accept: text/event-stream)',
    args: {
      id: t.arg.string({
        required: true,
        description: 'The job id that startBulkActivation answered',
        validate: { schema: jobId },
      }),
    },
    subscribe: (_root, args, context) => progressStream(args.id, context),
    resolve: (message) => message,
  }),
);
