// The line events outbox's background work on one replica: the relay (outbox → bus and webhook
// queues) and the webhook dispatcher, built together so the composition root wires one object.

import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import type { Logger } from '../lib/logger.js';
import type { EventBus } from '../pipeline/event-bus.js';
import type { OutboxSignals } from '../pipeline/services.js';
import { WebhookDispatcher } from './dispatcher.js';
import { OutboxLease } from './outbox-lease.js';
import { OutboxRelay } from './relay.js';

export class OutboxWorkers implements OutboxSignals {
  private readonly relay: OutboxRelay;
  private readonly dispatcher: WebhookDispatcher;
  private stopped?: Promise<void>;

  constructor(db: Database, bus: EventBus, logger: Logger, config: Config, owner: string) {
    this.dispatcher = new WebhookDispatcher(db, logger, {
      owner,
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      retryBaseMs: config.WEBHOOK_RETRY_BASE_MS,
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_URLS === 'on',
      pollMs: config.OUTBOX_POLL_MS,
    });
    this.relay = new OutboxRelay(
      db,
      bus,
      new OutboxLease(db, 'line-event-relay', owner),
      logger,
      config.OUTBOX_POLL_MS,
      () => this.dispatcher.wake(),
    );
  }

  /** Picks up what is unpublished or due (also what a crash left), then polls. */
  start(): void {
    this.relay.start();
    this.dispatcher.start();
  }

  eventWritten(): void {
    this.relay.wake();
  }

  deliveriesQueued(): void {
    this.dispatcher.wake();
  }

  /** Finishes the passes in flight (an attempt in flight is recorded) and releases the relay lease. */
  stop(): Promise<void> {
    this.stopped ??= Promise.all([this.relay.stop(), this.dispatcher.stop()]).then(() => undefined);
    return this.stopped;
  }
}
