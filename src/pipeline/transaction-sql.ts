// A bulk activation job's batched writes as single SQL statements, on SQLite. Prisma's model API
// costs ~0.5 ms of CPU per row written (a createMany of four rows as much as four creates), the
// same rows as one raw INSERT ~0.08 ms; and Prisma 7 never caches the query plan of a createMany
// (nor of a batch that mixes raw and model statements), so each one also runs its WebAssembly
// query compiler. Raw statements skip the compiler entirely. The statements write exactly the
// columns Prisma would (its DateTime is ISO text on SQLite, a Boolean 0/1); PostgreSQL keeps
// the model API (its tables are schema-qualified by Prisma, not by these). The transaction
// log's statements (reservations, completions, events, the lines' owners and SIMs read) and the new lines are
// plain statements for the driver adapter (src/db/sqlite-driver.ts: they skip the client too);
// the item rows are written inside the client's own transactions, so they stay client statements.

import { Prisma } from '../generated/sqlite/client.js';
import type { Database } from '../db/client.js';
import { placeholders, type SqlStatement } from '../db/sqlite-driver.js';
import type { outboxRow } from './line-events.js';
import type { completedRow, reservedRow } from './transaction-log.js';

type Statement = Prisma.PrismaPromise<number>;

/** One INSERT of every reserved row. */
export function insertReservations(rows: readonly ReturnType<typeof reservedRow>[]): SqlStatement {
  const now = new Date();
  return {
    sql: `INSERT INTO "Transaction" ("id", "userId", "operation", "carrier", "mdn", "sim", "status", "request", "createdAt", "updatedAt", "attempts") VALUES ${placeholders(rows.length, 11)}`,
    args: rows.flatMap((row) => [
      row.id,
      row.userId,
      row.operation,
      row.carrier,
      row.mdn,
      row.sim,
      row.status,
      row.request,
      now,
      now,
      0,
    ]),
  };
}

/**
 * One UPDATE of every completed row (joined to its new values by id), RETURNING the ids it found.
 * Each row gets exactly what a lone update would give it: its status, HTTP status and response;
 * its stored request dropped unless the outcome is unknown; its MDN set when the answer named one;
 * whether it is known to have had no effect at the carrier.
 */
export function updateCompletions(rows: readonly { id: string; row: ReturnType<typeof completedRow> }[]): SqlStatement {
  // SQLite names a VALUES list's columns column1, column2, … in order.
  return {
    sql: `UPDATE "Transaction" SET "status" = v.column2, "httpStatus" = v.column3, "response" = v.column4, "request" = CASE WHEN v.column5 = 1 THEN "Transaction"."request" ELSE NULL END, "mdn" = COALESCE(v.column6, "Transaction"."mdn"), "noEffect" = v.column7, "updatedAt" = ? FROM (VALUES ${placeholders(rows.length, 7)}) AS v WHERE "Transaction"."id" = v.column1 RETURNING "Transaction"."id" AS "id"`,
    args: [
      new Date(),
      ...rows.flatMap(({ id, row }) => [
        id,
        row.status,
        row.httpStatus,
        row.response,
        'request' in row ? 0 : 1,
        'mdn' in row ? (row.mdn ?? null) : null,
        row.noEffect ? 1 : 0,
      ]),
    ],
  };
}

/** One INSERT of every line event, in order (their `seq` is the relay's order). */
export function insertEvents(rows: readonly ReturnType<typeof outboxRow>[]): SqlStatement {
  const now = new Date();
  return {
    sql: `INSERT INTO "LineEvent" ("id", "type", "mdn", "sim", "carrier", "ownerId", "transactionId", "actorId", "data", "standalone", "occurredAt", "published") VALUES ${placeholders(rows.length, 12)}`,
    args: rows.flatMap((row) => [
      row.id,
      row.type,
      row.mdn,
      row.sim,
      row.carrier,
      row.ownerId,
      row.transactionId,
      row.actorId,
      row.data,
      row.standalone ? 1 : 0,
      now,
      0,
    ]),
  };
}

/** The owners and SIMs of these lines: rows of [mdn, ownerId, sim]. */
export function registeredLines(mdns: readonly string[]): SqlStatement {
  const list = mdns.map(() => '?').join(', ');
  return { sql: `SELECT "mdn", "ownerId", "sim" FROM "Line" WHERE "mdn" IN (${list})`, args: mdns };
}

/** One INSERT of new lines (refused as a whole when one of them exists). */
export function insertLines(
  rows: readonly { mdn: string; sim: string; carrier: string; status: string; ownerId: string | null }[],
): SqlStatement {
  const now = new Date();
  return {
    sql: `INSERT INTO "Line" ("mdn", "sim", "carrier", "status", "ownerId", "updatedAt") VALUES ${placeholders(rows.length, 6)}`,
    args: rows.flatMap((row) => [row.mdn, row.sim, row.carrier, row.status, row.ownerId, now]),
  };
}

/** Which of these lines exist: rows of [mdn]. */
export function existingLines(mdns: readonly string[]): SqlStatement {
  const list = mdns.map(() => '?').join(', ');
  return { sql: `SELECT "mdn" FROM "Line" WHERE "mdn" IN (${list})`, args: mdns };
}

/** One INSERT of bulk activation items (their outcome rows, written anew). */
export function insertItems(
  db: Pick<Database, '$executeRaw'>,
  rows: readonly {
    jobId: string;
    position: number;
    sim: string;
    transactionId: string;
    status: string;
    result: string | null;
    input: string | null;
  }[],
): Statement {
  const values = rows.map(
    (row) =>
      Prisma.sql`(${row.jobId}, ${row.position}, ${row.sim}, ${row.input}, ${row.transactionId}, ${row.status}, ${row.result})`,
  );
  return db.$executeRaw`INSERT INTO "BulkActivationItem" ("jobId", "position", "sim", "input", "transactionId", "status", "result") VALUES ${Prisma.join(values)}`;
}
