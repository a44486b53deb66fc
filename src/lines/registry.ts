// Where each line lives and whose it is: mdn → sim → carrier (as last seen by this gateway)
// and owner, so that an operation on a line is routed to the carrier that holds it and only
// its owner may act on it.

import type { CacheChange, CacheInvalidation } from '../db/cache-invalidation.js';
import type { Database } from '../db/client.js';
import { CARRIER_IDS, LINE_STATUSES, type CarrierId, type LineStatus } from '../carriers/types.js';
import { TtlCache } from '../lib/ttl-cache.js';

export interface LineHome {
  mdn: string;
  sim: string;
  carrier: CarrierId;
  status: string;
  /** The user the line belongs to; null for a line nobody was given (every user may act on it). */
  ownerId: string | null;
}

/** Most lines `ownedBy` returns. */
export const MAX_OWNED_LINES = 100;

/**
 * The one string of each carrier id and status, in place of the copy each row read brings: a
 * cached home per active line would otherwise keep two short strings of its own (~48 bytes).
 */
const VOCABULARY = new Map<string, string>([...CARRIER_IDS, ...LINE_STATUSES].map((word) => [word, word]));
const shared = (word: string): string => VOCABULARY.get(word) ?? word;

/** The status of a SIM's home when a swap took the SIM off its line. */
const RETIRED = 'RETIRED';

const homeOf = (row: {
  mdn: string;
  sim: string;
  carrier: string;
  status: string;
  ownerId: string | null;
}): LineHome => ({
  mdn: row.mdn,
  sim: row.sim,
  carrier: shared(row.carrier) as CarrierId,
  status: shared(row.status),
  ownerId: row.ownerId,
});

/**
 * A line as a carrier answered it. `owner` is given by activation only: a new line, an unowned
 * one, or a number that holds another SIM than recorded or was disconnected (a new line on a
 * reused number, which the carrier may recycle without this gateway seeing the old line go)
 * takes it; the same line keeps its owner, so re-running an activation never moves a line.
 */
export interface RecordedLine {
  mdn: string;
  sim: string;
  carrier: CarrierId;
  /**
   * The line's status as the carrier answered it. Without it a recorded line keeps the status
   * it has (a SIM swap does not change it, and a status read before the carrier call may be
   * stale by now), and a new one is ACTIVE; an activation (`owner`) is always ACTIVE.
   */
  status?: LineStatus;
  owner?: string;
}

/** A caller's own statements for `recordMany`. */
export interface LineWriter {
  /** Which of these MDNs have a row. */
  existing(mdns: readonly string[]): Promise<Set<string>>;
  /** Inserts the rows in one statement, refused as a whole when one of them exists. */
  insert(rows: NewLineRow[]): Promise<unknown>;
}

/** A line row as `recordMany` inserts it. */
export interface NewLineRow {
  mdn: string;
  sim: string;
  carrier: string;
  status: string;
  ownerId: string | null;
}

interface OwnedLines {
  lines: LineHome[];
  total: number;
}

export class LineRegistry {
  /** Homes (or their absence) by MDN, per replica until a change to them is announced. */
  private readonly homes: TtlCache<string, LineHome | null>;
  /** Each owner's first MAX_OWNED_LINES lines and count (`me`), likewise. */
  private readonly owned: TtlCache<string, OwnedLines>;

  constructor(
    private readonly db: Database,
    private readonly invalidation: CacheInvalidation,
  ) {
    this.homes = new TtlCache(invalidation);
    this.owned = new TtlCache(invalidation);
    invalidation.subscribe((change) => this.drop(change));
  }

  /** The homes of the given MDNs; one query for those not cached. */
  async byMdns(mdns: readonly string[]): Promise<Map<string, LineHome>> {
    const found = new Map<string, LineHome>();
    const missing: string[] = [];
    for (const mdn of mdns) {
      const cached = this.homes.peek(mdn);
      if (cached === undefined) missing.push(mdn);
      else if (cached) found.set(mdn, cached);
    }
    if (missing.length === 0) return found;
    const generation = this.homes.generation();
    const rows = await this.db.line.findMany({ where: { mdn: { in: missing } } });
    const loaded = new Map(rows.map((row) => [row.mdn, homeOf(row)]));
    for (const mdn of missing) {
      const home = loaded.get(mdn) ?? null;
      this.homes.set(mdn, home, generation);
      if (home) found.set(mdn, home);
    }
    return found;
  }

