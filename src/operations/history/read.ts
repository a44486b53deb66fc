// Reads a page of a line's history: the transactions naming the MDN (the audit log), each with
// the line event its success wrote, and the line's events that no transaction of this line
// carries (an MDN swap's event is the new number's), merged newest first after a cursor's
// position, limited to the users whose requests the caller may see. Only what an entry shows is
// read: never the stored request (addresses, emails), and of the stored answer only its status
// line (message and code).
//
// Order: newest first by time; at the same millisecond events before transactions, then by id
// descending. Each kind is read `first + 1` deep from the cursor, which is enough to fill the
// merged page and to know whether another follows.

import type { Database } from '../../db/client.js';
import type { CarrierId } from '../../carriers/types.js';
import { wasRecovered, type TransactionStatus } from '../../pipeline/transaction-log.js';
import { encodeCursor, type HistoryKind, type HistoryPosition } from './cursor.js';
import type { HistoryEntry, LineHistoryResult } from './schemas.js';

export interface HistoryQuery {
  mdn: string;
  first: number;
  after?: HistoryPosition;
  /** Whose transactions are shown; null: everyone's. */
  userIds: readonly string[] | null;
}

interface Positioned {
  at: Date;
  kind: HistoryKind;
  id: string;
  node: HistoryEntry;
}

type HistoryEvent = NonNullable<HistoryEntry['event']>;

/** The order of a history: newest first; at one millisecond events first; then id descending. */
function newestFirst(a: Positioned, b: Positioned): number {
  const byTime = b.at.getTime() - a.at.getTime();
  if (byTime !== 0) return byTime;
  if (a.kind !== b.kind) return a.kind === 'event' ? -1 : 1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

export async function readLineHistory(db: Database, query: HistoryQuery): Promise<LineHistoryResult> {
  const [transactions, events] = await Promise.all([readTransactions(db, query), readLoneEvents(db, query)]);
  const merged = [...transactions, ...events].sort(newestFirst);
  const page = merged.slice(0, query.first);
  const edges = page.map((entry) => ({ cursor: encodeCursor(entry), node: entry.node }));
  return {
    mdn: query.mdn,
    edges,
    pageInfo: {
      hasNextPage: merged.length > query.first,
      endCursor: edges.at(-1)?.cursor ?? null,
      hasPreviousPage: query.after !== undefined,
      startCursor: edges[0]?.cursor ?? null,
    },
  };
}

/** Transactions after the cursor, `first + 1` of them, each with the event it wrote. */
async function readTransactions(db: Database, query: HistoryQuery): Promise<Positioned[]> {
  const { after } = query;
  // Strictly after the cursor's entry in history order: rows added since (newer) never shift a
  // page. Past an event, the transactions of its very millisecond still follow.
  const older = !after
    ? {}
    : after.kind === 'event'
      ? { createdAt: { lte: after.at } }
      : { OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }] };
  const rows = await db.transaction.findMany({
    where: { mdn: query.mdn, ...(query.userIds ? { userId: { in: [...query.userIds] } } : {}), ...older },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: query.first + 1,
    select: {
      id: true,
      userId: true,
      operation: true,
      carrier: true,
      sim: true,
      status: true,
      httpStatus: true,
      response: true,
      createdAt: true,
      resolvedAt: true,
    },
  });
  const [users, written] = await Promise.all([
    db.user.findMany({
      where: { id: { in: [...new Set(rows.map((row) => row.userId))] } },
      select: { id: true, name: true },
    }),
    db.lineEvent.findMany({ where: { transactionId: { in: rows.map((row) => row.id) } } }),
  ]);
  const names = new Map(users.map((user) => [user.id, user.name]));
  const eventOf = new Map(written.map((event) => [event.transactionId, historyEvent(event)]));
  return rows.map((row) => {
    const outcome = outcomeOf(row.response);
    const node: HistoryEntry = {
      kind: 'transaction',
      at: row.createdAt.toISOString(),
      carrier: row.carrier as CarrierId | null,
      sim: row.sim,
      transaction: {
        id: row.id,
        operation: row.operation,
        user: { id: row.userId, name: names.get(row.userId) ?? null },
        status: row.status as TransactionStatus,
        httpStatus: row.httpStatus,
        answerMessage: outcome.message,
        errorCode: outcome.errorCode,
        recovered: wasRecovered(row),
      },
      event: eventOf.get(row.id) ?? null,
    };
    return { at: row.createdAt, kind: 'transaction', id: row.id, node };
  });
}

/** The line's standalone events after the cursor (no transaction of this line carries them). */
async function readLoneEvents(db: Database, query: HistoryQuery): Promise<Positioned[]> {
  const { after } = query;
  const older = !after
    ? {}
    : after.kind === 'event'
      ? { OR: [{ occurredAt: { lt: after.at } }, { occurredAt: after.at, id: { lt: after.id } }] }
      : { occurredAt: { lt: after.at } };
  const events = await db.lineEvent.findMany({
    where: {
      mdn: query.mdn,
      standalone: true,
      ...(query.userIds ? { actorId: { in: [...query.userIds] } } : {}),
      ...older,
    },
    orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }],
    take: query.first + 1,
  });
  return events.map((event) => {
    const node: HistoryEntry = {
      kind: 'event',
      at: event.occurredAt.toISOString(),
      carrier: event.carrier as CarrierId | null,
      sim: event.sim,
      transaction: null,
      event: historyEvent(event),
    };
    return { at: event.occurredAt, kind: 'event', id: event.id, node };
  });
}

function historyEvent(row: {
  id: string;
  type: string;
  transactionId: string | null;
  occurredAt: Date;
  data: string;
}): HistoryEvent {
  let data: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(row.data);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      data = parsed as Record<string, unknown>;
  } catch {
    // An unreadable payload shows as empty rather than failing the page.
  }
  return {
    id: row.id,
    type: row.type,
    transactionId: row.transactionId,
    occurredAt: row.occurredAt.toISOString(),
    data,
  };
}

/**
 * The status line of a stored answer (REST's snake_case body): its `message` (or `detail` for
 * the gateway's own refusals), and the code a carrier refusal ends its message with, else the
 * gateway's `code` (HTTP_409…); a carrier fault ends its message with CARRIER_TIMEOUT or CARRIER_UNAVAILABLE. Nothing else of the answer is shown.
 */
function outcomeOf(response: string | null): { message: string | null; errorCode: string | null } {
  if (response === null) return { message: null, errorCode: null };
  let body: unknown;
  try {
    body = JSON.parse(response);
  } catch {
    return { message: null, errorCode: null };
  }
  if (typeof body !== 'object' || body === null) return { message: null, errorCode: null };
  const fields = body as Record<string, unknown>;
  const message =
    typeof fields.message === 'string' ? fields.message : typeof fields.detail === 'string' ? fields.detail : null;
  const carrierCode = message === null ? undefined : /\(([A-Za-z0-9_-]+)\)$/.exec(message)?.[1];
  const errorCode = carrierCode ?? (typeof fields.code === 'string' ? fields.code : null);
  return { message, errorCode };
}
