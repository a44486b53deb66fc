// The event bus across replicas on a real Redis: replicas on the same database hear each other's
// line events; deployments on other databases of the same server do not (Redis pub/sub ignores
// the database number, so the bus's channels carry it).

import { afterAll, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/logger.js';
import { createEventBus, type EventBus, type LineEventMessage } from '../../src/pipeline/event-bus.js';
import { REDIS_URL, redisAvailable } from '../support/redis.js';

const buses: EventBus[] = [];
afterAll(() => Promise.all(buses.map((bus) => bus.close())));

async function busOn(database: number): Promise<EventBus> {
  const url = new URL(REDIS_URL);
  url.pathname = `/${database}`;
  const bus = await createEventBus(url.href, createLogger('silent'));
  buses.push(bus);
  return bus;
}

/** Every line event `bus` hears, as it comes. */
function heard(bus: EventBus): LineEventMessage[] {
  const events: LineEventMessage[] = [];
  void (async () => {
    for await (const event of bus.pubsub.subscribe('line-event')) events.push(event);
  })();
  return events;
}

const event = (id: string): LineEventMessage => ({
  id,
  type: 'line.suspended',
  mdn: '3215550001',
  sim: null,
  carrier: '321',
  transactionId: null,
  ownerId: null,
  occurredAt: new Date().toISOString(),
  data: {},
});

it('reaches the replicas on its database, not a deployment on another', async (context) => {
  if (!(await redisAvailable())) return context.skip('Redis is not available');
  const [publisher, sameDatabase, otherDatabase] = [await busOn(7), await busOn(7), await busOn(8)];
  const [same, other] = [heard(sameDatabase), heard(otherDatabase)];
  // Subscriptions are made on the first pull: publish until the same database hears one.
  for (let attempt = 0; attempt < 50 && same.length === 0; attempt++) {
    publisher.pubsub.publish('line-event', event(`evt_${attempt}`));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(same.length).toBeGreaterThan(0);
  otherDatabase.pubsub.publish('line-event', event('evt_other'));
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(other.map(({ id }) => id)).toEqual(['evt_other']);
  expect(same.map(({ id }) => id)).not.toContain('evt_other');
});
