// The transactions table as idempotency record and audit log: a transaction id is reserved
// (a unique insert, so two racing requests cannot both win) before the carrier is called,
// and completed with the answer the caller got, whatever it was. A row whose request had no
// effect at the carrier may be taken over by its retry (`retake`), counted, not erased.

import { randomHex } from '../lib/random-hex.js';
import type { Database } from '../db/client.js';
import { isUniqueViolation } from '../db/errors.js';
import { DuplicateTransactionError } from '../errors/gateway-errors.js';
import { outboxRow, type LineEventDraft } from './line-events.js';

/**
 * `superseded`: a lost outcome (`unknown`, `pending`) the reconciler did not re-send because a
 * later write of the same kind on the same line had succeeded (src/recovery/supersede.ts).
 * `abandoned`: a lost outcome an operator gave up (src/recovery/abandon.ts), never learned.
 * Terminal, like success, failure and error; only pending and unknown are ever re-sent.
 */
export const TRANSACTION_STATUSES = [
  'pending',
  'success',
  'failure',
  'unknown',
  'error',
  'superseded',
  'abandoned',
] as const;

export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export interface TransactionRecord {
  id: string;
  userId: string;
  operation: string;
  carrier: string | null;
  mdn: string | null;
  sim: string | null;
  status: TransactionStatus;
  httpStatus: number | null;
  response: unknown;
  /** The validated input, for the reconciler (null on rows that cannot be re-sent). */
  request: unknown;
  /** Re-sends made by the reconciler. */
  attempts: number;
  /** When the gateway resolved the lost outcome (learned, superseded or abandoned); null when the caller's request did. */
  resolvedAt: Date | null;
  /** Known to have changed nothing at the carrier (see `mayRetake`). */
  noEffect: boolean;
  /** Earlier requests under this id that had no effect, each taken over by the next. */
  earlierAttempts: number;
  /** When the first of them arrived; null when there was none. */
  firstAttemptAt: Date | null;
  /** When the request whose outcome the row holds arrived (a retry that took the row over: its own). */
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Whether the outcome was learned by re-sending the write. A superseded or abandoned row was
 * resolved without one: it has no outcome to show.
 */
export const wasRecovered = (row: { status: string; resolvedAt: Date | null }): boolean =>
  row.resolvedAt !== null && row.status !== 'superseded' && row.status !== 'abandoned';

/** The operation's prefix followed by 12 uppercase hexadecimal characters. */
export function generateTransactionId(prefix: string): string {
  return prefix + randomHex(6).toUpperCase();
}

/** A transaction id to reserve; `request` (the validated input) lets the reconciler re-send the write. */
export interface Reservation {
  id: string;
  userId: string;
  operation: string;
  carrier: string | null;
  mdn?: string;
  sim?: string;
  request?: unknown;
}

/** The lines a completion names (see TransactionLog.complete), the event a success writes, and what it knows of the carrier. */
export interface CompletionLines {
  namedLine?: string;
  answeredLine?: string;
  event?: LineEventDraft | null;
  /**
   * The request is known to have changed nothing at the carrier (an `error` whose write never
   * reached it, or which it turned away before acting): its id may be taken over by a retry.
   */
  noEffect?: boolean;
}

/** Who may take a row over: the request retrying under its id. */
export interface Retake {
  userId: string;
  operation: string;
}

/**
 * Whether a retry may take the row over: only the same user's, of the same operation, and only
 * after an outcome known to have changed nothing at the carrier. Everything else (a success, a
 * carrier refusal, a write in flight, one that may have been delivered, a superseded one) keeps
 * its id for good: repeating it is a duplicate.
 */
export const mayRetake = (
  row: Pick<TransactionRecord, 'userId' | 'operation' | 'status' | 'noEffect'>,
  retry: Retake,
): boolean =>
  row.status === 'error' && row.noEffect && row.userId === retry.userId && row.operation === retry.operation;

export function reservedRow(entry: Reservation) {
  return {
    id: entry.id,
    userId: entry.userId,
    operation: entry.operation,
    carrier: entry.carrier,
    mdn: entry.mdn ?? null,
    sim: entry.sim ?? null,
    status: 'pending',
    request: entry.request === undefined ? null : JSON.stringify(entry.request),
  };
}

export function completedRow(
  status: TransactionStatus,
  httpStatus: number,
  response: unknown,
  answeredLine?: string,
  noEffect = false,
) {
  return {
    status,
    httpStatus,
    response: JSON.stringify(response),
    // Only an `error` can have had no effect: a success or a refusal is the carrier's answer,
    // and an unknown outcome may have reached it.
    noEffect: status === 'error' && noEffect,
    // The stored input (addresses, emails) is kept only while the reconciler may need it.
    ...(status === 'unknown' ? {} : { request: null }),
    ...(answeredLine ? { mdn: answeredLine } : {}),
  };
}

export class TransactionLog {
  constructor(
    protected readonly db: Database,
    /** Told after a line event commits (the relay publishes it at once instead of at its next poll). */
    protected readonly eventWritten: () => void = () => {},
  ) {}

  async reserve(entry: Reservation): Promise<void> {
    try {
      await this.db.transaction.create({ data: reservedRow(entry) });
    } catch (error) {
      if (isUniqueViolation(error)) throw new DuplicateTransactionError(entry.id);
      throw error;
    }
  }

  /**
   * Reserves the id, or takes it over for a retry of a request that had no effect at the carrier
   * (`retake`); otherwise the id is a duplicate (409), whoever used it. The retake is tried only
   * once the insert has been refused, so a fresh id costs what it always did (and goes through a
   * subclass's batched `reserve`); every refusal is the same 409, so no other user learns more
   * than that the id is used.
   */
  async reserveOrRetake(entry: Reservation): Promise<'reserved' | 'retaken'> {
    try {
      await this.reserve(entry);
      return 'reserved';
    } catch (error) {
      if (error instanceof DuplicateTransactionError && (await this.retake(entry))) return 'retaken';
      throw error;
    }
  }

  /**
   * Takes the used id of `entry` over for the request retrying it, when `mayRetake` allows: one
   * conditional UPDATE back to `pending` with the retry's input, so that of two racing retries
   * exactly one gets the row (the other's UPDATE finds it pending) and no other user's request
   * can ever match. Answers whether it did. The earlier attempt is counted (`earlierAttempts`)
   * and the first one's arrival kept (`firstAttemptAt`); `createdAt` becomes the retry's, since
   * the reconciler's age of a pending row, supersession ("a write recorded after it") and a
   * line's history all order writes by when they were made, and this one is made now.
   */
  async retake(entry: Reservation): Promise<boolean> {
    const row = reservedRow(entry);
    const now = new Date();
    const [pending, error]: TransactionStatus[] = ['pending', 'error'];
    const count = await this.db.$executeRaw`
      UPDATE "Transaction" SET "status" = ${pending}, "carrier" = ${row.carrier}, "mdn" = ${row.mdn},
        "sim" = ${row.sim}, "request" = ${row.request}, "httpStatus" = NULL, "response" = NULL,
        "noEffect" = false, "earlierAttempts" = "earlierAttempts" + 1,
        "firstAttemptAt" = COALESCE("firstAttemptAt", "createdAt"), "createdAt" = ${now}, "updatedAt" = ${now},
        "resolvedAt" = NULL, "leaseUntil" = NULL, "leaseOwner" = NULL
      WHERE "id" = ${entry.id} AND "userId" = ${entry.userId} AND "operation" = ${entry.operation}
        AND "status" = ${error} AND "noEffect" = true`;
    return count === 1;
  }

  /**
   * Records the answer. `namedLine`: the line the request named, under which the row was
   * reserved; `answeredLine`: the line the answer names when the request named none (an
   * activation's new MDN), recorded for its history. A successful write's line event (`event`) goes
   * to the outbox in the same database transaction, so the change and its event commit
   * together or not at all.
   */
  async complete(
    id: string,
    status: TransactionStatus,
    httpStatus: number,
    response: unknown,
    { namedLine, answeredLine, event = null, noEffect }: CompletionLines = {},
  ): Promise<void> {
    const update = this.db.transaction.update({
      where: { id },
      data: completedRow(status, httpStatus, response, answeredLine, noEffect),
    });
    if (!event || status !== 'success') {
      await update;
      return;
    }
    // The handler recorded the line (its owner, its SIM) before the answer came back here.
    const line = await this.db.line.findUnique({ where: { mdn: event.mdn }, select: { ownerId: true, sim: true } });
    await this.db.$transaction([
      update,
      this.db.lineEvent.create({ data: outboxRow(event, line, namedLine ?? answeredLine ?? null) }),
    ]);
    this.eventWritten();
  }

  async find(id: string): Promise<TransactionRecord | null> {
    const row = await this.db.transaction.findUnique({ where: { id } });
    if (!row) return null;
    const parse = (text: string | null): unknown => (text === null ? null : (JSON.parse(text) as unknown));
    return {
      id: row.id,
      userId: row.userId,
      operation: row.operation,
      carrier: row.carrier,
      mdn: row.mdn,
      sim: row.sim,
      status: row.status as TransactionStatus,
      httpStatus: row.httpStatus,
      response: parse(row.response),
      request: parse(row.request),
      attempts: row.attempts,
      resolvedAt: row.resolvedAt,
      noEffect: row.noEffect,
      earlierAttempts: row.earlierAttempts,
      firstAttemptAt: row.firstAttemptAt,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }
}
