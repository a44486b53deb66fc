// The event bus across replicas (./event-bus.ts): every publish goes through Redis pub/sub, so a
// subscriber connected to one replica hears what another did. Loaded only when REDIS_URL is set.

import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { Redis } from 'ioredis';
import type { Logger } from '../lib/logger.js';
import { boundedPubSub, type EventBus } from './event-bus.js';

type EventTarget = ReturnType<typeof createRedisEventTarget<CustomEvent>>;

/**
 * Redis pub/sub ignores the database number that keeps one deployment's keys (rate limits)
 * apart from another's on the same server: its channels carry the number in their name, so
 * deployments on `redis://host/7` and `redis://host/8` never hear each other's line events.
 */
const channelPrefix = (client: Redis) => `line-gateway:${client.options.db ?? 0}:`;

/** The bus's topics as channels under `prefix`. */
function namespaced(target: EventTarget, prefix: string): EventTarget {
  return {
    addEventListener: (topic, listener) => target.addEventListener(prefix + topic, listener),
    removeEventListener: (topic, listener) => target.removeEventListener(prefix + topic, listener),
    dispatchEvent: (event) => target.dispatchEvent(new CustomEvent(prefix + event.type, { detail: event.detail })),
  };
}

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
    pubsub: boundedPubSub(namespaced(eventTarget, channelPrefix(publishClient))),
    async close() {
      await Promise.all(
        [publishClient, subscribeClient].map((client) => client.quit().catch(() => client.disconnect())),
      );
    },
  };
}
