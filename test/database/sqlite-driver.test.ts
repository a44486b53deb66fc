// Statements sent through the SQLite driver adapter directly (src/db/sqlite-driver.ts, the bulk
// jobs' transaction log) write what the client's raw statements write, a transaction through it
// is all or nothing, and it never runs inside one of the client's transactions (it waits for the
// adapter's lock), nor one of those inside it.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, sqliteDriver, type Database, type DatabaseTarget } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import type { DriverAdapter, SqliteDriver } from '../../src/db/sqlite-driver.js';

let dir: string;
let db: Database;
let driver: SqliteDriver;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'line-gateway-sqlite-driver-'));
  const target: DatabaseTarget = { provider: 'sqlite', location: join(dir, 'test.db') };
  await migrate(target);
  db = await openDatabase(target);
  driver = sqliteDriver(db)!;
});

afterAll(async () => {
  await db.$disconnect();
  rmSync(dir, { recursive: true, force: true });
});

const insertLine = (mdn: string, updatedAt: Date) => ({
  sql: 'INSERT INTO "Line" ("mdn", "sim", "carrier", "status", "ownerId", "updatedAt") VALUES (?, ?, ?, ?, ?, ?)',
  args: [mdn, `SIM${mdn}`, '321', 'ACTIVE', null, updatedAt],
});

/** The adapter the driver runs on, and better-sqlite3's Database under it. */
function internals(of: SqliteDriver) {
  const adapter = (of as unknown as { adapter: DriverAdapter & { client: { prepare(sql: string): unknown } } }).adapter;
  return { adapter, native: adapter.client };
}

