// Oldest first on each line. Two writes on one line whose outcomes were both lost (a suspend,
// then a restore, both cut by the same outage) must reach the carrier in the order the client
// made them, or the line ends opposite to the client's last request: re-sent first, the restore
// is refused ("not suspended") and the suspend then lands. Each row has its own retry time (its
// backoff grows with its attempts, so an older row is often due later than a younger one) and
// sweeps re-send rows side by side, on several replicas; so the order is kept where a row is
// claimed: a row is claimed only while no older unresolved (`pending`/`unknown`) write on its
// line exists (src/recovery/leases.ts, one conditional UPDATE), and once a row resolves, the
// line's next writes are made due at once (the reconciler's wake).
//
// "The same line" is what a row's stored request names, read through the operation table's
// `ownedLines` and `ownedSims` (every number and SIM a write touches: a SIM swap's old and new
// SIM, a child line's parent and child), widened by what the gateway knows of the line's history:
//
// - Numbers. A line keeps its writes across MDN swaps: a write made under the number a swap gave
//   the line waits for a lost write made under the number before (followed back through the
//   swaps' `line.mdn_swapped` events, up to 8 swaps, as supersession follows them forward), and
//   when that lost write resolves, the walk forward from its number finds the write waiting.
// - SIMs. An activation's row names no number until its answer does (the new MDN): its line is
//   its SIM. A later write on that line names the number, so the line's SIMs are read from the
//   registry (its SIM now) and from its SIM swaps (the SIMs they took off it): a write on the
//   line then waits for the lost activation of any of them, and a SIM swap for a lost write that
//   names either of its SIMs.
//
// Matching errs on the side of "the same line" (a number another line held before, a SIM
// mentioned by a row of another line): that only delays a re-send until an older row resolves.
// Every wait is for an older row, in one total order (`createdAt`, then `id`), so waits never
// form a cycle: the oldest unresolved row of every line can always be claimed.

import { Prisma } from '../generated/sqlite/client.js';
import type { Database } from '../db/client.js';
import { nonEmptyText } from '../lib/text.js';
import { MAX_RENUMBERINGS } from './leases.js';
import type { StateAspects } from './supersede.js';

/** The numbers and SIMs that name one line. */
export interface LineKeys {
  numbers: readonly string[];
  sims: readonly string[];
}

/** What the operation table says of a row's input: the fields naming its lines and SIMs. */
export interface LineFields {
  name: string;
  lineField: string;
  ownedLines: readonly string[];
  ownedSims: readonly string[];
}

/** A row as far as its line goes. */
export interface LineRow {
  id: string;
  operation: string;
  mdn: string | null;
  sim: string | null;
  request: unknown;
  createdAt: Date;
}

const texts = (values: Iterable<unknown>): string[] => [
  ...new Set([...values].map(nonEmptyText).filter((value) => value !== undefined)),
];

/**
 * A LIKE pattern for `"field":"value"` in a stored request: the pipeline stores the validated
 * input as `JSON.stringify` writes it, compact. `!` escapes LIKE's wildcards (numbers are digits
 * and ICCIDs alphanumeric, so this is only a guard).
 */
const memberPattern = (field: string, value: string): string =>
  `%${`${JSON.stringify(field)}:${JSON.stringify(value)}`.replace(/[!%_]/g, (wildcard) => `!${wildcard}`)}%`;

export class LineOrder {
  private readonly fields = new Map<string, LineFields>();
  /**
   * Operations with line or SIM fields beyond the row's `mdn` (its line field) and `sim` columns:
   * a row of theirs is matched on those fields in its stored request as well.
   */
  private readonly requestFields: { operation: string; lines: string[]; sims: string[] }[] = [];

  constructor(
    private readonly db: Database,
    operations: readonly LineFields[],
    private readonly aspects: StateAspects,
  ) {
    for (const operation of operations) {
      this.fields.set(operation.name, operation);
      const lines = operation.ownedLines.filter((field) => field !== operation.lineField);
      const sims = operation.ownedSims.filter((field) => field !== 'sim');
      if (lines.length > 0 || sims.length > 0) this.requestFields.push({ operation: operation.name, lines, sims });
    }
  }

  /** The numbers and SIMs the row's own request names. */
  private own(row: LineRow): { numbers: string[]; sims: string[] } {
    const fields = this.fields.get(row.operation);
    const request = (row.request ?? {}) as Record<string, unknown>;
    return {
      numbers: texts([row.mdn, ...(fields?.ownedLines ?? []).map((field) => request[field])]),
      sims: texts([row.sim, ...(fields?.ownedSims ?? []).map((field) => request[field])]),
    };
  }

