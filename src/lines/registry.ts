// Where each line lives: mdn → sim → carrier as last seen by this gateway, so that an
// operation on a line is routed to the carrier that holds it.

import type { Database } from '../db/client.js';
import type { CarrierId, LineStatus } from '../carriers/types.js';
import { TtlCache } from '../lib/ttl-cache.js';

export interface LineHome {
  mdn: string;
  sim: string;
  carrier: CarrierId;
  status: string;
}

export class LineRegistry {
  /** Homes (or their absence) by MDN, per replica for CACHE_TTL_MS; this replica's writes drop them. */
  private readonly homes: TtlCache<string, LineHome | null>;

  constructor(
    private readonly db: Database,
    cacheTtlMs = 0,
  ) {
    this.homes = new TtlCache(cacheTtlMs);
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
    const rows = await this.db.line.findMany({ where: { mdn: { in: missing } } });
    const loaded = new Map(rows.map((row) => [row.mdn, { mdn: row.mdn, sim: row.sim, carrier: row.carrier as CarrierId, status: row.status }]));
    for (const mdn of missing) {
      const home = loaded.get(mdn) ?? null;
      this.homes.set(mdn, home);
      if (home) found.set(mdn, home);
    }
    return found;
  }

  async bySim(sim: string): Promise<LineHome | null> {
    const row = await this.db.line.findFirst({ where: { sim }, orderBy: { updatedAt: 'desc' } });
    return row ? { ...row, carrier: row.carrier as CarrierId } : null;
  }

  async record(line: { mdn: string; sim: string; carrier: CarrierId; status?: LineStatus }): Promise<void> {
    const status = line.status ?? 'ACTIVE';
    await this.changed([line.mdn], () =>
      this.db.line.upsert({
        where: { mdn: line.mdn },
        update: { sim: line.sim, carrier: line.carrier, status },
        create: { mdn: line.mdn, sim: line.sim, carrier: line.carrier, status },
      }),
    );
  }

  async setStatus(mdn: string, status: LineStatus): Promise<void> {
    await this.changed([mdn], () => this.db.line.updateMany({ where: { mdn }, data: { status } }));
  }

  async setSim(mdn: string, sim: string): Promise<void> {
    await this.changed([mdn], () => this.db.line.updateMany({ where: { mdn }, data: { sim } }));
  }

  /** An MDN swap: the line keeps its SIM and carrier under a new number. */
  async renumber(oldMdn: string, newMdn: string, sim: string, carrier: CarrierId): Promise<void> {
    await this.changed([oldMdn, newMdn], () =>
      this.db.$transaction([
        this.db.line.deleteMany({ where: { mdn: oldMdn } }),
        this.db.line.upsert({ where: { mdn: newMdn }, update: { sim, carrier, status: 'ACTIVE' }, create: { mdn: newMdn, sim, carrier, status: 'ACTIVE' } }),
      ]),
    );
  }

  /** Writes, then forgets the cached homes, so no read started before the write can keep the old home. */
  private async changed(mdns: string[], write: () => Promise<unknown>): Promise<void> {
    await write();
    for (const mdn of mdns) this.homes.delete(mdn);
  }
}