  async bySim(sim: string): Promise<LineHome | null> {
    return (await this.bySims([sim])).get(sim) ?? null;
  }

  /**
   * The line now holding each SIM (the most recently changed one, should stale rows share it),
   * else, for a SIM a swap took off a line, that line as it was (status RETIRED, its owner then):
   * one query, and one more for the SIMs no line holds.
   */
  async bySims(sims: readonly string[]): Promise<Map<string, LineHome>> {
    if (sims.length === 0) return new Map();
    const rows = await this.db.line.findMany({ where: { sim: { in: [...sims] } }, orderBy: { updatedAt: 'asc' } });
    const found = new Map(rows.map((row) => [row.sim, homeOf(row)]));
    const unheld = sims.filter((sim) => !found.has(sim));
    if (unheld.length === 0) return found;
    const retired = await this.db.retiredSim.findMany({ where: { sim: { in: unheld } } });
    for (const row of retired) found.set(row.sim, homeOf({ ...row, status: RETIRED }));
    return found;
  }

  /** The user's lines by MDN, at most `limit`, and how many they own in all. */
  ownedBy(ownerId: string, limit = MAX_OWNED_LINES): Promise<OwnedLines> {
    const load = async () => {
      const [rows, total] = await Promise.all([
        this.db.line.findMany({ where: { ownerId }, orderBy: { mdn: 'asc' }, take: limit }),
        this.db.line.count({ where: { ownerId } }),
      ]);
      return { lines: rows.map(homeOf), total };
    };
    return limit === MAX_OWNED_LINES ? this.owned.get(ownerId, load) : load();
  }

  /** Records the line at its carrier (see RecordedLine for its owner). */
  async record(line: RecordedLine): Promise<void> {
    await this.invalidation.write(changedLines([line.mdn], line.owner ?? null), this.recordStatements(line));
  }

  /**
   * Records several lines as `record` does, in one transaction: those not recorded yet in one
   * insert. All or nothing: a line recorded meanwhile by another writer fails the whole call.
   * `writer` reads and inserts with the caller's own statements when every line is new and no
   * other replica needs telling (SQLite): a bulk job's lines (src/db/sqlite-driver.ts).
   */
  async recordMany(lines: readonly RecordedLine[], writer?: LineWriter): Promise<void> {
    const mdns = lines.map((line) => line.mdn);
    const owners = [...new Set(lines.flatMap((line) => (line.owner ? [line.owner] : [])))];
    const changes: CacheChange[] = [{ kind: 'lines', mdns, owners }];
    const direct = writer && this.invalidation.channel === null ? writer : undefined;
    const known = direct
      ? await direct.existing(mdns)
      : new Set(
          (await this.db.line.findMany({ where: { mdn: { in: mdns } }, select: { mdn: true } })).map((row) => row.mdn),
        );
    const fresh = lines
      .filter((line) => !known.has(line.mdn))
      .map(({ mdn, sim, carrier, status, owner }) => ({
        mdn,
        sim,
        carrier,
        status: status ?? 'ACTIVE',
        ownerId: owner ?? null,
      }));
    if (direct && known.size === 0) {
      try {
        await direct.insert(fresh);
      } finally {
        // Also after a failure: whether it committed may be unknown, and a drop is always safe.
        this.invalidation.apply(changes);
      }
      return;
    }
    await this.invalidation.write(changes, [
      ...(fresh.length === 0 ? [] : [this.db.line.createMany({ data: fresh })]),
      ...lines.filter((line) => known.has(line.mdn)).flatMap((line) => this.recordStatements(line)),
    ]);
  }

