// The gateway's event bus: what one part of a replica tells the others (a line event was
// committed, a bulk activation job moved). With REDIS_URL every replica hears every publish
// through Redis pub/sub, so a subscriber connected to one replica sees what another did;
// without it the bus is in-process, which is all one replica needs. GraphQL subscriptions
// (Yoga's SSE transport) read from it.

import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { createPubSub, type PubSub } from 'graphql-yoga';
import { Redis } from 'ioredis';
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

/** In-process when `redisUrl` is null; else through Redis (two connections: one subscribes). */
export function createEventBus(redisUrl: string | null, logger: Logger): EventBus {
  if (redisUrl === null) return { pubsub: createPubSub<GatewayTopics>(), close: async () => {} };
  // Unlike the rate-limit client these queue while disconnected and resubscribe on reconnect:
  // a subscription outlives a Redis restart.
  const connect = () => {
    const client = new Redis(redisUrl, { retryStrategy: (attempt) => Math.min(attempt * 100, 5_000) });
    client.on('error', (error: Error) => logger.debug('event bus redis error', { error: error.message }));
    return client;
  };
  const publishClient = connect();
  const subscribeClient = connect();
  const eventTarget = createRedisEventTarget<CustomEvent>({ publishClient, subscribeClient });
  return {
    pubsub: createPubSub<GatewayTopics>({ eventTarget }),
    async close() {
      await Promise.all(
        [publishClient, subscribeClient].map((client) => client.quit().catch(() => client.disconnect())),
      );
    },
  };
}
