// The gateway's event bus: what one part of a replica tells the others (a line event was
// committed, a bulk activation job moved). With REDIS_URL every replica hears every publish
// through Redis pub/sub, so a subscriber connected to one replica sees what another did;
// without it the bus is in-process, which is all one replica needs. GraphQL subscriptions
// (Yoga's SSE transport) read from it.

import { setMaxListeners } from 'node:events';
import { createPubSub, type PubSub, type PubSubEventTarget } from 'graphql-yoga';
import { SubscriptionLaggedError } from '../errors/subscription-lagged.js';
import type { Logger } from '../lib/logger.js';
import { boundedSubscription, type TopicTarget } from './bounded-subscription.js';

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

/** Publishing as Yoga's PubSub does; subscriptions holding at most SUBSCRIPTION_BACKLOG_MAX events. */
export interface GatewayPubSub {
  publish: PubSub<GatewayTopics>['publish'];
  subscribe(topic: 'line-event'): AsyncIterableIterator<LineEventMessage>;
  subscribe(topic: 'bulk-progress', jobId: string): AsyncIterableIterator<BulkProgressMessage>;
}

export interface EventBus {
  pubsub: GatewayPubSub;
  close(): Promise<void>;
}

/**
 * Events one subscription holds for a consumer that does not take them (an SSE stream whose
 * socket does not drain): one more ends it with SubscriptionLaggedError (./bounded-subscription.ts).
 * ~1 KB an event: a stalled stream holds ~1 MB, a user at most MAX_STREAMS_PER_USER of them.
 */
export const SUBSCRIPTION_BACKLOG_MAX = 1_000;

/**
 * Yoga's PubSub over `target` for publishing, and subscriptions of its own, each holding at most
 * SUBSCRIPTION_BACKLOG_MAX events (./bounded-subscription.ts) on the same topics (Yoga's naming:
 * `topic`, or `topic:id` for a keyed one).
 */
export function boundedPubSub(target: TopicTarget): GatewayPubSub {
  const { publish } = createPubSub<GatewayTopics>({
    // The same target, typed as Yoga's: publishing dispatches a CustomEvent whose detail is the message.
    eventTarget: target as unknown as PubSubEventTarget<GatewayTopics>,
  });
  const lagged = () => new SubscriptionLaggedError(SUBSCRIPTION_BACKLOG_MAX);
  function subscribe(topic: 'line-event'): AsyncIterableIterator<LineEventMessage>;
  function subscribe(topic: 'bulk-progress', jobId: string): AsyncIterableIterator<BulkProgressMessage>;
  function subscribe(topic: string, id?: string): AsyncIterableIterator<unknown> {
    const keyed = id === undefined ? topic : `${topic}:${id}`;
    return boundedSubscription(target, keyed, SUBSCRIPTION_BACKLOG_MAX, lagged);
  }
  return { publish, subscribe };
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
    return { pubsub: boundedPubSub(eventTarget as unknown as TopicTarget), close: async () => {} };
  }
  const { createRedisEventBus } = await import('./redis-event-bus.js');
  return createRedisEventBus(redisUrl, logger);
}
