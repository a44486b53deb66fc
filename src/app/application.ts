// The composition root: configuration → database (migrated), auth, settings, carriers (real or
// sandboxed), rate limits, cost budget and recovery, built once. main.ts and the tests build the
// gateway through here and hand `services` to the server (the admin CLI needs only ./data.ts).

import { withDeadline } from '../lib/with-deadline.js';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Authenticator } from '../auth/authenticator.js';
import type { SigningKey } from '../auth/secret.js';
import { CostBudget, MemoryCostBucketStore } from '../budget/cost-budget.js';
import { FallbackCostBucketStore } from '../budget/redis-cost-bucket-store.js';
import { connectCarriers, type ConnectedCarriers } from './carriers.js';
import { ConfigError, type Config } from '../config.js';
import { openData } from './data.js';
import { sqliteDriver } from '../db/client.js';
import { countQueries, startCacheInvalidation } from './cache-invalidation.js';
import { loadPersistedOperations } from '../graphql/persisted-operations.js';
import { createLogger, type Logger } from '../lib/logger.js';
import { LineRegistry } from '../lines/registry.js';
import { Metrics } from '../metrics.js';
import { OutboxWorkers } from '../events/outbox-workers.js';
import { createEventBus } from '../pipeline/event-bus.js';
import { FallbackRateLimitStore } from '../pipeline/fallback-rate-limit-store.js';
import { MemoryRateLimitStore } from '../pipeline/rate-limit-store.js';
import { RateLimiter } from '../pipeline/rate-limiter.js';
import { GroupCommitTransactionLog } from '../pipeline/transaction-batch.js';
import { CarrierReadFlights } from '../pipeline/read-flights.js';
import { operations } from '../operations/index.js';
import { BulkJobRunner } from '../operations/activation/bulk-jobs/runner.js';
import { JobLeases } from '../operations/activation/bulk-jobs/job-leases.js';
import { outcomeFollowers } from './outcome-followers.js';
import { RecoveryLeases } from '../recovery/leases.js';
import { Reconciler } from '../recovery/reconciler.js';
import { recoveryTiming } from '../recovery/timing.js';
import type { GatewayServices } from '../server.js';

/** The services as built here: the reconciler and job runner themselves, not only the pipeline's side of them. */
export interface ApplicationServices extends GatewayServices {
  recovery: Reconciler;
  bulkJobs: BulkJobRunner;
}

export interface Application {
  services: ApplicationServices;
  carriers: ConnectedCarriers;
  signingKey: SigningKey;
  /** application_name of this replica's cache listener on PostgreSQL (pg_stat_activity); null on SQLite. */
  cacheListenerName: string | null;
  /**
   * Stops jobs, re-sends and outbox, then closes connections. What waits for work in flight
   * (a SIM, a write, a webhook, a carrier call) waits at most `budgetMs` in all; what releases
   * leases and closes connections runs whatever that work does. Answers false when the budget
   * cut work in flight (left as a crash leaves it, for the next start).
   */
  close(budgetMs?: number): Promise<boolean>;
}

