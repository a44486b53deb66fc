// The transaction log with group commit, for requests and bulk jobs' SIMs alike: reservations
// that arrive while one is being written go together in the next single INSERT, completions in
// the next single database transaction (a lone one is written at once). Every caller's promise
// settles only once its own row has committed, so what TransactionLog guarantees still holds to
// the letter: an id is durably reserved before its carrier call, and an answer (with its line
// event) is recorded before the caller goes on. A crash loses nothing that a lone write would not.

import type { Database } from '../db/client.js';
import type { SqliteDriver } from '../db/sqlite-driver.js';
import { eachAlone, GroupCommit, type Waiting } from '../lib/group-commit.js';
import { outboxRow, type RegisteredLine } from './line-events.js';
import { insertEvents, insertReservations, registeredLines, updateCompletions } from './transaction-sql.js';
import {
  completedRow,
  reservedRow,
  TransactionLog,
  type CompletionLines,
  type Reservation,
  type TransactionStatus,
} from './transaction-log.js';

interface Completion extends CompletionLines {
  id: string;
  status: TransactionStatus;
  httpStatus: number;
  response: unknown;
}

export class GroupCommitTransactionLog extends TransactionLog {
  constructor(
    db: Database,
    eventWritten: () => void,
    /** Write each batch as single SQL statements through the driver (SQLite; see transaction-sql.ts). */
    private readonly sql: SqliteDriver | null,
  ) {
    super(db, eventWritten);
  }

  private readonly reservations = new GroupCommit<Reservation>((batch) => this.reserveAll(batch));
  private readonly completions = new GroupCommit<Completion>((batch) => this.completeAll(batch));

  override reserve(entry: Reservation): Promise<void> {
    return this.reservations.add(entry);
  }

  override complete(
    id: string,
    status: TransactionStatus,
    httpStatus: number,
    response: unknown,
    lines: CompletionLines = {},
  ): Promise<void> {
    return this.completions.add({ id, status, httpStatus, response, ...lines });
  }

  /**
   * Whether a batch goes through the batch path: always on SQLite, where one SIM's SQL statement
   * is still far cheaper than the model API's (about half of a job's group commits held one SIM);
   * elsewhere only when it holds several.
   */
  private batched(batch: readonly unknown[]): boolean {
    return this.sql !== null || batch.length > 1;
  }

  private async reserveAll(batch: readonly Waiting<Reservation>[]): Promise<void> {
    if (this.batched(batch)) {
      try {
        const rows = batch.map(({ item }) => reservedRow(item));
        await (this.sql
          ? this.sql.transaction([insertReservations(rows)])
          : this.db.transaction.createMany({ data: rows }));
        return batch.forEach((waiting) => waiting.resolve());
      } catch {
        // One INSERT, refused as a whole (nothing written) when an id is taken: each alone tells
        // which one it was, as a lone reservation would.
      }
    }
    await eachAlone(batch, (item) => super.reserve(item));
  }

  private async completeAll(batch: readonly Waiting<Completion>[]): Promise<void> {
    if (this.batched(batch)) {
      let missing: Set<string> | null = null;
      try {
        missing = await this.writeCompletions(batch.map(({ item }) => item));
      } catch {
        // Rolled back as a whole: each alone below, so that one failure stays its own.
      }
      if (missing) {
        for (const waiting of batch) {
          // Never reserved: a lone `update` would have refused it too.
          if (missing.has(waiting.item.id))
            waiting.reject(new Error(`transaction ${waiting.item.id} was not reserved`));
          else waiting.resolve();
        }
        return;
      }
    }
    await eachAlone(batch, ({ id, status, httpStatus, response, ...lines }) =>
      super.complete(id, status, httpStatus, response, lines),
    );
  }

  /**
   * Every completion and the events of the successes in one transaction (one read of their lines first).
   * Throws when it wrote nothing; answers the ids it found no row for.
   */
  private async writeCompletions(completions: readonly Completion[]): Promise<Set<string>> {
    const events = completions.flatMap((completion) =>
      completion.event && completion.status === 'success' ? [{ ...completion, event: completion.event }] : [],
    );
    const registered = new Map<string, RegisteredLine>();
    if (events.length > 0) {
      // The handlers recorded their lines (owners, SIMs) before their answers came back here.
      const mdns = [...new Set(events.map(({ event }) => event.mdn))];
      const lines = this.sql
        ? (await this.sql.query(registeredLines(mdns))).map(([mdn, ownerId, sim]) => ({
            mdn: String(mdn),
            ownerId: typeof ownerId === 'string' ? ownerId : null,
            sim: String(sim),
          }))
        : await this.db.line.findMany({
            where: { mdn: { in: mdns } },
            select: { mdn: true, ownerId: true, sim: true },
          });
      for (const { mdn, ownerId, sim } of lines) registered.set(mdn, { ownerId, sim });
    }
    const eventRows = events.map(({ event, namedLine, answeredLine }) =>
      outboxRow(event, registered.get(event.mdn) ?? null, namedLine ?? answeredLine ?? null),
    );
    const rows = completions.map(({ id, status, httpStatus, response, answeredLine, noEffect }) => ({
      id,
      row: completedRow(status, httpStatus, response, answeredLine, noEffect),
    }));
    let updated: Set<string>;
    if (this.sql) {
      // One UPDATE for the batch (ids are unique within it: a job that repeats one runs its SIMs
      // one at a time), then the events, in one transaction.
      const [found = []] = await this.sql.transaction([
        updateCompletions(rows),
        ...(eventRows.length === 0 ? [] : [insertEvents(eventRows)]),
      ]);
      updated = new Set(found.map(([id]) => String(id)));
    } else {
      const insert = eventRows.length === 0 ? [] : [this.db.lineEvent.createMany({ data: eventRows })];
      const updates = rows.map(({ id, row }) => this.db.transaction.updateMany({ where: { id }, data: row }));
      const results = await this.db.$transaction([...updates, ...insert]);
      updated = new Set(rows.filter((_, index) => (results[index] as { count: number }).count > 0).map(({ id }) => id));
    }
    if (events.length > 0) this.eventWritten();
    return new Set(rows.filter(({ id }) => !updated.has(id)).map(({ id }) => id));
  }
}
