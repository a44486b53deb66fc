// A named lease one replica holds at a time (table OutboxLease): the relay publishes the outbox
// in commit order, so only the holder reads it. Taking and renewing are one conditional UPDATE
// (free, expired or already ours), else one INSERT that a unique key lets only one replica win:
// the same on SQLite and PostgreSQL.

import type { Database } from '../db/client.js';
import { isUniqueViolation } from '../db/errors.js';

export class OutboxLease {
  constructor(
    private readonly db: Database,
    readonly name: string,
    /** This replica's name on the lease. */
    readonly owner: string,
  ) {}

  /** Until when this replica last took the lease (renewals are skipped while most of it is left). */
  private heldUntil = 0;

  /** Takes or renews the lease for `leaseMs`; false while another replica holds it. */
  async acquire(leaseMs: number): Promise<boolean> {
    const now = new Date();
    // Each committed event wakes the relay: no database write for the lease while over half remains.
    if (this.heldUntil - now.getTime() > leaseMs / 2) return true;
    const until = new Date(now.getTime() + leaseMs);
    this.heldUntil = 0;
    const { count } = await this.db.outboxLease.updateMany({
      where: { name: this.name, OR: [{ owner: this.owner }, { until: { lt: now } }] },
      data: { owner: this.owner, until },
    });
    if (count === 1) {
      this.heldUntil = until.getTime();
      return true;
    }
    try {
      await this.db.outboxLease.create({ data: { name: this.name, owner: this.owner, until } });
      this.heldUntil = until.getTime();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Lets another replica take over at once (shutdown). */
  async release(): Promise<void> {
    this.heldUntil = 0;
    await this.db.outboxLease.deleteMany({ where: { name: this.name, owner: this.owner } });
  }
}