export async function startApplication(
  config: Config,
  options: { env?: NodeJS.ProcessEnv; logger?: Logger } = {},
): Promise<Application> {
  const logger = options.logger ?? createLogger(config.LOG_LEVEL);
  // A bucket smaller than the largest request allowed would refuse that request for ever.
  if (config.GRAPHQL_COST_CAPACITY < config.GRAPHQL_MAX_COST) {
    throw new ConfigError(
      `Invalid GRAPHQL_COST_CAPACITY: must be at least GRAPHQL_MAX_COST (${config.GRAPHQL_MAX_COST})`,
    );
  }
  // Before anything opens: a bad allow-list is a start-up error.
  const persistedOperations = loadPersistedOperations(config.PERSISTED_OPERATIONS_FILE);
  const metrics = new Metrics();
  const data = await openData(config, logger, { onQuery: countQueries(metrics) });
  let carriers: ConnectedCarriers;
  try {
    carriers = await connectCarriers(config, options.env ?? process.env, { logger, metrics });
  } catch (error) {
    await data.close();
    throw error;
  }
  const cacheInvalidation = await startCacheInvalidation(data, logger, metrics);
  // The Redis client (ioredis, ~5 MB resident) and the PostgreSQL listener's name (pg) are loaded
  // only when configured: an embedded gateway on SQLite without Redis never needs them.
  const redisUrl = config.REDIS_URL;
  const redis = redisUrl
    ? await import('../pipeline/redis-client.js').then(({ connectRedis }) => connectRedis(redisUrl, logger))
    : null;
  // Each replica holds recovery, relay, delivery and job leases under its own name.
  const replica = `${hostname()}:${process.pid}:${randomUUID()}`;
  const events = await createEventBus(redisUrl ?? null, logger);
  const outbox = new OutboxWorkers(data.db, events, logger, config, replica);
  const recovery = new Reconciler(
    new RecoveryLeases(data.db, replica),
    operations,
    recoveryTiming(config),
    () => outbox.eventWritten(),
    // A bulk job's entry for an activation whose outcome was lost follows what recovery learns.
    outcomeFollowers,
  );
  const bulkJobs = new BulkJobRunner(
    new JobLeases(data.db, replica),
    config.BULK_JOB_LEASE_MS,
    config.BULK_REPLICA_CONCURRENCY,
  );
  const services: ApplicationServices = {
    config,
    db: data.db,
    directory: data.directory,
    settings: data.settings,
    tokens: data.tokens,
    authenticator: new Authenticator(data.db, data.directory, data.signingKey.key, data.invalidation),
    carriers: carriers.registry,
    rateLimiter: new RateLimiter(
      redis ? new FallbackRateLimitStore(redis, logger, metrics) : new MemoryRateLimitStore(),
    ),
    persistedOperations,
    costBudget: new CostBudget(
      redis ? new FallbackCostBucketStore(redis, metrics) : new MemoryCostBucketStore(),
      config.GRAPHQL_COST_CAPACITY,
      config.GRAPHQL_COST_RESTORE_RATE,
    ),
    // Concurrent requests' reservations and completions commit together (a lone one at once); on
    // SQLite as SQL statements through the driver adapter, cheaper than the client's model calls.
    transactions: new GroupCommitTransactionLog(data.db, () => outbox.eventWritten(), sqliteDriver(data.db) ?? null),
    lines: new LineRegistry(data.db, data.invalidation),
    logger,
    metrics,
    carrierReads: new CarrierReadFlights(config.CARRIER_READ_COALESCING === 'on'),
    recovery,
    events,
    outbox,
    bulkJobs,
    redis,
  };
  recovery.start(services);
  outbox.start();
  bulkJobs.start(services);
  return {
    services,
    carriers,
    signingKey: data.signingKey,
    cacheListenerName:
      data.invalidation.channel === null
        ? null
        : (await import('../db/postgres-cache-listener.js')).cacheListenerName(data.invalidation),
    async close(budgetMs = Number.POSITIVE_INFINITY) {
      const deadline = performance.now() + budgetMs;
      let complete = true;
      const inFlight = async (work: Promise<void>) => {
        const left = Math.max(0, deadline - performance.now());
        if (
          !(await withDeadline(
            work.then(() => true),
            left,
            false,
          ))
        )
          complete = false;
      };
      // First: jobs stop after their current SIM, then writes in flight record their outcome
      // (or stay unresolved for the next start). The outbox relay releases its lease as soon as
      // its pass ends, whatever a webhook delivery in flight does.
      await inFlight(bulkJobs.stop());
      await inFlight(recovery.stop());
      await inFlight(outbox.stop());
      await inFlight(carriers.registry.close());
      await carriers.sandboxes?.close();
      await services.events.close();
      if (redis) await import('../pipeline/redis-client.js').then(({ closeRedis }) => closeRedis(redis));
      await cacheInvalidation.close();
      await data.close();
      return complete;
    },
  };
}
