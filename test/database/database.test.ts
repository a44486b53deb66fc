// The data layer on both providers: the migrator applies Prisma-format migrations once and
// records them as Prisma does, refuses a changed migration, and is safe when two start at
// once; the PostgreSQL schema is the derived twin of the SQLite one; and the pipeline works
// end to end on PostgreSQL.

import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../src/config.js';
import { parseDatabaseUrl, postgresSchema, type DatabaseProvider } from '../../src/db/client.js';
import { openData } from '../../src/app/data.js';
import { migrate, migrationsFolder, readMigrations, type MigrationReport } from '../../src/db/migrate.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { createPostgresSchema, POSTGRES_URL, postgresAvailable, type PostgresSchema } from '../support/postgres.js';
import { seedUnknownLine } from '../support/lines.js';
import { errorOf } from '../support/surfaces.js';
import { REPO_ROOT, run } from '../support/processes.js';

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: unknown;
  rolled_back_at: unknown;
  applied_steps_count: number;
}

/** One provider's database, seen from outside the migrator. */
interface Fixture {
  url: string;
  rows(): Promise<MigrationRow[]>;
  /** Pretends the recorded migration was different (as if its file had changed since). */
  tamper(name: string): Promise<void>;
  columns(): Promise<string[]>;
  drop(): Promise<void>;
}

