// The event bus carries a publish to every subscriber: in-process on one replica, and from one
// replica to another through Redis.

import { describe, expect, test } from 'vitest';
import { createLogger } from '../../src/lib/logger.js';
import { createEventBus, type BulkProgressMessage, type EventBus } from '../../src/pipeline/event-bus.js';
import { REDIS_URL, redisAvailable } from '../support/redis.js';

const logger = createLogger('silent');

function progress(jobId: string, processed: number): BulkProgressMessage {
  return { jobId, status: 'running', processed, succeeded: processed, total: 3 };
}

/** The next message `bus` delivers on the job's topic. */
async function nextProgress(bus: EventBus, jobId: string): Promise<{ message: Promise<BulkProgressMessage> }> {
  const iterator = bus.pubsub.subscribe('bulk-progress', jobId)[Symbol.asyncIterator]();
  const message = iterator.next().then(async (result) => {
    await iterator.return?.();
    return result.value as BulkProgressMessage;
  });
  return { message };
}

describe('event bus', () => {
  test('in-process: a subscriber receives what its own replica publishes, only for its key', async () => {
    const bus = await createEventBus(null, logger);
    const { message } = await nextProgress(bus, 'job-1');
    bus.pubsub.publish('bulk-progress', 'job-2', progress('job-2', 1));
    bus.pubsub.publish('bulk-progress', 'job-1', progress('job-1', 2));
    expect(await message).toEqual(progress('job-1', 2));
    await bus.close();
  });

  test('through Redis: a subscriber on one replica receives what another publishes', async (context) => {
    if (!(await redisAvailable())) return context.skip('Redis is not available');
    const [publisher, subscriber] = await Promise.all([
      createEventBus(REDIS_URL, logger),
      createEventBus(REDIS_URL, logger),
    ]);
    try {
      const jobId = `job-${Date.now()}-${Math.random()}`;
      const { message } = await nextProgress(subscriber, jobId);
      // SUBSCRIBE is asynchronous: publish until the subscriber has heard one.
      let heard = false;
      void message.then(() => (heard = true));
      for (let attempt = 0; attempt < 50 && !heard; attempt++) {
        publisher.pubsub.publish('bulk-progress', jobId, progress(jobId, 1));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(await message).toEqual(progress(jobId, 1));
    } finally {
      await Promise.all([publisher.close(), subscriber.close()]);
    }
  });
});
