// The SQLite connection keeps its prepared statements (src/db/prepared-statements.ts): the
// client's queries compile each SQL text once, and every call still runs with its own values,
// reads what another connection committed, and fails as before on a statement that does not
// compile.

import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, sqliteDriver, type Database as Client, type DatabaseTarget } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { PreparedStatements, type NativeStatement } from '../../src/db/prepared-statements.js';

let dir: string;
let target: DatabaseTarget;
let db: Client;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'line-gateway-prepared-'));
  target = { provider: 'sqlite', location: join(dir, 'test.db') };
  await migrate(target);
  db = await openDatabase(target);
  await db.$connect();
});

afterAll(async () => {
  await db.$disconnect();
  rmSync(dir, { recursive: true, force: true });
});

/** better-sqlite3's own prepare, which runs only when a SQL text is compiled. */
function spyOnCompiles() {
  const native = (sqliteDriver(db) as unknown as { adapter: { client: object } }).adapter.client;
  return vi.spyOn(Object.getPrototypeOf(native) as { prepare(sql: string): unknown }, 'prepare');
}

const line = (mdn: string) => ({ mdn, sim: `SIM${mdn}`, carrier: '321', status: 'ACTIVE', ownerId: null });

describe('the connection’s prepared statements', () => {
  it('compile a client query’s SQL once, and run each call with its own values', async () => {
    await db.line.createMany({ data: ['5551000001', '5551000002', '5551000003'].map(line) });
    const compiles = spyOnCompiles();
    try {
      const first = await db.line.findUnique({ where: { mdn: '5551000001' } });
      const second = await db.line.findUnique({ where: { mdn: '5551000002' } });
      const none = await db.line.findUnique({ where: { mdn: '5551000009' } });
      expect([first?.sim, second?.sim, none]).toEqual(['SIM5551000001', 'SIM5551000002', null]);
      const texts = compiles.mock.calls.map(([sql]) => sql);
      expect(texts).toHaveLength(1);

      // Writes too, in the client's transactions (BEGIN and COMMIT are statements as well).
      for (const status of ['SUSPENDED', 'ACTIVE', 'SUSPENDED']) {
        await db.$transaction([db.line.update({ where: { mdn: '5551000003' }, data: { status } })]);
      }
      expect((await db.line.findUnique({ where: { mdn: '5551000003' } }))?.status).toBe('SUSPENDED');
      const updates = compiles.mock.calls.map(([sql]) => sql).filter((sql) => sql.startsWith('UPDATE'));
      expect(updates).toHaveLength(1);
    } finally {
      compiles.mockRestore();
    }
  });

  it('answer values as fresh statements do: big integers, dates, NULL, raw rows in column order', async () => {
    const at = new Date('2026-03-04T05:06:07.089Z');
    await db.line.create({ data: { ...line('5551000010'), updatedAt: at } });
    const sql =
      'SELECT ? AS "text", 9007199254740993 AS "huge", NULL AS "none", "updatedAt" FROM "Line" WHERE "mdn" = ?';
    for (let round = 0; round < 2; round++) {
      const rows = await db.$queryRawUnsafe<Record<string, unknown>[]>(sql, `round ${round}`, '5551000010');
      expect(rows).toEqual([{ text: `round ${round}`, huge: 9007199254740993n, none: null, updatedAt: at }]);
    }
  });

  it('read what another connection committed in between (the change watch’s data_version)', async () => {
    const version = async () =>
      Number((await db.$queryRawUnsafe<{ data_version: bigint }[]>('PRAGMA data_version'))[0]!.data_version);
    const before = await version();
    expect(await version()).toBe(before);
    const other = new Database(target.location);
    try {
      other
        .prepare('INSERT INTO "Line" ("mdn", "sim", "carrier", "status", "updatedAt") VALUES (?, ?, ?, ?, ?)')
        .run('5551000020', 'SIM5551000020', '321', 'ACTIVE', new Date().toISOString());
    } finally {
      other.close();
    }
    expect(await version()).not.toBe(before);
    expect(await db.line.findUnique({ where: { mdn: '5551000020' } })).not.toBeNull();
  });

  it('fail as before on a statement that does not compile, each time, and keep serving', async () => {
    await expect(db.$queryRawUnsafe('SELEC 1')).rejects.toThrow(/syntax error/);
    await expect(db.$queryRawUnsafe('SELEC 1')).rejects.toThrow(/syntax error/);
    // A duplicate key still fails the write and leaves nothing behind.
    await expect(db.line.create({ data: line('5551000001') })).rejects.toMatchObject({ code: 'P2002' });
    expect(await db.line.count({ where: { mdn: '5551000001' } })).toBe(1);
  });
});

describe('PreparedStatements', () => {
  const fake = (sql: string) => ({ sql }) as unknown as NativeStatement;

  it('keeps the most recently used texts up to its limit', () => {
    const prepare = vi.fn(fake);
    const statements = new PreparedStatements(prepare, 2);
    const a = statements.get('a');
    statements.get('b');
    expect(statements.get('a')).toBe(a);
    statements.get('c'); // evicts b, the least recently used
    expect(statements.size).toBe(2);
    expect(statements.get('a')).toBe(a);
    statements.get('b');
    expect(prepare.mock.calls.map(([sql]) => sql)).toEqual(['a', 'b', 'c', 'b']);
  });

  it('keeps nothing of a text that does not compile', () => {
    const statements = new PreparedStatements((sql) => {
      throw new Error(`cannot compile ${sql}`);
    });
    expect(() => statements.get('x')).toThrow('cannot compile x');
    expect(statements.size).toBe(0);
  });
});
