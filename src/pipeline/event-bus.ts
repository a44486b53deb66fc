// The gateway's event bus: what one part of a replica tells the others (a line event was
// committed, a bulk activation job moved). With REDIS_URL every replica hears every publish
// through Redis pub/sub, so a subscriber connected to one replica sees what another did;
// without it the bus is in-process, which is all one replica needs. GraphQL subscriptions
// (Yoga's SSE transport) read from it.

import { setMaxListeners } from 'node:events';
import { createPubSub, type PubSub } from 'graphql-yoga';
import type { Logger } from '../lib/logger.js';

/** A line event as subscribers receive it (the outbox row, already committed). */
export interface LineEventMessage {
  id: string;
  type: string;
  mdn: string;
  sim: string | null;
  carrier: string | null;
  transactionId: string | null;
  /** The line's owner when the event was written (subscriptions are owner-scoped). */
  ownerId: string | null;
  occurredAt: string;
  data: Record<string, unknown>;
}

/** A bulk activation job's progress, published after each SIM and at every status change. */
export interface BulkProgressMessage {
  jobId: string;
  status: string;
  processed: number;
  total: number;
  /** SIMs activated so far (success, including success with a WFC warning). */
  succeeded: number;
  /** SIMs whose outcome is still being learned; absent from a replica older than the field. */
  unresolved?: number;
}

/** Topic → what a publish carries; a topic with two entries is keyed by its first (an id). */
export type GatewayTopics = {
  'line-event': [LineEventMessage];
  'bulk-progress': [jobId: string, progress: BulkProgressMessage];
};

export interface EventBus {
  pubsub: PubSub<GatewayTopics>;
  close(): Promise<void>;
}

/**
 * In-process when `redisUrl` is null; else through Redis (./redis-event-bus.ts), whose client is
 * loaded only then: ioredis is ~5 MB of resident memory a replica without Redis never uses.
 */
export async function createEventBus(redisUrl: string | null, logger: Logger): Promise<EventBus> {
  if (redisUrl === null) {
    // Each open subscription listens on its topic: a replica with many is not leaking listeners.
    const eventTarget = new EventTarget();
    setMaxListeners(0, eventTarget);
    return { pubsub: createPubSub<GatewayTopics>({ eventTarget }), close: async () => {} };
  }
  const { createRedisEventBus } = await import('./redis-event-bus.js');
  return createRedisEventBus(redisUrl, logger);
}
