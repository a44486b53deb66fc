// The reconciler's claims on transaction rows. A claim is one conditional UPDATE (status still
// unresolved, lease free or expired, no older unresolved write on the row's line), so on SQLite
// and PostgreSQL alike only one replica can hold a row at a time, and a line's writes are
// claimed oldest first (src/recovery/line-order.ts); the lease also serves as the retry schedule
// (a row released after a fault stays leased, by nobody, until its backoff has passed, or until
// the older write it waited for resolves: `wake`).

import type { Database, DatabaseTransaction } from '../db/client.js';
import { outboxRow } from '../pipeline/line-events.js';
import { completedRow, type CompletionLines, type TransactionStatus } from '../pipeline/transaction-log.js';
import { Prisma } from '../generated/sqlite/client.js';
import {
  leaseFree,
  PENDING,
  resendable,
  sameNumberOrSim,
  UNKNOWN,
  UNRESOLVED,
  unresolvedBefore,
  type LineMatch,
} from './row-sql.js';
import type { LaterWrite, Rivals } from './supersede.js';
import { countWaits, type Waits } from './wait-count.js';

export type { LineMatch } from './row-sql.js';

/** Number changes followed from a row's number to its line's later ones; a line renumbered more often meanwhile is followed no further. */
export const MAX_RENUMBERINGS = 8;

/**
 * Writes that must follow a learned outcome in the database transaction that records it, so
 * that they commit with it or not at all (a bulk job's entry for the transaction: the
 * operations table's concern, given to the reconciler by the application). Run only when the
 * outcome is recorded; `resolvedAt` is the row's.
 */
export type OutcomeFollower = (tx: DatabaseTransaction, resolvedAt: Date) => Promise<void>;

export interface ClaimRules {
  /** How long the claimant may work on the row before another replica may take it over. */
  leaseMs: number;
  /** `pending` rows younger than this may still be in their own request: left alone. */
  pendingBefore: Date;
}

export class RecoveryLeases {
  constructor(
    /** The database the rows are in (where the reconciler reads a row's line: src/recovery/line-order.ts). */
    readonly db: Database,
    /** This replica's name on the rows it holds. */
    readonly owner: string,
  ) {}

  /**
   * Takes the row for `leaseMs` and counts the attempt; false when it is not (or no longer) ours
   * to take, or when an older write on its line (`line`) is unresolved. One conditional UPDATE:
   * of two replicas claiming two writes of one line at once, the younger's claim finds the older
   * unresolved, whoever holds it. Reading the older rows in the statement's snapshot is enough:
   * a row becomes unresolved only when it is dated now (a reservation, or a retry taking its id
   * over), so no write older than this one can turn unresolved after the statement looked.
   */
  async claim(id: string, rules: ClaimRules, line: LineMatch): Promise<boolean> {
    const now = new Date();
    const count = await this.db.$executeRaw`
      UPDATE "Transaction" SET "leaseUntil" = ${new Date(now.getTime() + rules.leaseMs)}, "leaseOwner" = ${this.owner},
        "attempts" = "attempts" + 1, "updatedAt" = ${now}
      WHERE "id" = ${id} AND ${resendable('Transaction', rules)} AND ${leaseFree('Transaction', now)}
        AND NOT EXISTS (SELECT 1 FROM "Transaction" AS "older"
          WHERE ${unresolvedBefore('older', 'Transaction')} AND ${line('older')})`;
    return count === 1;
  }

  /** The oldest unresolved write on the line (`line`) made before row `id`, which `id` waits for; null when none. */
  async olderUnresolved(id: string, line: LineMatch): Promise<string | null> {
    const rows = await this.db.$queryRaw<{ id: string }[]>`
      SELECT "older"."id" FROM "Transaction" AS "older", "Transaction" AS "row"
      WHERE "row"."id" = ${id} AND ${unresolvedBefore('older', 'row')} AND ${line('older')}
      ORDER BY "older"."createdAt" ASC, "older"."id" ASC LIMIT 1`;
    return rows[0]?.id ?? null;
  }

  /**
   * Once row `id` has resolved: the oldest `limit` unresolved writes made after it on its line
   * (`line`) that nobody holds, each made due at once (a backoff of their own ends here: the
   * write they waited for has landed). They may still wait for another older write, which
   * their claim will find. A row of a request that may still be running is left to it.
   */
  async wake(id: string, line: LineMatch, rules: { pendingBefore: Date }, limit: number): Promise<string[]> {
    const ids = await this.next(id, line, rules, limit);
    if (ids.length > 0)
      await this.db.transaction.updateMany({
        where: { id: { in: ids }, leaseOwner: null, status: { in: [...UNRESOLVED] } },
        data: { leaseUntil: null },
      });
    return ids;
  }

