// The transaction log with group commit, for callers that run many writes side by side (a bulk
// activation job's SIMs): reservations that arrive while one is being written go together in the
// next single INSERT, completions in the next single database transaction. Every caller's promise
// settles only once its own row has committed, so what TransactionLog guarantees still holds to
// the letter: an id is durably reserved before its carrier call, and an answer (with its line
// event) is recorded before the caller goes on. A crash loses nothing that a lone write would not.

import { isUniqueViolation } from '../db/errors.js';
import { outboxRow } from './line-events.js';
import {
  completedRow,
  reservedRow,
  TransactionLog,
  type CompletionLines,
  type Reservation,
  type TransactionStatus,
} from './transaction-log.js';

interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Queues items while a write is in flight and writes the queue at once when it ends: no timer,
 * so a lone item is written as soon as it arrives, and batches grow only with concurrency.
 */
class GroupCommit<T> {
  private queue: Waiting<T>[] = [];
  private writing = false;

  constructor(private readonly write: (batch: readonly Waiting<T>[]) => Promise<void>) {}

  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    // One turn of the event loop lets callers that are ready together join the first batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      // `write` settles each item; an error it throws settles those it left (settling twice is a no-op).
      await this.write(batch).catch((error: unknown) => batch.forEach((waiting) => waiting.reject(error)));
    }
    this.writing = false;
  }
}

interface Completion extends CompletionLines {
  id: string;
  status: TransactionStatus;
  httpStatus: number;
  response: unknown;
}

export class GroupCommitTransactionLog extends TransactionLog {
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

  private async reserveAll(batch: readonly Waiting<Reservation>[]): Promise<void> {
    if (batch.length > 1) {
      try {
        await this.db.transaction.createMany({ data: batch.map(({ item }) => reservedRow(item)) });
        return batch.forEach((waiting) => waiting.resolve());
      } catch (error) {
        // A taken id refuses the whole INSERT (nothing written): each alone tells which one it was.
        if (!isUniqueViolation(error)) throw error;
      }
    }
    await this.eachAlone(batch, (item) => super.reserve(item));
  }

  private async completeAll(batch: readonly Waiting<Completion>[]): Promise<void> {
    if (batch.length > 1) {
      try {
        await this.writeCompletions(batch.map(({ item }) => item));
        return batch.forEach((waiting) => waiting.resolve());
      } catch {
        // Rolled back as a whole (a row missing, say): each alone, so that one failure stays its own.
      }
    }
    await this.eachAlone(batch, ({ id, status, httpStatus, response, ...lines }) =>
      super.complete(id, status, httpStatus, response, lines),
    );
  }

  /** Every completion and the events of the successes in one transaction (one owner read first). */
  private async writeCompletions(completions: readonly Completion[]): Promise<void> {
    const events = completions.flatMap((completion) =>
      completion.event && completion.status === 'success' ? [{ ...completion, event: completion.event }] : [],
    );
    const owners = new Map<string, string | null>();
    if (events.length > 0) {
      // The handlers recorded their lines (and owners) before their answers came back here.
      const lines = await this.db.line.findMany({
        where: { mdn: { in: [...new Set(events.map(({ event }) => event.mdn))] } },
        select: { mdn: true, ownerId: true },
      });
      for (const line of lines) owners.set(line.mdn, line.ownerId);
    }
    await this.db.$transaction([
      ...completions.map(({ id, status, httpStatus, response, answeredLine }) =>
        this.db.transaction.update({ where: { id }, data: completedRow(status, httpStatus, response, answeredLine) }),
      ),
      ...(events.length === 0
        ? []
        : [
            this.db.lineEvent.createMany({
              data: events.map(({ event, namedLine, answeredLine }) =>
                outboxRow(event, owners.get(event.mdn) ?? null, namedLine ?? answeredLine ?? null),
              ),
            }),
          ]),
    ]);
    if (events.length > 0) this.eventWritten();
  }

  private async eachAlone<T>(batch: readonly Waiting<T>[], write: (item: T) => Promise<void>): Promise<void> {
    for (const waiting of batch) await write(waiting.item).then(waiting.resolve, waiting.reject);
  }
}
