// Whether a Redis server answers, for the tests of the shared rate-limit store.

import { Redis } from 'ioredis';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let availability: Promise<boolean> | undefined;

export function redisAvailable(): Promise<boolean> {
  availability ??= (async () => {
    const redis = new Redis(REDIS_URL, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      connectTimeout: 2000,
    });
    try {
      await redis.connect();
      await redis.ping();
      return true;
    } catch {
      process.stdout.write(`Redis tests skipped: no Redis answers at ${REDIS_URL}\n`);
      return false;
    } finally {
      redis.disconnect();
    }
  })();
  return availability;
}
