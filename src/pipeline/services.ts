// What an operation and the pipeline may use, built once per process by the composition root
// (src/app/) and handed down: every member is a lower layer's type, so the pipeline and the
// operations never import the root that builds them.

import type { Redis } from 'ioredis';
import type { Authenticator } from '../auth/authenticator.js';
import type { TokenService } from '../auth/tokens.js';
import type { CarrierRegistry } from '../carriers/registry.js';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import type { Directory } from '../directory/directory.js';
import type { LineRegistry } from '../lines/registry.js';
import type { Logger } from '../lib/logger.js';
import type { Metrics } from '../metrics.js';
import type { SettingsStore } from '../settings/store.js';
import type { EventBus } from './event-bus.js';
import type { CarrierReadFlights } from './read-flights.js';
import type { RateLimiter } from './rate-limiter.js';
import type { TransactionLog, TransactionRecord } from './transaction-log.js';

/**
 * The pipeline's side of outcome recovery (src/recovery/ implements it): shutdown waits for
 * the writes it began, and a write whose outcome is unknown is handed over to be re-sent.
 */
export interface OutcomeRecovery {
  /** A write starts; call the returned function when it has recorded its outcome. */
  begin(): () => void;
  /** The transaction's outcome is unknown: re-send it soon, with the same id. */
  resolveSoon(transactionId: string): void;
  /** An operator gives up a lost outcome (`reason` is kept in its answer): never re-sent. */
  abandon(transactionId: string, reason: string, options?: { dryRun?: boolean }): Promise<AbandonedWrite>;
}

/** A lost outcome an operator gave up, and the writes on its line that waited for it (now due). */
export interface AbandonedWrite {
  transaction: TransactionRecord;
  released: string[];
}

/** Wake-ups for the line events outbox's background work (src/events/ implements it). */
export interface OutboxSignals {
  /** A line event committed: publish it now rather than at the next poll. */
  eventWritten(): void;
  /** Webhook deliveries were queued (a replay): send them now. */
  deliveriesQueued(): void;
}

/**
 * Bulk activation jobs as operations start them (src/operations/activation/bulk-jobs/
 * implements it): the job is stored and leased by this replica before either is called.
 */
export interface BulkActivationJobs {
  /**
   * Runs the job here; resolves when this replica stops running it (finished, or handed over).
   * `answerNow`: a caller waits for the answer (the synchronous batch), so a SIM its carrier's
   * breaker turns away is that SIM's failure at once instead of waiting for the carrier.
   */
  runHere(jobId: string, options?: { answerNow?: boolean }): Promise<void>;
  /** Runs the job here in the background. */
  runInBackground(jobId: string): void;
  /** The job was cancelled: if it runs here, it stops before its next SIM. */
  cancelled(jobId: string): void;
}

export interface Services {
  config: Config;
  db: Database;
  directory: Directory;
  settings: SettingsStore;
  tokens: TokenService;
  authenticator: Authenticator;
  carriers: CarrierRegistry;
  rateLimiter: RateLimiter;
  transactions: TransactionLog;
  lines: LineRegistry;
  logger: Logger;
  metrics: Metrics;
  /** Identical carrier reads in flight across this replica's requests (CARRIER_READ_COALESCING). */
  carrierReads: CarrierReadFlights;
  /** Resolves writes whose outcome was lost (re-sends them with their transaction id). */
  recovery: OutcomeRecovery;
  /** Line events and job progress, across replicas when REDIS_URL is set (subscriptions read it). */
  events: EventBus;
  outbox: OutboxSignals;
  /** Runs bulk activation jobs in the background, one replica per job. */
  bulkJobs: BulkActivationJobs;
  /** The shared Redis connection when REDIS_URL is set (readiness pings it). */
  redis: Redis | null;
}
