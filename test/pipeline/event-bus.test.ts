// The event bus carries a publish to every subscriber: in-process on one replica, and from one
// replica to another through Redis; a subscriber that does not take its events is held to a
// bounded backlog and ended, never the process.

import { describe, expect, test } from 'vitest';
import { createLogger } from '../../src/lib/logger.js';
import { SubscriptionLaggedError } from '../../src/errors/subscription-lagged.js';
import {
  createEventBus,
  SUBSCRIPTION_BACKLOG_MAX,
  type BulkProgressMessage,
  type EventBus,
} from '../../src/pipeline/event-bus.js';
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

test('a subscription listens from the moment it is made, before its consumer first asks', async () => {
  const bus = await createEventBus(null, logger);
  const subscription = bus.pubsub.subscribe('bulk-progress', 'job-0');
  bus.pubsub.publish('bulk-progress', 'job-0', progress('job-0', 1));
  bus.pubsub.publish('bulk-progress', 'job-0', progress('job-0', 2));
  expect((await subscription.next()).value).toEqual(progress('job-0', 1));
  expect((await subscription.next()).value).toEqual(progress('job-0', 2));
  expect(await subscription.return?.()).toMatchObject({ done: true });
  await bus.close();
});

describe('a subscriber that does not take its events', () => {
  const flood = (bus: EventBus, jobId: string, count: number) => {
    for (let processed = 1; processed <= count; processed++)
      bus.pubsub.publish('bulk-progress', jobId, progress(jobId, processed));
  };

  test('is held to a bounded backlog: it reads what it was sent, then SUBSCRIPTION_LAGGED', async () => {
    const bus = await createEventBus(null, logger);
    const iterator = bus.pubsub.subscribe('bulk-progress', 'job-1')[Symbol.asyncIterator]();
    const first = iterator.next();
    await new Promise((resolve) => setImmediate(resolve));
    // Yoga's own subscription threw inside the bus's listener past 1,024 (the process ended).
    flood(bus, 'job-1', 5_000);
    await new Promise((resolve) => setImmediate(resolve));
    const read: number[] = [((await first).value as BulkProgressMessage).processed];
    let ending: unknown;
    try {
      for (let next = await iterator.next(); !next.done; next = await iterator.next())
        read.push((next.value as BulkProgressMessage).processed);
    } catch (error) {
      ending = error;
    }
    expect(ending).toBeInstanceOf(SubscriptionLaggedError);
    expect(ending).toMatchObject({ code: 'SUBSCRIPTION_LAGGED', status: 503 });
    // In order, from the first, none past the bound (the first was taken at once).
    expect(read).toEqual(Array.from({ length: read.length }, (_, index) => index + 1));
    expect(read.length).toBeGreaterThanOrEqual(SUBSCRIPTION_BACKLOG_MAX);
    expect(read.length).toBeLessThanOrEqual(SUBSCRIPTION_BACKLOG_MAX + 1);
    await bus.close();
  });

  test('a subscriber that keeps up gets every event, however many', async () => {
    const bus = await createEventBus(null, logger);
    const iterator = bus.pubsub.subscribe('bulk-progress', 'job-2')[Symbol.asyncIterator]();
    const read: number[] = [];
    const reading = (async () => {
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        read.push((next.value as BulkProgressMessage).processed);
        if (read.length === 5_000) break;
      }
    })();
    await new Promise((resolve) => setImmediate(resolve));
    for (let batch = 0; batch < 50; batch++) {
      for (let index = 1; index <= 100; index++)
        bus.pubsub.publish('bulk-progress', 'job-2', progress('job-2', batch * 100 + index));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await reading;
    expect(read).toEqual(Array.from({ length: 5_000 }, (_, index) => index + 1));
    await iterator.return?.();
    await bus.close();
  });
});
