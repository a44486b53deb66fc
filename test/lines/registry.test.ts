// The line registry's owner rules on both providers: only activation gives a line an owner
// (a new line, an unowned one, or a reused number: disconnected, or holding another SIM),
// nothing else moves it, an MDN swap carries it to the new number, and a superuser's assignment
// sets or clears it.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openData, type DataServices } from '../../src/app/data.js';
import { sqliteDriver } from '../../src/db/client.js';
import { LineRegistry, type LineWriter } from '../../src/lines/registry.js';
import { existingLines, insertLines } from '../../src/pipeline/transaction-sql.js';
import { createPostgresSchema, postgresAvailable, type PostgresSchema } from '../support/postgres.js';

let counter = 0;
/** A number no other case of this file uses. */
const nextMdn = () => `555${String(process.pid % 1000).padStart(3, '0')}${String(++counter).padStart(4, '0')}`;

function registrySuite(provider: 'sqlite' | 'postgresql') {
  describe(`on ${provider}`, () => {
    let data: DataServices | null = null;
    let lines: LineRegistry;
    let dir: string;
    let postgres: PostgresSchema | undefined;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'line-registry-'));
      if (provider === 'postgresql') {
        if (!(await postgresAvailable())) return;
        postgres = await createPostgresSchema();
      }
      const url = postgres?.url ?? `file:${join(dir, 'gateway.db')}`;
      data = await openData(loadConfig({ DATABASE_URL: url, DATA_DIR: dir, JWT_SECRET: 'x'.repeat(40) }));
      lines = new LineRegistry(data.db, data.invalidation);
    });
    afterAll(async () => {
      await data?.close();
      await postgres?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    const ownerOf = async (mdn: string) => (await lines.byMdns([mdn])).get(mdn)?.ownerId;
    const skipWithout = (context: { skip(note: string): void }) => {
      if (!data) context.skip('PostgreSQL is not available');
    };

    it('activation gives a new line its owner; a later activation or a lifecycle record keeps it', async (context) => {
      skipWithout(context);
      const mdn = nextMdn();
      await lines.record({ mdn, sim: 'S1', carrier: '321', owner: 'alice' });
      expect(await ownerOf(mdn)).toBe('alice');
      await lines.record({ mdn, sim: 'S1', carrier: '321', owner: 'bob' });
      await lines.record({ mdn, sim: 'S2', carrier: '321', status: 'SUSPENDED' });
      expect((await lines.byMdns([mdn])).get(mdn)).toEqual({
        mdn,
        sim: 'S2',
        carrier: '321',
        status: 'SUSPENDED',
        ownerId: 'alice',
      });
    });

    it('a SIM a swap took off a line stays its owner’s, found by SIM, until a line holds it again', async (context) => {
      skipWithout(context);
      const [mdn, other] = [nextMdn(), nextMdn()];
      const [first, second] = [`OLD${mdn}`, `NEW${mdn}`];
      await lines.record({ mdn, sim: first, carrier: 'carrier_b', owner: 'alice' });
      await lines.record({ mdn, sim: second, carrier: 'carrier_b' });
      const homes = await lines.bySims([first, second, `NONE${mdn}`]);
      expect(homes.get(first)).toEqual({ mdn, sim: first, carrier: 'carrier_b', status: 'RETIRED', ownerId: 'alice' });
      expect(homes.get(second)).toMatchObject({ mdn, sim: second, status: 'ACTIVE', ownerId: 'alice' });
      expect(homes.has(`NONE${mdn}`)).toBe(false);
      // Recording the line again with its own SIM retires nothing more.
      await lines.record({ mdn, sim: second, carrier: 'carrier_b', status: 'SUSPENDED' });
      expect((await lines.bySims([second])).get(second)?.status).toBe('SUSPENDED');
      // Swapped back, then onto another user's new line: a line holding the SIM is its home.
      await lines.record({ mdn, sim: first, carrier: 'carrier_b' });
      expect((await lines.bySims([first, second])).get(second)).toMatchObject({ status: 'RETIRED', ownerId: 'alice' });
      await lines.record({ mdn: other, sim: second, carrier: '321', owner: 'bob' });
      expect((await lines.bySims([second])).get(second)).toMatchObject({
        mdn: other,
        ownerId: 'bob',
        status: 'ACTIVE',
      });
    });

    it('a record without a status (a SIM swap) keeps the line’s; an MDN swap carries it; an activation is ACTIVE', async (context) => {
      skipWithout(context);
      const [mdn, next] = [nextMdn(), nextMdn()];
      await lines.record({ mdn, sim: 'T1', carrier: '321', owner: 'alice' });
      await lines.setStatus(mdn, 'SUSPENDED');
      await lines.record({ mdn, sim: 'T2', carrier: '321' });
      expect((await lines.byMdns([mdn])).get(mdn)).toMatchObject({ sim: 'T2', status: 'SUSPENDED' });
      await lines.renumber(mdn, next, 'T2', '321');
      expect((await lines.byMdns([next])).get(next)).toMatchObject({
        sim: 'T2',
        status: 'SUSPENDED',
        ownerId: 'alice',
      });
      await lines.setStatus(next, 'DISCONNECTED');
      await lines.record({ mdn: next, sim: 'T3', carrier: '321', owner: 'bob' });
      expect((await lines.byMdns([next])).get(next)).toMatchObject({ status: 'ACTIVE', ownerId: 'bob' });
      const learned = nextMdn();
      await lines.record({ mdn: learned, sim: 'T4', carrier: '321' });
      expect((await lines.byMdns([learned])).get(learned)?.status).toBe('ACTIVE');
    });

    it('a line learned without an owner stays unowned until an activation or an assignment', async (context) => {
      skipWithout(context);
      const [learned, assigned] = [nextMdn(), nextMdn()];
      await lines.record({ mdn: learned, sim: 'S3', carrier: 'carrier_b' });
      expect(await ownerOf(learned)).toBeNull();
      await lines.record({ mdn: learned, sim: 'S3', carrier: 'carrier_b', owner: 'bob' });
      expect(await ownerOf(learned)).toBe('bob');
      await lines.record({ mdn: assigned, sim: 'S4', carrier: '321' });
      await lines.setOwner(assigned, 'carol');
      expect(await ownerOf(assigned)).toBe('carol');
      await lines.setOwner(assigned, null);
      expect(await ownerOf(assigned)).toBeNull();
    });

    it('a disconnected number activated again is a new line: the new activation owns it', async (context) => {
      skipWithout(context);
      const mdn = nextMdn();
      await lines.record({ mdn, sim: 'S5', carrier: '321', owner: 'alice' });
      await lines.setStatus(mdn, 'DISCONNECTED');
      await lines.record({ mdn, sim: 'S6', carrier: '321', owner: 'bob' });
      expect((await lines.byMdns([mdn])).get(mdn)).toMatchObject({ sim: 'S6', status: 'ACTIVE', ownerId: 'bob' });
    });

    it('a number the carrier recycled unseen (another SIM on it) is a new line: the new activation owns it', async (context) => {
      skipWithout(context);
      const mdn = nextMdn();
      const [first, second] = [`R1${mdn}`, `R2${mdn}`];
      await lines.record({ mdn, sim: first, carrier: '321', owner: 'alice' });
      await lines.record({ mdn, sim: second, carrier: '321', owner: 'bob' });
      expect((await lines.byMdns([mdn])).get(mdn)).toMatchObject({ sim: second, status: 'ACTIVE', ownerId: 'bob' });
      expect((await lines.ownedBy('bob')).lines.map((line) => line.mdn)).toContain(mdn);
      // Alice's SIM stays hers; her old number is no longer in her list.
      expect((await lines.bySims([first])).get(first)).toMatchObject({ status: 'RETIRED', ownerId: 'alice' });
      expect((await lines.ownedBy('alice')).lines.map((line) => line.mdn)).not.toContain(mdn);
      // The same activation recorded again moves nothing.
      await lines.record({ mdn, sim: second, carrier: '321', owner: 'alice' });
      expect((await lines.byMdns([mdn])).get(mdn)?.ownerId).toBe('bob');
    });

    it('an MDN swap carries the owner to the new number; an unknown line carries none', async (context) => {
      skipWithout(context);
      const [old, next, unknown, taken] = [nextMdn(), nextMdn(), nextMdn(), nextMdn()];
      await lines.record({ mdn: old, sim: 'S7', carrier: '321', owner: 'alice' });
      await lines.renumber(old, next, 'S7', '321');
      expect(await lines.byMdns([old, next])).toEqual(
        new Map([[next, { mdn: next, sim: 'S7', carrier: '321', status: 'ACTIVE', ownerId: 'alice' }]]),
      );
      // Run again (the old row is gone): the new number keeps its owner.
      await lines.renumber(old, next, 'S7', '321');
      expect((await lines.byMdns([next])).get(next)?.ownerId).toBe('alice');
      // A stale row on the new number (another SIM): its SIM stays its owner's, the number takes
      // the swapped line's owner, none for an unknown line.
      await lines.record({ mdn: taken, sim: 'S8', carrier: '321', owner: 'bob' });
      await lines.renumber(unknown, taken, 'S9', '321');
      expect((await lines.byMdns([taken])).get(taken)).toMatchObject({ sim: 'S9', ownerId: null });
      expect((await lines.bySims(['S8'])).get('S8')).toMatchObject({ mdn: taken, status: 'RETIRED', ownerId: 'bob' });
    });

    it('records several lines as one by one would, through a bulk job’s statements on SQLite', async (context) => {
      skipWithout(context);
      const sql = sqliteDriver(data!.db);
      const writer: LineWriter | undefined = sql && {
        existing: async (mdns) => new Set((await sql.query(existingLines(mdns))).map(([mdn]) => String(mdn))),
        insert: (rows) => sql.transaction([insertLines(rows)]),
      };
      const known = nextMdn();
      await lines.record({ mdn: known, sim: 'K1', carrier: '321' });
      expect(await ownerOf(known)).toBeNull(); // now cached
      const fresh = [nextMdn(), nextMdn()];
      await lines.recordMany(
        fresh.map((mdn, index) => ({ mdn, sim: `F${index}`, carrier: '321', owner: 'erin' })),
        writer,
      );
      // A line already recorded takes the client's statements (its owner rule), the rest with it.
      const later = nextMdn();
      await lines.recordMany(
        [
          { mdn: known, sim: 'K2', carrier: '321', owner: 'erin' },
          { mdn: later, sim: 'L1', carrier: '321', status: 'SUSPENDED', owner: 'erin' },
        ],
        writer,
      );
      const homes = await lines.byMdns([...fresh, known, later]);
      expect([...fresh, known, later].map((mdn) => homes.get(mdn)?.ownerId)).toEqual(['erin', 'erin', 'erin', 'erin']);
      expect(homes.get(fresh[1]!)).toEqual({
        mdn: fresh[1],
        sim: 'F1',
        carrier: '321',
        status: 'ACTIVE',
        ownerId: 'erin',
      });
      expect(homes.get(known)?.sim).toBe('K2');
      expect(homes.get(later)?.status).toBe('SUSPENDED');
      if (!writer) return;
      // A line recorded meanwhile (the read missed it) refuses the whole insert: nothing is written.
      const missed = nextMdn();
      const blind: LineWriter = { ...writer, existing: async () => new Set() };
      await expect(
        lines.recordMany(
          [
            { mdn: missed, sim: 'M1', carrier: '321', owner: 'frank' },
            { mdn: known, sim: 'K3', carrier: '321' },
          ],
          blind,
        ),
      ).rejects.toThrow();
      expect((await lines.byMdns([missed])).get(missed)).toBeUndefined();
    });

    it('lists a user’s lines by MDN, bounded, with the total; finds lines by SIM', async (context) => {
      skipWithout(context);
      const mdns = [nextMdn(), nextMdn(), nextMdn()];
      for (const mdn of [...mdns].reverse()) await lines.record({ mdn, sim: `L${mdn}`, carrier: '321', owner: 'dave' });
      const firstTwo = await lines.ownedBy('dave', 2);
      expect(firstTwo).toEqual({
        lines: mdns.slice(0, 2).map((mdn) => expect.objectContaining({ mdn, ownerId: 'dave' })),
        total: 3,
      });
      expect((await lines.ownedBy('nobody')).total).toBe(0);
      const bySim = await lines.bySims([`L${mdns[0]}`, `L${mdns[2]}`, 'NOPE']);
      expect([...bySim.keys()].sort()).toEqual([`L${mdns[0]}`, `L${mdns[2]}`]);
      expect(bySim.get(`L${mdns[2]}`)?.mdn).toBe(mdns[2]);
    });
  });
}

registrySuite('sqlite');
registrySuite('postgresql');
