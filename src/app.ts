// Wires the process together: database (migrated), auth, settings, carriers and rate limits.
// main.ts and the tests build the gateway through here (the admin CLI needs only db/data.ts).

import { Redis } from 'ioredis';
import { Authenticator } from './auth/authenticator.js';
import type { SigningKey } from './auth/secret.js';
import { connectCarriers, type ConnectedCarriers } from './carriers/connect.js';
import type { Config } from './config.js';
import { openData } from './db/data.js';
import { createLogger, type Logger } from './lib/logger.js';
import { LineRegistry } from './lines/registry.js';
import { Metrics } from './metrics.js';
import { MemoryRateLimitStore, RedisRateLimitStore } from './pipeline/rate-limit-store.js';
import { RateLimiter } from './pipeline/rate-limiter.js';
import { TransactionLog } from './pipeline/transaction-log.js';
import type { Services } from './services.js';

export interface Application {
  services: Services;
  carriers: ConnectedCarriers;
  signingKey: SigningKey;
  close(): Promise<void>;
}

export async function startApplication(config: Config, options: { env?: NodeJS.ProcessEnv; logger?: Logger } = {}): Promise<Application> {
  const logger = options.logger ?? createLogger(config.LOG_LEVEL);
  const data = await openData(config);
  let carriers: ConnectedCarriers;
  try {
    carriers = await connectCarriers(config, options.env ?? process.env);
  } catch (error) {
    await data.close();
    throw error;
  }
  const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2, lazyConnect: false }) : null;
  // ioredis reconnects by itself; an outage is logged once (and /readyz names it), not per retry.
  let redisDown = false;
  redis?.on('error', (error: Error) => {
    if (!redisDown) logger.warn('Redis is unreachable; retrying', { error: error.message });
    redisDown = true;
  });
  redis?.on('ready', () => void (redisDown = false));
  const services: Services = {
    config,
    db: data.db,
    directory: data.directory,
    settings: data.settings,
    tokens: data.tokens,
    authenticator: new Authenticator(data.db, data.directory, data.signingKey.key, config.CACHE_TTL_MS),
    carriers: carriers.registry,
    rateLimiter: new RateLimiter(redis ? new RedisRateLimitStore(redis) : new MemoryRateLimitStore()),
    transactions: new TransactionLog(data.db),
    lines: new LineRegistry(data.db, config.CACHE_TTL_MS),
    logger,
    metrics: new Metrics(),
    redis,
  };
  return {
    services,
    carriers,
    signingKey: data.signingKey,
    async close() {
      await carriers.registry.close();
      await carriers.sandboxes?.close();
      await redis?.quit().catch(() => undefined);
      await data.close();
    },
  };
}
