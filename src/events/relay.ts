// The outbox relay: takes committed line events that are not yet published, in commit order,
// creates their webhook deliveries and marks them published in one database transaction, then
// tells live subscribers through the event bus. Restart-safe: whatever a crash left unpublished
// is found by the next pass of any replica. One replica relays at a time (an OutboxLease), so
// deliveries are queued in event order.

import type { Database } from '../db/client.js';
import type { Logger } from '../lib/logger.js';
import type { EventBus } from '../pipeline/event-bus.js';
import { messageOf, recordOf } from './outbox.js';
import type { OutboxLease } from './outbox-lease.js';
import { newDeliveryId, parseEventTypes, wants } from './webhook-store.js';
import { WorkerLoop } from './worker-loop.js';
import { logPassFailure } from '../errors/database-unavailable.js';

const BATCH = 100;
/** How long the relay lease lasts; renewed every batch. */
const LEASE_MS = 30_000;
/** How long a committed event waits for others to be relayed with it. */
const GATHER_MS = 10;

export class OutboxRelay {
  private readonly loop: WorkerLoop;
  private gathering?: NodeJS.Timeout;

  constructor(
    private readonly db: Database,
    private readonly bus: EventBus,
    private readonly lease: OutboxLease,
    private readonly logger: Logger,
    pollMs: number,
    /** Told when deliveries were queued (the dispatcher sends them at once). */
    private readonly deliveriesQueued: () => void,
  ) {
    this.loop = new WorkerLoop(
      () => this.pass(),
      pollMs,
      (error) => logPassFailure(this.logger, 'line event relay failed', error),
    );
  }

  start(): void {
    this.loop.wake();
  }

  /**
   * A line event was committed on this replica: publish it within GATHER_MS. Under load the
   * events of that window go out in one pass (one read, one write) instead of one pass each.
   */
  wake(): void {
    if (this.gathering) return;
    this.gathering = setTimeout(() => {
      this.gathering = undefined;
      this.loop.wake();
    }, GATHER_MS);
  }

  async stop(): Promise<void> {
    clearTimeout(this.gathering);
    this.gathering = undefined;
    await this.loop.stop();
    await this.lease.release().catch(() => undefined);
  }

  /** Relays everything unpublished, batch by batch, while it holds the lease. */
  private async pass(): Promise<number | null> {
    for (;;) {
      if (!(await this.lease.acquire(LEASE_MS))) return null;
      const rows = await this.db.lineEvent.findMany({
        where: { published: false },
        orderBy: { seq: 'asc' },
        take: BATCH,
      });
      if (rows.length === 0) return null;
      const endpoints = (
        await this.db.webhookEndpoint.findMany({ where: { active: true }, orderBy: { createdAt: 'asc' } })
      ).map((endpoint) => ({ id: endpoint.id, eventTypes: parseEventTypes(endpoint.eventTypes) }));
      const now = new Date();
      const deliveries = rows.flatMap((row) =>
        endpoints
          .filter((endpoint) => wants(endpoint.eventTypes, row.type))
          .map((endpoint) => ({
            id: newDeliveryId(),
            endpointId: endpoint.id,
            eventId: row.id,
            status: 'pending',
            nextAttemptAt: now,
          })),
      );
      // Created one by one in event order: their autoincrement keys are each endpoint's queue order.
      await this.db.$transaction([
        ...deliveries.map((data) => this.db.webhookDelivery.create({ data })),
        this.db.lineEvent.updateMany({
          where: { seq: { in: rows.map((row) => row.seq) } },
          data: { published: true, publishedAt: now },
        }),
      ]);
      for (const row of rows) this.bus.pubsub.publish('line-event', messageOf(recordOf(row)));
      if (deliveries.length > 0) this.deliveriesQueued();
      if (rows.length < BATCH) return null;
    }
  }
}
