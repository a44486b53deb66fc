// What recovery holds back, counted in one statement (waits.ts turns it into gauges and warnings;
// `admin recovery waiting` prints it): the unresolved writes that the sweep's list leaves out
// because an older unresolved write under the same number or SIM exists, grouped by that older
// write.

import type { Database } from '../db/client.js';
import type { TransactionStatus } from '../pipeline/transaction-log.js';
import { resendable, sameNumberOrSim, unresolvedBefore } from './row-sql.js';

/** A date read back from an aggregate: PostgreSQL answers a Date, SQLite what it stores (ms or text). */
const dateOf = (value: unknown): Date => {
  if (value instanceof Date) return value;
  if (typeof value === 'bigint') return new Date(Number(value));
  if (typeof value === 'number') return new Date(value);
  const text = String(value);
  return /^\d+$/.test(text) ? new Date(Number(text)) : new Date(text);
};

/** An older unresolved write that writes under its number or SIM wait behind, with how many and since when. */
export interface BlockingWrite {
  id: string;
  operation: string;
  status: TransactionStatus;
  userId: string;
  carrier: string | null;
  attempts: number;
  createdAt: Date;
  /** When its own backoff ends (null: due now, or held by a replica re-sending it). */
  retryAt: Date | null;
  /** Unresolved writes that wait behind it. */
  waiting: number;
  /** When the oldest of them was made. */
  waitingSince: Date;
}

/** The writes recovery holds back for an older one on their line, at one instant. */
export interface Waits {
  /** Unresolved writes waiting behind an older one, in all. */
  waiting: number;
  /** The older writes they wait behind, in all. */
  blocking: number;
  /** The first of those, those with the longest waits first. */
  rows: BlockingWrite[];
}

/**
 * The writes `due` leaves out because they wait, grouped by what they wait behind: the oldest
 * unresolved write under the same number or SIM. One statement; the totals count every
 * waiting write, the rows are the `limit` older writes whose waiters have waited longest.
 */
export async function countWaits(db: Database, rules: { pendingBefore: Date }, limit: number): Promise<Waits> {
  const rows = await db.$queryRaw<
    (Omit<BlockingWrite, 'waitingSince' | 'retryAt' | 'createdAt'> & {
      createdAt: unknown;
      retryAt: unknown;
      waitingSince: unknown;
      total: number | bigint;
      blocking: number | bigint;
    })[]
  >`
    SELECT "blocker"."id", "blocker"."operation", "blocker"."status", "blocker"."userId", "blocker"."carrier",
      "blocker"."attempts", "blocker"."createdAt", "blocker"."leaseUntil" AS "retryAt",
      CAST(COUNT(*) AS INTEGER) AS "waiting", MIN("waits"."createdAt") AS "waitingSince",
      CAST(SUM(COUNT(*)) OVER () AS INTEGER) AS "total", CAST(COUNT(*) OVER () AS INTEGER) AS "blocking"
    FROM (
      SELECT "row"."createdAt", (SELECT "older"."id" FROM "Transaction" AS "older"
          WHERE ${unresolvedBefore('older', 'row')} AND ${sameNumberOrSim('older', 'row')}
          ORDER BY "older"."createdAt" ASC, "older"."id" ASC LIMIT 1) AS "blockedBy"
      FROM "Transaction" AS "row" WHERE ${resendable('row', rules)}
    ) AS "waits"
    JOIN "Transaction" AS "blocker" ON "blocker"."id" = "waits"."blockedBy"
    GROUP BY "blocker"."id", "blocker"."operation", "blocker"."status", "blocker"."userId", "blocker"."carrier",
      "blocker"."attempts", "blocker"."createdAt", "blocker"."leaseUntil"
    ORDER BY "waitingSince" ASC, "blocker"."id" ASC LIMIT ${limit}`;
  return {
    waiting: Number(rows[0]?.total ?? 0),
    blocking: Number(rows[0]?.blocking ?? 0),
    rows: rows.map(({ total: _total, blocking: _blocking, createdAt, retryAt, waitingSince, ...row }) => ({
      ...row,
      attempts: Number(row.attempts),
      waiting: Number(row.waiting),
      createdAt: dateOf(createdAt),
      retryAt: retryAt === null ? null : dateOf(retryAt),
      waitingSince: dateOf(waitingSince),
    })),
  };
}
