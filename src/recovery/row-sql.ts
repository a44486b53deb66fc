// SQL fragments over transaction rows that recovery's statements share (leases.ts claims and
// lists, wait-count.ts counts): which rows are unresolved, which come before which, which are
// under the same number or SIM, which may be re-sent and which nobody holds.

import { Prisma } from '../generated/sqlite/client.js';
import type { TransactionStatus } from '../pipeline/transaction-log.js';

export const UNRESOLVED = ['pending', 'unknown'] as const satisfies readonly TransactionStatus[];
export const [PENDING, UNKNOWN] = UNRESOLVED;

/** SQL: the row aliased `alias` is a write on one line (src/recovery/line-order.ts, `LineOrder.onLine`). */
export type LineMatch = (alias: string) => Prisma.Sql;

export const column = (alias: string, name: string) => Prisma.raw(`"${alias}"."${name}"`);

/**
 * SQL: the row `row` is an unresolved write made before the row `than` (by `createdAt`, then
 * `id`: one total order, so two rows never wait for each other). Any such row counts, whoever
 * holds it and whenever it is due: one whose request may still be running, one backing off.
 */
export const unresolvedBefore = (row: string, than: string) => Prisma.sql`
  ${column(row, 'status')} IN (${PENDING}, ${UNKNOWN}) AND ${column(row, 'request')} IS NOT NULL
  AND (${column(row, 'createdAt')} < ${column(than, 'createdAt')}
    OR (${column(row, 'createdAt')} = ${column(than, 'createdAt')} AND ${column(row, 'id')} < ${column(than, 'id')}))`;

/**
 * SQL: the rows `row` and `than` are under the same number or the same SIM: the line as one
 * statement can see it for every row at once, without the history `LineOrder` reads row by row
 * (a row waiting only through an MDN swap or a field of its stored request is not matched here;
 * its claim still waits).
 */
export const sameNumberOrSim = (row: string, than: string) =>
  Prisma.sql`(${column(row, 'mdn')} = ${column(than, 'mdn')} OR ${column(row, 'sim')} = ${column(than, 'sim')})`;

/**
 * SQL: the row aliased `alias` is one recovery may re-send (unresolved, with its stored
 * request; `pending` only once its own request cannot still be running), whatever its lease.
 */
export function resendable(alias: string, rules: { pendingBefore: Date }) {
  return Prisma.sql`${column(alias, 'request')} IS NOT NULL AND (${column(alias, 'status')} = ${UNKNOWN}
    OR (${column(alias, 'status')} = ${PENDING} AND ${column(alias, 'createdAt')} < ${rules.pendingBefore}))`;
}

/** SQL: nobody holds the row aliased `alias`, nor is it backing off. */
export function leaseFree(alias: string, now: Date) {
  // A lease until T is over at T: the re-send scheduled for T may claim its row then.
  return Prisma.sql`(${column(alias, 'leaseUntil')} IS NULL OR ${column(alias, 'leaseUntil')} <= ${now})`;
}