  /**
   * The line of an unresolved row as it was up to the row: its own numbers and those the line
   * held before (through MDN swaps), its own SIMs and those the registry and the line's SIM swaps
   * give it. A row waits for every older unresolved write on these.
   */
  async before(row: LineRow): Promise<LineKeys> {
    const own = this.own(row);
    const numbers = new Set(own.numbers);
    let frontier = [...numbers];
    const renumberings = this.aspects.renumberingEvents;
    for (let step = 0; frontier.length > 0 && step < MAX_RENUMBERINGS; step++) {
      // Each swap that gave the line one of these numbers; its row is under the number before.
      const swaps = await this.db.lineEvent.findMany({
        where: { mdn: { in: frontier }, type: { in: [...renumberings] }, transactionId: { not: null } },
        select: { transactionId: true },
      });
      if (swaps.length === 0) break;
      const earlier = await this.db.transaction.findMany({
        where: { id: { in: swaps.map((swap) => swap.transactionId!) }, mdn: { notIn: [...numbers] } },
        select: { mdn: true },
      });
      frontier = texts(earlier.map((swap) => swap.mdn));
      for (const number of frontier) numbers.add(number);
    }
    return { numbers: [...numbers], sims: await this.simsOf([...numbers], own.sims) };
  }

  /**
   * The line of a resolved row from the row on: its own numbers, the one its answer gave it (an
   * activation's MDN, an MDN swap's new number) and those later swaps moved it to, with its SIMs.
   * Its younger unresolved writes on these may have waited for it.
   */
  async after(row: LineRow, answer: unknown): Promise<LineKeys> {
    const own = this.own(row);
    const answered = (answer ?? {}) as Record<string, unknown>;
    const numbers = new Set([...own.numbers, ...texts([answered.mdn, answered.newMdn])]);
    let frontier = [...numbers];
    for (let step = 0; frontier.length > 0 && step < MAX_RENUMBERINGS; step++) {
      const swaps = await this.db.transaction.findMany({
        where: {
          status: 'success',
          operation: { in: [...this.aspects.renumbering] },
          mdn: { in: frontier },
          createdAt: { gt: row.createdAt },
        },
        select: { id: true },
      });
      if (swaps.length === 0) break;
      const later = await this.db.lineEvent.findMany({
        where: { transactionId: { in: swaps.map((swap) => swap.id) }, mdn: { notIn: [...numbers] } },
        select: { mdn: true },
      });
      frontier = texts(later.map((event) => event.mdn));
      for (const number of frontier) numbers.add(number);
    }
    return { numbers: [...numbers], sims: await this.simsOf([...numbers], own.sims) };
  }

  /** `sims` and the SIMs of the lines of `numbers`: the registry's, and those their SIM swaps took off them. */
  private async simsOf(numbers: string[], sims: string[]): Promise<string[]> {
    if (numbers.length === 0) return sims;
    const [lines, swaps] = await Promise.all([
      this.db.line.findMany({ where: { mdn: { in: numbers } }, select: { sim: true } }),
      this.db.lineEvent.findMany({
        where: { mdn: { in: numbers }, type: { in: [...this.aspects.simChangeEvents] } },
        select: { sim: true, data: true },
      }),
    ]);
    const swapped = swaps.flatMap((event) => [event.sim, (JSON.parse(event.data) as { oldSim?: unknown }).oldSim]);
    return texts([...sims, ...lines.map((line) => line.sim), ...swapped]);
  }

  /** SQL: the row aliased `alias` is a write on the line of `keys`. */
  onLine(alias: string, keys: LineKeys): Prisma.Sql {
    const column = (name: string) => Prisma.raw(`"${alias}"."${name}"`);
    const parts: Prisma.Sql[] = [];
    if (keys.numbers.length > 0) parts.push(Prisma.sql`${column('mdn')} IN (${Prisma.join([...keys.numbers])})`);
    if (keys.sims.length > 0) parts.push(Prisma.sql`${column('sim')} IN (${Prisma.join([...keys.sims])})`);
    for (const { operation, lines, sims } of this.requestFields) {
      const patterns = [
        ...lines.flatMap((field) => keys.numbers.map((number) => memberPattern(field, number))),
        ...sims.flatMap((field) => keys.sims.map((sim) => memberPattern(field, sim))),
      ];
      if (patterns.length === 0) continue;
      const members = patterns.map((pattern) => Prisma.sql`${column('request')} LIKE ${pattern} ESCAPE '!'`);
      parts.push(Prisma.sql`(${column('operation')} = ${operation} AND (${Prisma.join(members, ' OR ')}))`);
    }
    return parts.length > 0 ? Prisma.sql`(${Prisma.join(parts, ' OR ')})` : Prisma.sql`1 = 0`;
  }
}
