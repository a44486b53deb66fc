// Giving up a write whose outcome was lost: an operator's decision (`abandonTransaction`, or
// `npm run admin -- recovery abandon`). Recovery re-sends such a write until the carrier answers,
// and the younger writes on its line wait for it (line-order.ts), so a write that can never go
// through (its plan or user gone for good, a carrier retired) would hold its line's writes for
// ever. Whoever abandons it has checked the line at the carrier first: the write may have landed
// there, which the gateway cannot know. The row turns `abandoned` (its stored request dropped, so
// nothing re-sends it), what follows the operation's outcome follows it (a bulk job's entry
// becomes a failure), and the writes that waited for it on its line are due at once.

import { DirectoryError } from '../directory/types.js';
import { NotFoundError } from '../errors/gateway-errors.js';
import { quote } from '../lib/quote.js';
import type { AbandonedWrite } from '../pipeline/services.js';
import { TransactionLog, type TransactionRecord } from '../pipeline/transaction-log.js';
import type { RecoveryLeases } from './leases.js';
import type { LineOrder } from './line-order.js';
import type { OutcomeFollowers } from './record-recovered.js';

export interface AbandonDeps {
  leases: RecoveryLeases;
  order: LineOrder;
  followers: OutcomeFollowers;
}

export interface AbandonRequest {
  id: string;
  /** Why, in the operator's words: stored in the row's answer, which its user reads. */
  reason: string;
  /** A `pending` row younger than this may still be in its own request (recovery's rule). */
  pendingAfterMs: number;
  /** How many of the writes that waited for it are made due at once (the rest follow them). */
  wakeLimit: number;
  /** Check and answer as the real call would, changing nothing (a dry run). */
  dryRun?: boolean;
}

/** A write that cannot be abandoned now (resolved, or possibly still on its way to the carrier): 409 CONFLICT, as management refusals are. */
const refused = (message: string) => new DirectoryError('conflict', message);

const lost = (row: TransactionRecord) => row.status === 'pending' || row.status === 'unknown';

export async function abandonWrite(deps: AbandonDeps, request: AbandonRequest): Promise<AbandonedWrite> {
  const { id, reason } = request;
  const transactions = new TransactionLog(deps.leases.db);
  const row = await transactions.find(id);
  if (!row) throw new NotFoundError(`Transaction ${quote(id)} not found`);
  if (!lost(row))
    throw refused(
      `Transaction ${quote(id)} is ${row.status}: only a lost outcome (unknown, or pending after a crash) can be abandoned`,
    );
  const pendingBefore = new Date(Date.now() - request.pendingAfterMs);
  if (row.status === 'pending' && row.createdAt >= pendingBefore) {
    const after = new Date(row.createdAt.getTime() + request.pendingAfterMs).toISOString();
    throw refused(
      `Transaction ${quote(id)} is pending: its own request may still be running; it can be abandoned after ${after} if it is still pending then`,
    );
  }
  const response = {
    status: 'abandoned',
    transaction_id: id,
    message: 'Abandoned by an operator: its outcome at the carrier was never learned, and it is not re-sent',
    reason,
  };
  // Its line as recovery sees it (from the stored request, read before the row drops it).
  const keys = await deps.order.after(row, undefined);
  const line = (alias: string) => deps.order.onLine(alias, keys);
  if (request.dryRun) {
    const now = new Date();
    const preview = { ...row, status: 'abandoned' as const, response, request: null, resolvedAt: now, updatedAt: now };
    return { transaction: preview, released: await deps.leases.next(id, line, { pendingBefore }, request.wakeLimit) };
  }
  const follower = deps.followers[row.operation];
  const abandoned = await deps.leases.abandon(
    id,
    response,
    { pendingBefore },
    follower && ((tx, resolvedAt) => follower(tx, row, { id, status: 'abandoned', response, resolvedAt })),
  );
  if (!abandoned) {
    const now = await transactions.find(id);
    throw refused(
      now && lost(now)
        ? `Transaction ${quote(id)} is being re-sent right now: the carrier's answer, if it gives one, will be recorded; try again once that attempt is over`
        : `Transaction ${quote(id)} was resolved meanwhile (${now?.status ?? 'gone'})`,
    );
  }
  const released = await deps.leases.wake(id, line, { pendingBefore }, request.wakeLimit);
  return { transaction: (await transactions.find(id)) ?? row, released };
}
