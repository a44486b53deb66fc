// The ioredis client of the shared rate-limit counters, set up to fail fast: no offline queue
// (a command while disconnected fails at once instead of waiting for a reconnect), a short
// command timeout, one retry, and reconnection with backoff in the background. Its events go
// through the JSON logger; without an `error` listener ioredis prints stack traces to stderr.

import { Redis } from 'ioredis';
import type { Logger } from '../lib/logger.js';

export interface RedisOptions {
  /** How long a command may take before the store falls back (a hung, not closed, Redis). */
  commandTimeoutMs?: number;
}

/**
 * Connects, and resolves once the first attempt has succeeded or failed (at most ~2 s), so a
 * replica whose Redis answers counts in Redis from its first request. Never rejects.
 */
export async function connectRedis(url: string, logger: Logger, options: RedisOptions = {}): Promise<Redis> {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    commandTimeout: options.commandTimeoutMs ?? 500,
    connectTimeout: 2_000,
    maxRetriesPerRequest: 1,
    // 100 ms, 200 ms… up to 5 s between attempts, forever: the counters come back with Redis.
    retryStrategy: (attempt) => Math.min(attempt * 100, 5_000),
    lazyConnect: false,
  });
  // Every failed attempt emits `error`; the outage itself is reported once by the store.
  redis.on('error', (error: Error) => logger.debug('redis error', { error: error.message }));
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      redis.off('error', done);
      resolve();
    };
    const timer = setTimeout(done, 2_500);
    redis.once('ready', done);
    redis.once('error', done);
  });
  return redis;
}

/** Closes the client: QUIT when connected, else drop the connection attempts at once. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
  else redis.disconnect();
}