  /** The writes `wake` would make due, without making them so (a dry run's answer). */
  async next(id: string, line: LineMatch, rules: { pendingBefore: Date }, limit: number): Promise<string[]> {
    const rows = await this.db.$queryRaw<{ id: string }[]>`
      SELECT "next"."id" FROM "Transaction" AS "next", "Transaction" AS "row"
      WHERE "row"."id" = ${id} AND ${resendable('next', rules)} AND "next"."leaseOwner" IS NULL
        AND ("next"."createdAt" > "row"."createdAt" OR ("next"."createdAt" = "row"."createdAt" AND "next"."id" > "row"."id"))
        AND ${line('next')}
      ORDER BY "next"."createdAt" ASC, "next"."id" ASC LIMIT ${limit}`;
    return rows.map((row) => row.id);
  }

  /**
   * Records the outcome, if the row is still ours and unresolved; a learned success's line
   * event (`event`) and the `follow` writes are made in the same database transaction, only
   * when the outcome is. The lines as TransactionLog.complete takes them: the one the row was
   * reserved under, and the one the answer names when the request named none (an activation's
   * new MDN), recorded on the row.
   */
  async resolve(
    id: string,
    status: TransactionStatus,
    httpStatus: number,
    response: unknown,
    { namedLine, answeredLine, event = null, follow }: CompletionLines & { follow?: OutcomeFollower } = {},
  ): Promise<boolean> {
    const outcome = { status, httpStatus, response, answeredLine, resolvedAt: new Date() };
    const lineEvent = status === 'success' ? event : null;
    if (!lineEvent && !follow) return this.recordOutcome(this.db, id, outcome);
    return this.db.$transaction(async (tx) => {
      const recorded = await this.recordOutcome(tx, id, outcome);
      if (recorded && lineEvent) {
        const line = await tx.line.findUnique({ where: { mdn: lineEvent.mdn }, select: { ownerId: true, sim: true } });
        await tx.lineEvent.create({ data: outboxRow(lineEvent, line, namedLine ?? answeredLine ?? null) });
      }
      if (recorded && follow) await follow(tx, outcome.resolvedAt);
      return recorded;
    });
  }

  private async recordOutcome(
    db: Pick<Database, 'transaction'>,
    id: string,
    outcome: {
      status: TransactionStatus;
      httpStatus: number;
      response: unknown;
      answeredLine?: string | undefined;
      resolvedAt: Date;
    },
  ): Promise<boolean> {
    const { count } = await db.transaction.updateMany({
      where: { id, leaseOwner: this.owner, status: { in: [...UNRESOLVED] } },
      data: {
        ...completedRow(outcome.status, outcome.httpStatus, outcome.response, outcome.answeredLine),
        // Resolved here, so the stored input is no longer needed whatever the outcome.
        request: null,
        resolvedAt: outcome.resolvedAt,
        leaseUntil: null,
        leaseOwner: null,
      },
    });
    return count === 1;
  }

  /**
   * The newest successful write of `rivals` on the line of `row` recorded after it, or null.
   * The line is followed across number changes (`renumbering`, whose event carries the line's
   * new number): a number counts only while the line held it, from the row (or the change that
   * brought the line there) to the first change that took the line away, since before and after
   * that the number may be another line's.
   */
  async laterWrite(
    row: { id: string; mdn: string; createdAt: Date },
    rivals: Rivals,
    renumbering: readonly string[],
  ): Promise<LaterWrite | null> {
    const held: { mdn: string; createdAt: { gt: Date; lte?: Date } }[] = [];
    let current: { mdn: string; since: Date } | null = { mdn: row.mdn, since: row.createdAt };
    for (let step = 0; current && renumbering.length > 0 && step < MAX_RENUMBERINGS; step++) {
      const change: { id: string; createdAt: Date } | null = await this.db.transaction.findFirst({
        where: {
          status: 'success',
          operation: { in: [...renumbering] },
          mdn: current.mdn,
          createdAt: { gt: current.since },
        },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        select: { id: true, createdAt: true },
      });
      if (!change) break;
      // The change itself is a write under the number the line is leaving (a rival of a number change).
      held.push({ mdn: current.mdn, createdAt: { gt: current.since, lte: change.createdAt } });
      const event: { mdn: string } | null = await this.db.lineEvent.findUnique({
        where: { transactionId: change.id },
        select: { mdn: true },
      });
      current = event ? { mdn: event.mdn, since: change.createdAt } : null;
    }
    if (current) held.push({ mdn: current.mdn, createdAt: { gt: current.since } });
    return this.db.transaction.findFirst({
      where: { id: { not: row.id }, status: 'success', operation: { in: [...rivals.operations] }, OR: held },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: { id: true, operation: true, userId: true },
    });
  }

