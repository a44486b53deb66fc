// Opens the gateway's database: SQLite (the embedded default) or PostgreSQL, chosen by the
// URL, each through its Prisma driver adapter. Both generated clients share one model API.

import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Prisma, PrismaClient as SqliteClient } from '../generated/sqlite/client.js';
import type { Logger } from '../lib/logger.js';
import { SqliteDriver } from './sqlite-driver.js';

/** The client type the repositories are written against (identical for both providers). */
export type Database = SqliteClient;
/** The client inside an interactive `$transaction` (every model, no nested transactions). */
export type DatabaseTransaction = Prisma.TransactionClient;
export type DatabaseProvider = 'sqlite' | 'postgresql';

export interface DatabaseTarget {
  provider: DatabaseProvider;
  /** Absolute file path for SQLite, the connection string for PostgreSQL. */
  location: string;
}

export function parseDatabaseUrl(url: string): DatabaseTarget {
  if (url.startsWith('file:')) {
    const path = url.slice('file:'.length);
    return { provider: 'sqlite', location: path === ':memory:' ? path : resolve(path) };
  }
  return { provider: 'postgresql', location: url };
}

/**
 * The PostgreSQL schema a URL names: Prisma's `?schema=` parameter, else the first entry of a
 * `search_path` set through `?options=-c search_path=…`, else "public".
 */
export function postgresSchema(url: string): string {
  let params: URLSearchParams;
  try {
    params = new URL(url).searchParams;
  } catch {
    return 'public';
  }
  const named = params.get('schema');
  if (named) return named;
  const searchPath = /(?:^|\s)-c\s*search_path\s*=\s*([^\s,]+)/.exec(params.get('options') ?? '')?.[1];
  return searchPath ? searchPath.replace(/^"(.*)"$/, '$1') : 'public';
}

/** A PostgreSQL identifier, quoted. */
export const quoteIdentifier = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * The connection option that makes the URL's schema every connection's search_path, so that
 * raw statements (unqualified table names) reach the tables Prisma's own queries qualify with
 * it. Options in the URL itself win (pg reads the URL over its config).
 */
const searchPathOption = (schema: string) => `-c search_path=${quoteIdentifier(schema).replace(/[\\ ]/g, '\\$&')}`;

// Prisma's own warnings and errors become events for the JSON logger instead of plain text on
// stderr; errors also reach the caller as exceptions (a unique violation may be a 409), so they
// are logged at debug only.
const LOG_EVENTS = [
  { emit: 'event', level: 'warn' },
  { emit: 'event', level: 'error' },
] as const;

export interface DatabaseOptions {
  logger?: Logger;
  /** Called with the SQL of every statement sent (the gateway counts them: none on the hot path). */
  onQuery?: (sql: string) => void;
}

/** The log events to ask Prisma for: a query event only for a caller that counts them. */
function logEvents(options: DatabaseOptions) {
  return options.onQuery ? [...LOG_EVENTS, { emit: 'event', level: 'query' } as const] : [...LOG_EVENTS];
}

function routeLogs(
  client: {
    $on<V extends 'warn' | 'error' | 'query'>(
      event: V,
      callback: (event: V extends 'query' ? { query: string } : { message: string; target: string }) => void,
    ): unknown;
  },
  { logger, onQuery }: DatabaseOptions,
): void {
  if (onQuery) client.$on('query', (event) => onQuery(event.query));
  if (!logger) return;
  client.$on('warn', (event) => logger.warn('database warning', { detail: event.message, target: event.target }));
  client.$on('error', (event) => logger.debug('database error', { detail: event.message, target: event.target }));
}

const sqliteDrivers = new WeakMap<Database, SqliteDriver>();

/** The driver adapter under a SQLite client opened here, for statements that skip the client; none for PostgreSQL. */
export function sqliteDriver(db: Database): SqliteDriver | undefined {
  return sqliteDrivers.get(db);
}

/**
 * Creates a SQLite database's directory, and its file readable by this user only when it does
 * not exist yet: it holds webhook secrets and transaction answers, and SQLite gives the -wal and
 * -shm files the database file's mode. An existing file keeps the mode its operator gave it.
 */
export function prepareSqliteFile(location: string): void {
  if (location === ':memory:') return;
  mkdirSync(dirname(location), { recursive: true });
  try {
    closeSync(openSync(location, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** Loads only the chosen provider's client and driver (each carries its own query compiler). */
export async function openDatabase(target: DatabaseTarget, options: DatabaseOptions = {}): Promise<Database> {
  if (target.provider === 'sqlite') {
    prepareSqliteFile(target.location);
    const [{ PrismaClient }, { PrismaBetterSqlite3 }] = await Promise.all([
      import('../generated/sqlite/client.js'),
      import('@prisma/adapter-better-sqlite3'),
    ]);
    // A busy timeout lets concurrent writers (two replicas, or the CLI beside the server) queue
    // instead of failing with SQLITE_BUSY.
    const adapter = new PrismaBetterSqlite3({ url: target.location, timeout: 10_000 });
    const client = new PrismaClient({ adapter, log: logEvents(options) });
    const driver = new SqliteDriver(() => client.$connect(), options.onQuery);
    const connect = adapter.connect.bind(adapter);
    adapter.connect = async () => driver.connected(await connect());
    routeLogs(client, options);
    sqliteDrivers.set(client as unknown as Database, driver);
    return client as unknown as Database;
  }
  const [{ PrismaClient }, { PrismaPg }] = await Promise.all([
    import('../generated/postgresql/client.js'),
    import('@prisma/adapter-pg'),
  ]);
  // Prisma qualifies every table with a schema name (default "public") instead of following
  // the connection's search_path, so it must be told the schema the migrator used; the raw
  // statements follow the search_path, set to the same schema.
  const schema = postgresSchema(target.location);
  const adapter = new PrismaPg(
    { connectionString: target.location, max: 10, options: searchPathOption(schema) },
    { schema },
  );
  const client = new PrismaClient({ adapter, log: logEvents(options) });
  routeLogs(client, options);
  // Same schema, same model API: the generated types differ only in their provider tag.
  return client as unknown as Database;
}