function sqliteFixture(): Fixture {
  const dir = mkdtempSync(join(tmpdir(), 'line-gateway-migrate-'));
  const file = join(dir, 'gateway.db');
  const query = <T>(sql: string, ...params: unknown[]): T[] => {
    const db = new Sqlite(file);
    try {
      return sql.trimStart().startsWith('SELECT')
        ? (db.prepare(sql).all(...params) as T[])
        : (db.prepare(sql).run(...params), []);
    } finally {
      db.close();
    }
  };
  return {
    url: `file:${file}`,
    rows: async () =>
      query<MigrationRow>(
        'SELECT migration_name, checksum, finished_at, rolled_back_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
      ),
    tamper: async (name) =>
      void query('UPDATE "_prisma_migrations" SET checksum = ? WHERE migration_name = ?', 'f'.repeat(64), name),
    columns: async () =>
      query<{ name: string }>(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations'`,
      ).flatMap(({ name }) =>
        query<{ name: string }>(`SELECT name FROM pragma_table_info(?)`, name).map(
          (column) => `${name}.${column.name}`,
        ),
      ),
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function postgresFixture(): Promise<Fixture> {
  const schema: PostgresSchema = await createPostgresSchema();
  const query = async <T>(sql: string, params: unknown[] = []): Promise<T[]> => {
    const client = new pg.Client({ connectionString: schema.url, options: `-c search_path=${schema.name}` });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  };
  return {
    url: schema.url,
    rows: () =>
      query<MigrationRow>(
        'SELECT migration_name, checksum, finished_at, rolled_back_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
      ),
    tamper: async (name) =>
      void (await query('UPDATE "_prisma_migrations" SET checksum = $1 WHERE migration_name = $2', [
        'f'.repeat(64),
        name,
      ])),
    columns: async () =>
      (
        await query<{ column: string }>(
          `SELECT table_name || '.' || column_name AS column FROM information_schema.columns WHERE table_schema = current_schema() AND table_name <> '_prisma_migrations'`,
        )
      ).map((row) => row.column),
    drop: () => schema.drop(),
  };
}

const sorted = (values: string[]) => [...values].sort();

function migratorSuite(
  provider: DatabaseProvider,
  make: () => Promise<Fixture>,
  available: () => Promise<boolean>,
): void {
  describe(`the migrator on ${provider}`, () => {
    let ready = false;
    const fixtures: Fixture[] = [];
    const fresh = async () => {
      const fixture = await make();
      fixtures.push(fixture);
      return fixture;
    };
    const migrations = readMigrations(migrationsFolder(provider));
    const names = migrations.map((migration) => migration.name);

    beforeAll(async () => {
      ready = await available();
    });
    afterAll(async () => {
      for (const fixture of fixtures) await fixture.drop();
    });

    it('applies every migration once, records it as Prisma does, and is a no-op the second time', async (context) => {
      if (!ready) return context.skip('PostgreSQL is not available');
      expect(names.length).toBeGreaterThan(0);
      const fixture = await fresh();
      const target = parseDatabaseUrl(fixture.url);
      expect(await migrate(target)).toEqual({ applied: names, alreadyApplied: [] });
      const rows = await fixture.rows();
      expect(rows.map((row) => row.migration_name)).toEqual(names);
      for (const [index, row] of rows.entries()) {
        const sql = readFileSync(join(migrationsFolder(provider), names[index]!, 'migration.sql'));
        expect(row.checksum).toBe(createHash('sha256').update(sql).digest('hex'));
        expect(row.finished_at).not.toBeNull();
        expect(row.rolled_back_at).toBeNull();
        expect(Number(row.applied_steps_count)).toBe(1);
      }
      expect(await migrate(target)).toEqual({ applied: [], alreadyApplied: names });
      expect(await fixture.rows()).toHaveLength(names.length);
    });

    it('refuses to run when an applied migration was changed', async (context) => {
      if (!ready) return context.skip('PostgreSQL is not available');
      const fixture = await fresh();
      await migrate(parseDatabaseUrl(fixture.url));
      await fixture.tamper(names[0]!);
      await expect(migrate(parseDatabaseUrl(fixture.url))).rejects.toThrow(
        `Migration ${names[0]} was changed after it was applied; add a new migration instead`,
      );
    });

    it('lets two migrators started at once on a fresh database both succeed with one set of rows', async (context) => {
      if (!ready) return context.skip('PostgreSQL is not available');
      const fixture = await fresh();
      // Separate processes, as two replicas starting together would be.
      const results = await Promise.all(
        [1, 2].map(() => run(process.execPath, ['test/database/migrate-child.mjs', fixture.url], {})),
      );
      for (const result of results)
        expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      const reports = results.map((result) => JSON.parse(result.stdout) as MigrationReport);
      expect(sorted(reports.flatMap((report) => report.applied))).toEqual(sorted(names));
      expect(sorted(reports.flatMap((report) => report.alreadyApplied))).toEqual(sorted(names));
      expect((await fixture.rows()).map((row) => row.migration_name)).toEqual(names);
    });
  });
}

migratorSuite(
  'sqlite',
  async () => sqliteFixture(),
  async () => true,
);

describe('the migrator on a SQLite file another connection is writing', () => {
  it('waits for it instead of failing with SQLITE_BUSY (a fresh file switching to WAL)', async () => {
    const fixture = sqliteFixture();
    const other = new Sqlite(parseDatabaseUrl(fixture.url).location);
    try {
      // Still in rollback-journal mode, and holding the write lock: switching to WAL now answers
      // SQLITE_BUSY at once, without SQLite's busy handler (the race two replicas starting
      // together on a fresh file can meet).
      other.exec('BEGIN IMMEDIATE');
      other.exec('CREATE TABLE "Other" ("x" INTEGER)');
      const released = new Promise<void>((resolve) =>
        setTimeout(() => {
          other.exec('COMMIT');
          resolve();
        }, 300),
      );
      const report = await migrate(parseDatabaseUrl(fixture.url));
      await released;
      expect(report.applied).toEqual(readMigrations(migrationsFolder('sqlite')).map((migration) => migration.name));
      const after = new Sqlite(parseDatabaseUrl(fixture.url).location);
      expect(after.pragma('journal_mode', { simple: true })).toBe('wal');
      after.close();
    } finally {
      other.close();
      await fixture.drop();
    }
  });
});
migratorSuite('postgresql', postgresFixture, postgresAvailable);

describe('the two providers', () => {
  it('keep prisma/postgresql/schema.prisma equal to the schema derived from prisma/sqlite/schema.prisma', async () => {
    // A computed specifier: the script is plain JavaScript without type declarations.
    const script = new URL('../../scripts/prisma-generate.mjs', import.meta.url).href;
    const { derivePostgresSchema } = (await import(script)) as { derivePostgresSchema(sqlite: string): string };
    const sqlite = readFileSync(join(REPO_ROOT, 'prisma/sqlite/schema.prisma'), 'utf8');
    const twin = readFileSync(join(REPO_ROOT, 'prisma/postgresql/schema.prisma'), 'utf8');
    expect(twin, 'prisma/postgresql/schema.prisma is stale: run `node scripts/prisma-generate.mjs`').toBe(
      derivePostgresSchema(sqlite),
    );
    expect(twin).toContain('provider = "postgresql"');
    // The check is not vacuous: a change to the source changes the twin.
    expect(derivePostgresSchema(`${sqlite}\nmodel Extra {\n  id String @id\n}\n`)).not.toBe(twin);
  });

  it('have the same migrations, and they create the same tables and columns', async (context) => {
    const sqliteNames = readMigrations(migrationsFolder('sqlite')).map((migration) => migration.name);
    expect(readMigrations(migrationsFolder('postgresql')).map((migration) => migration.name)).toEqual(sqliteNames);
    if (!(await postgresAvailable())) return context.skip('PostgreSQL is not available');
    const [sqlite, postgres] = [sqliteFixture(), await postgresFixture()];
    try {
      await migrate(parseDatabaseUrl(sqlite.url));
      await migrate(parseDatabaseUrl(postgres.url));
      expect(sorted(await postgres.columns())).toEqual(sorted(await sqlite.columns()));
    } finally {
      await sqlite.drop();
      await postgres.drop();
    }
  });
});

describe('the PostgreSQL schema of a URL', () => {
  it('is ?schema=, else the search_path of ?options, else public', () => {
    expect(postgresSchema('postgres://u@h:5432/db?schema=tenant_a')).toBe('tenant_a');
    expect(postgresSchema(`postgres://u@h/db?options=${encodeURIComponent('-c search_path=test_1')}`)).toBe('test_1');
    expect(
      postgresSchema(
        `postgres://u@h/db?options=${encodeURIComponent('-c statement_timeout=5000 -c search_path=s2,public')}`,
      ),
    ).toBe('s2');
    expect(postgresSchema('postgres://u@h/db')).toBe('public');
  });

  it('is where the migrator creates the tables and where the Prisma client reads them (?schema=)', async (context) => {
    if (!(await postgresAvailable())) return context.skip('PostgreSQL is not available');
    const schema = `test_q_${randomBytes(5).toString('hex')}`;
    const url = `${POSTGRES_URL}${POSTGRES_URL.includes('?') ? '&' : '?'}schema=${schema}`;
    const dir = mkdtempSync(join(tmpdir(), 'line-gateway-schema-'));
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    try {
      const data = await openData(loadConfig({ DATABASE_URL: url, DATA_DIR: dir, JWT_SECRET: 'x'.repeat(32) }));
      try {
        expect((await data.settings.list()).map((setting) => setting.key)).toHaveLength(7);
        await data.directory.createUser({ name: 'in-schema' });
      } finally {
        await data.close();
      }
      const { rows } = await admin.query(`SELECT name FROM "${schema}"."User"`);
      expect(rows).toEqual([{ name: 'in-schema' }]);
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the pipeline on PostgreSQL', () => {
  let gateway: TestGateway | undefined;
  let ready = false;

  beforeAll(async () => {
    ready = await postgresAvailable();
    if (ready) gateway = await startGateway({ database: 'postgresql' });
  });
  afterAll(() => gateway?.close());

  it('suspends, changes plan, refuses duplicates and serves settings', async (context) => {
    if (!ready || !gateway) return context.skip('PostgreSQL is not available');
    const { token } = await gateway.user({ plans: ['BASIC', 'PREMIUM'] });
    const { token: admin } = await gateway.user({ superuser: true });

    const line = await seedUnknownLine(gateway);
    const suspended = await gateway.rest('POST', '/sim/suspend/', { token, body: { mdn: line.mdn } });
    expect(suspended.status).toBe(200);
    expect(suspended.body.transaction_id).toMatch(/^SUSPEND_[0-9A-F]{12}$/);
    const again = await gateway.graphql<{ suspendLine: { status: string; message: string } }>(
      'mutation ($mdn: String!) { suspendLine(input: { mdn: $mdn }) { status message } }',
      { token, variables: { mdn: line.mdn } },
    );
    expect(again.data?.suspendLine).toEqual({ status: 'FAILURE', message: 'Subscriber state not NEW or ACTIVE (935)' });

    const other = await seedUnknownLine(gateway);
    const changed = await gateway.rest('POST', '/sim/plan/change/', {
      token,
      body: { mdn: other.mdn, new_plan_id: 'PREMIUM' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.transaction_id).toMatch(/^PLAN_CHANGE_[0-9A-F]{12}$/);
    const refused = await gateway.rest('POST', '/sim/plan/change/', {
      token,
      body: { mdn: other.mdn, new_plan_id: 'GOLD' },
    });
    expect(refused.body).toEqual({
      status: 'failure',
      message: 'Plan GOLD is not authorized for this user',
      code: 'HTTP_403',
    });

    // The unique insert holds on PostgreSQL too: one of ten concurrent requests wins.
    const third = await seedUnknownLine(gateway);
    const id = `PG-RACE-${Date.now()}`;
    const statuses = await Promise.all(
      Array.from({ length: 10 }, () =>
        gateway!
          .rest('POST', '/sim/suspend/', { token, body: { mdn: third.mdn, transaction_id: id } })
          .then((answer) => answer.status),
      ),
    );
    expect(sorted(statuses.map(String))).toEqual(['200', ...Array(9).fill('409')]);
    const record = await gateway.graphql<{ transaction: { status: string } }>(
      'query ($id: String!) { transaction(id: $id) { status } }',
      { token, variables: { id } },
    );
    expect(record.data?.transaction.status).toBe('SUCCESS');

    const settings = await gateway.rest<Record<string, unknown>[]>('GET', '/settings/', { token: admin });
    expect(settings.body).toHaveLength(7);
    expect(
      (await gateway.rest('PUT', '/settings/maintenance_mode', { token: admin, body: { value: 'true' } })).status,
    ).toBe(200);
    const blocked = await gateway.graphql('query ($mdn: String!) { usage(mdn: $mdn) { status } }', {
      token,
      variables: { mdn: line.mdn },
    });
    expect(errorOf(blocked).code).toBe('MAINTENANCE');
    expect(
      (await gateway.rest('PUT', '/settings/maintenance_mode', { token: admin, body: { value: 'false' } })).status,
    ).toBe(200);
    expect(
      (await gateway.rest('PUT', '/settings/default_carrier', { token: admin, body: { value: '321' } })).status,
    ).toBe(422);
  });
});