  private recordStatements(line: RecordedLine) {
    const { mdn, sim, carrier, owner } = line;
    const status = line.status ?? (owner ? 'ACTIVE' : undefined);
    return [
      // In this order: the SIM is retired with the owner it had, then the owner rule reads the
      // SIM and status that the upsert overwrites.
      retireDisplacedSim(this.db, mdn, sim),
      ...(owner
        ? [
            this.db.line.updateMany({
              where: { mdn, OR: [{ ownerId: null }, { status: 'DISCONNECTED' }, { sim: { not: sim } }] },
              data: { ownerId: owner },
            }),
          ]
        : []),
      this.db.line.upsert({
        where: { mdn },
        update: status ? { sim, carrier, status } : { sim, carrier },
        create: { mdn, sim, carrier, status: status ?? 'ACTIVE', ownerId: owner ?? null },
      }),
    ];
  }

  /** A superuser's assignment: sets (or, with null, clears) the owner of a recorded line. */
  async setOwner(mdn: string, ownerId: string | null): Promise<void> {
    await this.invalidation.write(changedLines([mdn], ownerId), [
      this.db.line.updateMany({ where: { mdn }, data: { ownerId } }),
    ]);
  }

  async setStatus(mdn: string, status: LineStatus): Promise<void> {
    await this.invalidation.write(changedLines([mdn]), [this.db.line.updateMany({ where: { mdn }, data: { status } })]);
  }

  /** An MDN swap: the line keeps its SIM, carrier, status and owner under a new number. */
  async renumber(oldMdn: string, newMdn: string, sim: string, carrier: CarrierId): Promise<void> {
    const changes = changedLines([oldMdn, newMdn]);
    try {
      await this.db.$transaction(async (tx) => {
        const old = await tx.line.findUnique({ where: { mdn: oldMdn }, select: { ownerId: true, status: true } });
        const landing = await tx.line.findUnique({
          where: { mdn: newMdn },
          select: { sim: true, ownerId: true, status: true },
        });
        // A row on the new number with another SIM is a line the carrier no longer has there:
        // its SIM stays its owner's, and the number takes the swapped line's owner.
        await retireDisplacedSim(tx, newMdn, sim);
        await tx.line.deleteMany({ where: { mdn: oldMdn } });
        // An unknown old line has no owner or status to carry; the new number keeps its own only
        // when it already holds this SIM (the swap recorded before, run again).
        const kept = landing?.sim === sim ? landing : null;
        const owner = old ? old.ownerId : (kept?.ownerId ?? null);
        const status = old?.status ?? kept?.status ?? 'ACTIVE';
        await tx.line.upsert({
          where: { mdn: newMdn },
          update: { sim, carrier, status, ownerId: owner },
          create: { mdn: newMdn, sim, carrier, status, ownerId: owner },
        });
        for (const announcement of this.invalidation.announcement(tx, changes)) await announcement;
      });
    } finally {
      this.invalidation.apply(changes);
    }
  }

  /**
   * A change to lines: their homes go, and so do the owned lists that may hold them (those that
   * list one of them, the new owner's, and any list cut at MAX_OWNED_LINES, which may not).
   */
  private drop(change: CacheChange): void {
    if (change.kind === 'everything') {
      this.homes.clear();
      this.owned.clear();
    } else if (change.kind === 'lines') {
      for (const mdn of change.mdns) this.homes.delete(mdn);
      for (const owner of change.owners) this.owned.delete(owner);
      this.owned.deleteWhere(
        (list) => list.total > list.lines.length || list.lines.some((home) => change.mdns.includes(home.mdn)),
      );
    }
  }
}

/**
 * Keeps the SIM a record takes off a line its owner's (RetiredSim): one statement, a no-op when
 * the line is new or already holds `sim`.
 */
const retireDisplacedSim = (client: Pick<Database, '$executeRaw'>, mdn: string, sim: string) =>
  client.$executeRaw`
    INSERT INTO "RetiredSim" ("sim", "mdn", "carrier", "ownerId")
    SELECT "sim", "mdn", "carrier", "ownerId" FROM "Line" WHERE "mdn" = ${mdn} AND "sim" <> ${sim}
    ON CONFLICT ("sim") DO UPDATE SET "mdn" = excluded."mdn", "carrier" = excluded."carrier",
      "ownerId" = excluded."ownerId", "retiredAt" = CURRENT_TIMESTAMP`;

const changedLines = (mdns: string[], newOwner: string | null = null): CacheChange[] => [
  { kind: 'lines', mdns, owners: newOwner ? [newOwner] : [] },
];
