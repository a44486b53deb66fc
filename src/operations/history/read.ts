// Reads a page of a line's history from the transactions table (the audit log): the rows
// naming the MDN, newest first, after a cursor's position, limited to the users whose rows the
// caller may see. Only what an entry shows is read: never the stored request (addresses,
// emails), and of the stored answer only its status line (message and code).

import type { Database } from '../../db/client.js';
import type { CarrierId } from '../../carriers/types.js';
import type { TransactionStatus } from '../../pipeline/transaction-log.js';
import { encodeCursor, type HistoryPosition } from './cursor.js';
import type { HistoryEntry, LineHistoryResult } from './schemas.js';

export interface HistoryQuery {
  mdn: string;
  first: number;
  after?: HistoryPosition;
  /** Whose transactions are shown; null: everyone's. */
  userIds: readonly string[] | null;
}

export async function readLineHistory(db: Database, query: HistoryQuery): Promise<LineHistoryResult> {
  const { after } = query;
  const rows = await db.transaction.findMany({
    where: {
      mdn: query.mdn,
      ...(query.userIds ? { userId: { in: [...query.userIds] } } : {}),
      // Strictly older than the cursor's entry in (createdAt, id) order: rows added since
      // (newer) never shift a page.
      ...(after ? { OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }] } : {}),
    },
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
  const page = rows.slice(0, query.first);
  const users = await db.user.findMany({
    where: { id: { in: [...new Set(page.map((row) => row.userId))] } },
    select: { id: true, name: true },
  });
  const names = new Map(users.map((user) => [user.id, user.name]));
  const edges = page.map((row) => {
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
        recovered: row.resolvedAt !== null,
      },
    };
    return { cursor: encodeCursor({ at: row.createdAt, kind: 'transaction', id: row.id }), node };
  });
  return {
    mdn: query.mdn,
    edges,
    pageInfo: {
      hasNextPage: rows.length > query.first,
      endCursor: edges.at(-1)?.cursor ?? null,
      hasPreviousPage: after !== undefined,
      startCursor: edges[0]?.cursor ?? null,
    },
  };
}

/**
 * The status line of a stored answer (REST's snake_case body): its `message` (or `detail` for
 * the gateway's own refusals), and the code a carrier refusal ends its message with, else the
 * gateway's `code` (HTTP_504…). Nothing else of the answer is shown.
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
  const carrierCode = message === null ? undefined : /\(([A-Za-z0-9-]+)\)$/.exec(message)?.[1];
  const errorCode = carrierCode ?? (typeof fields.code === 'string' ? fields.code : null);
  return { message, errorCode };
}