  /**
   * Resolves the row `superseded` by `later` with `response`, no line event, no re-send. One
   * conditional UPDATE, like `resolve`: only while the row is still unresolved and this
   * replica's, and `later` is still a success recorded after it. `attempts` gives back what the
   * claim counted, since nothing was sent.
   */
  async supersede(id: string, later: string, response: unknown): Promise<boolean> {
    const now = new Date();
    const [pending, unknown] = UNRESOLVED;
    const count = await this.db.$executeRaw`
      UPDATE "Transaction" SET "status" = ${'superseded' satisfies TransactionStatus},
        "response" = ${JSON.stringify(response)}, "request" = NULL, "resolvedAt" = ${now}, "updatedAt" = ${now},
        "leaseUntil" = NULL, "leaseOwner" = NULL, "attempts" = "attempts" - 1
      WHERE "id" = ${id} AND "leaseOwner" = ${this.owner} AND "status" IN (${pending}, ${unknown})
        AND EXISTS (SELECT 1 FROM "Transaction" AS "later" WHERE "later"."id" = ${later}
          AND "later"."status" = ${'success' satisfies TransactionStatus} AND "later"."createdAt" > "Transaction"."createdAt")`;
    return count === 1;
  }

  /**
   * Resolves the row `abandoned` with `response` (an operator gave it up: src/recovery/abandon.ts),
   * and the `follow` writes with it. One conditional UPDATE: only while the row is unresolved,
   * no replica holds it (a re-send in progress records the carrier's answer instead) and, if
   * `pending`, its own request cannot still be running. Its stored request goes, so nothing
   * re-sends it; a backoff lease goes with it.
   */
  async abandon(
    id: string,
    response: unknown,
    rules: { pendingBefore: Date },
    follow?: OutcomeFollower,
  ): Promise<{ resolvedAt: Date } | null> {
    const now = new Date();
    // A backoff (a lease nobody holds) does not stop it; a replica's re-send in progress does.
    const notHeld = Prisma.sql`("leaseOwner" IS NULL OR "leaseUntil" IS NULL OR "leaseUntil" <= ${now})`;
    const update = (db: Database | DatabaseTransaction) => db.$executeRaw`
      UPDATE "Transaction" SET "status" = ${'abandoned' satisfies TransactionStatus},
        "response" = ${JSON.stringify(response)}, "request" = NULL, "resolvedAt" = ${now}, "updatedAt" = ${now},
        "leaseUntil" = NULL, "leaseOwner" = NULL
      WHERE "id" = ${id} AND ("status" = ${UNKNOWN} OR ("status" = ${PENDING} AND "createdAt" < ${rules.pendingBefore}))
        AND ${notHeld}`;
    const abandoned = follow
      ? await this.db.$transaction(async (tx) => {
          const count = await update(tx);
          if (count === 1) await follow(tx, now);
          return count === 1;
        })
      : (await update(this.db)) === 1;
    return abandoned ? { resolvedAt: now } : null;
  }

  /** Gives the row back, untouchable by any replica until `retryAt`. */
  async release(id: string, retryAt: Date): Promise<void> {
    await this.db.transaction.updateMany({
      where: { id, leaseOwner: this.owner },
      data: { leaseUntil: retryAt, leaseOwner: null },
    });
  }

  /**
   * Ids of unresolved rows nobody holds, oldest first, leaving out those that wait for an older
   * unresolved write under the same number or SIM (the claim checks the whole line): a line's
   * waiting writes do not fill a sweep's batch, and its next one is woken when the older resolves.
   */
  async due(rules: { pendingBefore: Date }, limit: number): Promise<string[]> {
    const rows = await this.db.$queryRaw<{ id: string }[]>`
      SELECT "row"."id" FROM "Transaction" AS "row"
      WHERE ${resendable('row', rules)} AND ${leaseFree('row', new Date())}
        AND NOT EXISTS (SELECT 1 FROM "Transaction" AS "older" WHERE ${unresolvedBefore('older', 'row')}
          AND ${sameNumberOrSim('older', 'row')})
      ORDER BY "row"."createdAt" ASC, "row"."id" ASC LIMIT ${limit}`;
    return rows.map((row) => row.id);
  }

  /** The writes waiting behind an older one on their line (wait-count.ts). */
  waits(rules: { pendingBefore: Date }, limit: number): Promise<Waits> {
    return countWaits(this.db, rules, limit);
  }
}
