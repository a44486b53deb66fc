// Applies the SQL migrations in prisma/<provider>/migrations at start-up and records them in
// `_prisma_migrations` exactly as Prisma does (so `prisma migrate status` on a connected
// machine agrees). Safe when several replicas start at once: PostgreSQL takes Prisma's own
// advisory lock, SQLite an immediate (write) transaction, once the file is in WAL mode.

import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Sqlite from 'better-sqlite3';
import { packageRoot } from '../lib/package-root.js';
import { postgresSchema, prepareSqliteFile, quoteIdentifier, type DatabaseTarget } from './client.js';

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

/** Prisma's advisory lock key for migrations. */
const PRISMA_MIGRATE_LOCK = 72707369;

export function migrationsFolder(provider: DatabaseTarget['provider'], root = packageRoot()): string {
  return join(root, 'prisma', provider, 'migrations');
}

/** The folder's migrations in order. A missing folder is an error: starting on an empty schema would fail later, and obscurely. */
export function readMigrations(folder: string): Migration[] {
  if (!existsSync(folder))
    throw new Error(
      `the database migrations folder ${folder} is missing: the gateway needs its prisma/ folder beside dist/ (see docs/deploy.md)`,
    );
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(folder, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

export interface MigrationReport {
  applied: string[];
  alreadyApplied: string[];
}

export async function migrate(target: DatabaseTarget): Promise<MigrationReport> {
  const migrations = readMigrations(migrationsFolder(target.provider));
  return target.provider === 'sqlite'
    ? migrateSqlite(target.location, migrations)
    : migratePostgres(target.location, migrations);
}

function assertUnchanged(migration: Migration, recordedChecksum: string | undefined): boolean {
  if (recordedChecksum === undefined) return false;
  if (recordedChecksum !== migration.checksum) {
    throw new Error(`Migration ${migration.name} was changed after it was applied; add a new migration instead`);
  }
  return true;
}

/** How long a SQLite migrator waits for another one (a replica starting beside it). */
const SQLITE_BUSY_TIMEOUT_MS = 15_000;

/**
 * Switches the file to WAL. Two connections switching a fresh file at once, or one switching
 * while another writes, get SQLITE_BUSY at once: SQLite does not call the busy handler when
 * waiting could deadlock (the switch upgrades a shared lock). So the switch is retried, until
 * the busy timeout.
 */
async function useWal(db: Sqlite.Database): Promise<void> {
  const deadline = Date.now() + SQLITE_BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      await sleep(10 + Math.random() * 40);
    }
  }
}

async function migrateSqlite(location: string, migrations: Migration[]): Promise<MigrationReport> {
  prepareSqliteFile(location);
  const db = new Sqlite(location, { timeout: SQLITE_BUSY_TIMEOUT_MS });
  try {
    await useWal(db);
    db.pragma('foreign_keys = ON');
    const report: MigrationReport = { applied: [], alreadyApplied: [] };
    db.transaction(() => {
      db.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
        "id" TEXT PRIMARY KEY NOT NULL, "checksum" TEXT NOT NULL, "finished_at" DATETIME,
        "migration_name" TEXT NOT NULL, "logs" TEXT, "rolled_back_at" DATETIME,
        "started_at" DATETIME NOT NULL DEFAULT current_timestamp, "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0)`);
      const rows = db
        .prepare(
          `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
        )
        .all() as { migration_name: string; checksum: string }[];
      const recorded = new Map(rows.map((row) => [row.migration_name, row.checksum]));
      for (const migration of migrations) {
        if (assertUnchanged(migration, recorded.get(migration.name))) {
          report.alreadyApplied.push(migration.name);
          continue;
        }
        db.exec(migration.sql);
        const now = Date.now();
        db.prepare(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES (?, ?, ?, ?, ?, 1)`,
        ).run(randomUUID(), migration.checksum, now, migration.name, now);
        report.applied.push(migration.name);
      }
    }).immediate();
    return report;
  } finally {
    db.close();
  }
}

async function migratePostgres(connectionString: string, migrations: Migration[]): Promise<MigrationReport> {
  // Loaded here, not at the top: a gateway on SQLite never needs pg (~4 MB resident).
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString });
  await client.connect();
  const report: MigrationReport = { applied: [], alreadyApplied: [] };
  try {
    await client.query('SELECT pg_advisory_lock($1)', [PRISMA_MIGRATE_LOCK]);
    // The schema the Prisma client will query (see postgresSchema): created when missing, as
    // `prisma migrate deploy` does, and made the target of the unqualified migration SQL.
    // Checked first: CREATE SCHEMA needs the database's CREATE privilege even when it exists.
    const schemaName = postgresSchema(connectionString);
    const schema = quoteIdentifier(schemaName);
    const { rowCount } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schemaName]);
    if (!rowCount) await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(`SET search_path TO ${schema}`);
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL, "checksum" VARCHAR(64) NOT NULL, "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL, "logs" TEXT, "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(), "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`);
    const { rows } = await client.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const recorded = new Map(rows.map((row) => [row.migration_name, row.checksum]));
    for (const migration of migrations) {
      if (assertUnchanged(migration, recorded.get(migration.name))) {
        report.alreadyApplied.push(migration.name);
        continue;
      }
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES ($1, $2, now(), $3, now(), 1)`,
          [randomUUID(), migration.checksum, migration.name],
        );
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
      report.applied.push(migration.name);
    }
    return report;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [PRISMA_MIGRATE_LOCK]).catch(() => undefined);
    await client.end();
  }
}