describe('the SQLite driver', () => {
  it('connects the client when it is used first', async () => {
    const fresh = await openDatabase({ provider: 'sqlite', location: join(dir, 'test.db') });
    try {
      expect(await sqliteDriver(fresh)!.query({ sql: 'SELECT COUNT(*) FROM "Line"', args: [] })).toEqual([[0]]);
    } finally {
      await fresh.$disconnect();
    }
  });

  it('writes what the client’s raw statement writes, DateTime included', async () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    await db.$executeRaw`INSERT INTO "Line" ("mdn", "sim", "carrier", "status", "ownerId", "updatedAt") VALUES (${'5550000001'}, ${'SIM5550000001'}, ${'321'}, ${'ACTIVE'}, ${null}, ${at})`;
    expect(await driver.transaction([insertLine('5550000002', at)])).toEqual([[]]);
    const [byClient, byDriver] = await Promise.all(
      ['5550000001', '5550000002'].map((mdn) => db.line.findUnique({ where: { mdn } })),
    );
    expect(byDriver).toEqual({ ...byClient, mdn: '5550000002', sim: 'SIM5550000002' });
    expect(byDriver!.updatedAt).toEqual(at);
    // The stored text itself, not only what the client makes of it.
    const stored = await driver.query({
      sql: 'SELECT "mdn", "updatedAt" FROM "Line" WHERE "mdn" IN (?, ?) ORDER BY "mdn"',
      args: ['5550000001', '5550000002'],
    });
    expect(stored[1]![1]).toBe(stored[0]![1]);
  });

  it('answers the rows of a RETURNING statement in a transaction, and commits', async () => {
    const [inserted, returned] = await driver.transaction([
      insertLine('5550000003', new Date()),
      {
        sql: 'UPDATE "Line" SET "status" = ? WHERE "mdn" IN (?, ?) RETURNING "mdn"',
        args: ['SUSPENDED', '5550000003', 'none'],
      },
    ]);
    expect(inserted).toEqual([]);
    expect(returned).toEqual([['5550000003']]);
    expect(await db.line.findUnique({ where: { mdn: '5550000003' } })).toMatchObject({ status: 'SUSPENDED' });
  });

  it('writes nothing of a transaction whose statement fails, and frees the connection', async () => {
    await expect(
      driver.transaction([insertLine('5550000004', new Date()), insertLine('5550000001', new Date())]),
    ).rejects.toThrow();
    expect(await db.line.findUnique({ where: { mdn: '5550000004' } })).toBeNull();
    // Neither an open transaction nor the adapter's lock is left behind.
    await db.$transaction([db.line.update({ where: { mdn: '5550000001' }, data: { status: 'ACTIVE' } })]);
    await driver.transaction([insertLine('5550000004', new Date())]);
    expect(await db.line.findUnique({ where: { mdn: '5550000004' } })).not.toBeNull();
  });

  it('waits for a client transaction in progress instead of joining it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const client = db.$transaction(async (tx) => {
      await tx.line.update({ where: { mdn: '5550000002' }, data: { status: 'SUSPENDED' } });
      entered();
      await gate;
      // Rolls the client's transaction back: a driver statement run inside it would go too.
      throw new Error('rolled back');
    });
    await inside;
    let settled = false;
    const direct = driver.transaction([insertLine('5550000005', new Date())]).finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    release();
    await expect(client).rejects.toThrow('rolled back');
    await direct;
    expect(await db.line.findUnique({ where: { mdn: '5550000002' } })).toMatchObject({ status: 'ACTIVE' });
    expect(await db.line.findUnique({ where: { mdn: '5550000005' } })).not.toBeNull();
  });

  it('prepares each statement once on its connection, shared with the adapter, and reads values as the adapter does', async () => {
    await driver.query({ sql: 'SELECT 1', args: [] });
    const { adapter, native } = internals(driver);
    const read = {
      sql: 'SELECT ? AS "text", 40000000 * 1000 AS "big", 9007199254740993 AS "huge", 1.5 AS "real", NULL AS "none", ? AS "at"',
      args: ['five', new Date('2026-01-02T03:04:05.678Z')],
    };
    const argTypes = [
      { scalarType: 'string', arity: 'scalar' },
      { scalarType: 'datetime', arity: 'scalar' },
    ] as const;
    // The Database's own prepare (the connection's `prepare` answers from kept statements).
    const prepare = vi.spyOn(Object.getPrototypeOf(native) as { prepare(sql: string): unknown }, 'prepare');
    try {
      const byAdapter = await adapter.queryRaw({ sql: read.sql, args: [...read.args], argTypes: [...argTypes] });
      const first = await driver.query(read);
      expect(first).toEqual(byAdapter.rows);
      expect(first).toEqual([['five', 40_000_000_000, '9007199254740993', 1.5, null, '2026-01-02T03:04:05.678+00:00']]);
      expect(await driver.query(read)).toEqual(first);
      // A statement text no earlier test has prepared on this connection.
      const insert = { ...insertLine('5550000099', new Date()), sql: `${insertLine('', new Date()).sql} -- once` };
      await driver.transaction([insert]);
      await driver.transaction([{ ...insert, args: ['5550000098', ...insert.args.slice(1)] }]);
      const preparedTexts = prepare.mock.calls.map(([sql]) => sql);
      expect(preparedTexts.filter((sql) => sql === read.sql)).toHaveLength(1);
      expect(preparedTexts.filter((sql) => sql === insert.sql)).toHaveLength(1);
    } finally {
      prepare.mockRestore();
    }
  });

  it('reports each statement it sends as the client reports its own (the statement counter)', async () => {
    const sent: string[] = [];
    const counted = await openDatabase(
      { provider: 'sqlite', location: join(dir, 'test.db') },
      { onQuery: (sql) => sent.push(sql) },
    );
    try {
      const own = sqliteDriver(counted)!;
      const insert = insertLine('5550000077', new Date());
      const update = { sql: 'UPDATE "Line" SET "status" = ? WHERE "mdn" = ?', args: ['SUSPENDED', '5550000077'] };
      const read = { sql: 'SELECT "status" FROM "Line" WHERE "mdn" = ?', args: ['5550000077'] };
      sent.length = 0;
      await own.transaction([insert, update]);
      expect(await own.query(read)).toEqual([['SUSPENDED']]);
      // The client's query events leave BEGIN and COMMIT out; so does the driver.
      expect(sent).toEqual([insert.sql, update.sql, read.sql]);
    } finally {
      await counted.$disconnect();
    }
  });
});
