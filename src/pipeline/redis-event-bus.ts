// The event bus across replicas (./event-bus.ts): every publish goes through Redis pub/sub, so a
// subscriber connected to one replica hears what another did. Loaded only when REDIS_URL is set.

import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { createPubSub } from 'graphql-yoga';
import { Redis } from 'ioredis';
import type { Logger } from '../lib/logger.js';
import type { EventBus, GatewayTopics } from './event-bus.js';

/** Two connections: one publishes, one subscribes. */
export function createRedisEventBus(redisUrl: string, logger: Logger): EventBus {
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
