// What recovery holds back, for operators. A line's lost writes are re-sent oldest first
// (src/recovery/line-order.ts), so an older write that cannot be re-sent (its user or plan
// deleted, its carrier gone) or whose carrier stays down keeps the line's later writes waiting.
// After each sweep, one bounded statement (RecoveryLeases.waits) counts them: two gauges, and a
// warning naming the older write once its waiters have waited RECOVERY_WAIT_WARN_MS, repeated at
// that interval while they wait, and an info line when nothing waits behind it any more. The same
// statement answers `npm run --silent admin -- recovery waiting`.

import { logPassFailure } from '../errors/database-unavailable.js';
import type { Logger } from '../lib/logger.js';
import type { Metrics } from '../metrics.js';
import type { RecoveryLeases } from './leases.js';
import type { Waits } from './wait-count.js';

/** Older writes named at most by one look (the gauges count every waiting write). */
export const WAITS_LISTED = 100;

export class WaitWatch {
  /** Older writes warned of, and when (ms since the epoch). */
  private readonly warned = new Map<string, number>();

  constructor(
    private readonly leases: RecoveryLeases,
    /** RECOVERY_WAIT_WARN_MS: the wait warned of, and the interval between two warnings of one older write. */
    private readonly warnAfterMs: number,
  ) {}

  /**
   * Counts the writes waiting now, sets the gauges and warns of long waits. A failure is logged
   * (the gauges keep their last values until a sweep counts again).
   */
  async observe(rules: { pendingBefore: Date }, { metrics, logger }: { metrics: Metrics; logger: Logger }) {
    let waits: Waits;
    try {
      waits = await this.leases.waits(rules, WAITS_LISTED);
    } catch (error) {
      logPassFailure(logger, 'transaction recovery could not count the writes waiting on their line', error);
      return;
    }
    const now = Date.now();
    const oldest = waits.rows[0]?.waitingSince.getTime();
    metrics.recoveryWaitingWrites.set(waits.waiting);
    metrics.recoveryOldestWait.set(oldest === undefined ? 0 : Math.max(0, now - oldest) / 1000);
    for (const row of waits.rows) {
      const waitedMs = now - row.waitingSince.getTime();
      if (waitedMs < this.warnAfterMs) continue;
      const last = this.warned.get(row.id);
      if (last !== undefined && now - last < this.warnAfterMs) continue;
      this.warned.set(row.id, now);
      logger.warn('lost writes wait behind an older unresolved write on their line', {
        transactionId: row.id,
        operation: row.operation,
        status: row.status,
        attempts: row.attempts,
        ageMs: now - row.createdAt.getTime(),
        waitingWrites: row.waiting,
        waitedMs,
        hint: 'list with: npm run --silent admin -- recovery waiting',
      });
    }
    // Beyond the listed rows nothing is known: an older write warned of is forgotten only when
    // the list was complete and it is not in it.
    if (waits.rows.length < WAITS_LISTED) {
      const listed = new Set(waits.rows.map((row) => row.id));
      for (const id of this.warned.keys()) {
        if (listed.has(id)) continue;
        this.warned.delete(id);
        logger.info('no lost write waits behind this write any more', { transactionId: id });
      }
    }
  }
}
