// The reconciler's claims on transaction rows. A claim is one conditional UPDATE (status still
// unresolved, lease free or expired), so on SQLite and PostgreSQL alike only one replica can
// hold a row at a time; the lease also serves as the retry schedule (a row released after a
// fault stays leased, by nobody, until its backoff has passed).

import type { Database } from '../db/client.js';
import { outboxRow, type LineEventDraft } from '../pipeline/line-events.js';
import type { TransactionStatus } from '../pipeline/transaction-log.js';

const UNRESOLVED: TransactionStatus[] = ['pending', 'unknown'];

export interface ClaimRules {
  /** How long the claimant may work on the row before another replica may take it over. */
  leaseMs: number;
  /** `pending` rows younger than this may still be in their own request: left alone. */
  pendingBefore: Date;
}

export class RecoveryLeases {
  constructor(
    private readonly db: Database,
    /** This replica's name on the rows it holds. */
    readonly owner: string,
  ) {}

  private unresolved(rules: { pendingBefore: Date }, now: Date) {
    return {
      request: { not: null },
      OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }],
      AND: [{ OR: [{ status: 'unknown' }, { status: 'pending', createdAt: { lt: rules.pendingBefore } }] }],
    };
  }

  /** Takes the row for `leaseMs` and counts the attempt; false when it is not (or no longer) ours to take. */
  async claim(id: string, rules: ClaimRules): Promise<boolean> {
    const now = new Date();
    const { count } = await this.db.transaction.updateMany({
      where: { id, ...this.unresolved(rules, now) },
      data: { leaseUntil: new Date(now.getTime() + rules.leaseMs), leaseOwner: this.owner, attempts: { increment: 1 } },
    });
    return count === 1;
  }

  /**
   * Records the outcome, if the row is still ours and unresolved; a learned success's line
   * event (`event`) is written in the same database transaction, only when the outcome is.
   */
  async resolve(
    id: string,
    status: TransactionStatus,
    httpStatus: number,
    response: unknown,
    event: LineEventDraft | null = null,
  ): Promise<boolean> {
    if (!event || status !== 'success') return this.recordOutcome(this.db, id, status, httpStatus, response);
    return this.db.$transaction(async (tx) => {
      const reserved = await tx.transaction.findUnique({ where: { id }, select: { mdn: true } });
      // An activation was reserved before its line existed: the line its answer names is recorded
      // on the row, as its own request's completion would have done, so the line's history lists
      // the transaction with its event instead of a lone event.
      const answeredLine = reserved?.mdn ? undefined : event.mdn;
      const recorded = await this.recordOutcome(tx, id, status, httpStatus, response, answeredLine);
      if (recorded) {
        const line = await tx.line.findUnique({ where: { mdn: event.mdn }, select: { ownerId: true } });
        const recordedLine = reserved?.mdn ?? answeredLine ?? null;
        await tx.lineEvent.create({ data: outboxRow(event, line?.ownerId ?? null, recordedLine) });
      }
      return recorded;
    });
  }

  private async recordOutcome(
    db: Pick<Database, 'transaction'>,
    id: string,
    status: TransactionStatus,
    httpStatus: number,
    response: unknown,
    answeredLine?: string,
  ): Promise<boolean> {
    const { count } = await db.transaction.updateMany({
      where: { id, leaseOwner: this.owner, status: { in: UNRESOLVED } },
      data: {
        ...(answeredLine ? { mdn: answeredLine } : {}),
        status,
        httpStatus,
        response: JSON.stringify(response),
        resolvedAt: new Date(),
        leaseUntil: null,
        leaseOwner: null,
        request: null,
      },
    });
    return count === 1;
  }

  /** Gives the row back, untouchable by any replica until `retryAt`. */
  async release(id: string, retryAt: Date): Promise<void> {
    await this.db.transaction.updateMany({
      where: { id, leaseOwner: this.owner },
      data: { leaseUntil: retryAt, leaseOwner: null },
    });
  }

  /** Ids of unresolved rows nobody holds, oldest first. */
  async due(rules: { pendingBefore: Date }, limit: number): Promise<string[]> {
    const rows = await this.db.transaction.findMany({
      where: this.unresolved(rules, new Date()),
      select: { id: true },
      orderBy: { createdAt: 'asc' },
      take: limit,
    });
    return rows.map((row) => row.id);
  }
}
