// Everything a request may need, built once per process by main.ts (or by tests).

import type { Redis } from 'ioredis';
import type { Authenticator } from './auth/authenticator.js';
import type { CostBudget } from './budget/cost-budget.js';
import type { TokenService } from './auth/tokens.js';
import type { CarrierRegistry } from './carriers/registry.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { Directory } from './directory/directory.js';
import type { PersistedOperations } from './graphql/persisted-operations.js';
import type { LineRegistry } from './lines/registry.js';
import type { Logger } from './lib/logger.js';
import type { Metrics } from './metrics.js';
import type { RateLimiter } from './pipeline/rate-limiter.js';
import type { TransactionLog } from './pipeline/transaction-log.js';
import type { Reconciler } from './recovery/reconciler.js';
import type { SettingsStore } from './settings/store.js';

export interface Services {
  config: Config;
  db: Database;
  directory: Directory;
  settings: SettingsStore;
  tokens: TokenService;
  authenticator: Authenticator;
  carriers: CarrierRegistry;
  rateLimiter: RateLimiter;
  /** The allow-list of persisted GraphQL operations (hash → document), read at start-up. */
  persistedOperations: PersistedOperations;
  /** Per-user GraphQL cost buckets (points = carrier calls). */
  costBudget: CostBudget;
  transactions: TransactionLog;
  lines: LineRegistry;
  logger: Logger;
  metrics: Metrics;
  /** Resolves writes whose outcome was lost (re-sends them with their transaction id). */
  recovery: Reconciler;
  /** The shared Redis connection when REDIS_URL is set (readiness pings it). */
  redis: Redis | null;
}
