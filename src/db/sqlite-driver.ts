// SQL statements sent to SQLite through Prisma's driver adapter itself instead of the client: a
// raw statement through the client costs ~0.18 ms of CPU (its request pipeline, query
// interpreter and tracing hooks), the same statement through the adapter ~0.05 ms; a model
// `findMany` of a few rows ~0.27 ms, the same SELECT ~0.03 ms. It is the client's own connection
// and the adapter converts the arguments exactly as it does for the client's raw statements, so
// what is written is what `$executeRaw` would write; a transaction takes the adapter's lock as the
// client's own transactions do, so neither runs inside the other. Writes go only in such a
// transaction: a write on its own (how the client sends a single statement) would join whatever
// client transaction is open on the one connection and be rolled back with it. For the
// transaction log of every write (src/pipeline/transaction-batch.ts) and a bulk job's line
// records (bulk-jobs/job-services.ts); everything else keeps the client.

import { keepPreparedStatements, type NativeDatabase, type PreparedStatements } from './prepared-statements.js';

/** A bound value: text, a number, NULL, or a DateTime (written as the client writes one). */
export type SqlValue = string | number | null | Date;

/** One statement, its `?` placeholders bound in order. */
export interface SqlStatement {
  sql: string;
  args: readonly SqlValue[];
}

/** The part of @prisma/driver-adapter-utils' SqlDriverAdapter used here. */
interface ArgType {
  scalarType: 'string' | 'int' | 'float' | 'datetime';
  arity: 'scalar';
}
interface SqlQuery {
  sql: string;
  args: SqlValue[];
  argTypes: ArgType[];
}
interface Queryable {
  queryRaw(query: SqlQuery): Promise<{ rows: unknown[][] }>;
  executeRaw(query: SqlQuery): Promise<number>;
}
interface Transaction extends Queryable {
  /** Both only release the adapter's lock: COMMIT and ROLLBACK are sent as statements. */
  commit(): Promise<void>;
  rollback(): Promise<void>;
}
export interface DriverAdapter extends Queryable {
  startTransaction(): Promise<Transaction>;
}

function argType(value: SqlValue): ArgType {
  const scalarType =
    value instanceof Date
      ? 'datetime'
      : typeof value === 'number'
        ? Number.isInteger(value)
          ? 'int'
          : 'float'
        : 'string';
  return { scalarType, arity: 'scalar' };
}

const query = ({ sql, args }: SqlStatement): SqlQuery => ({ sql, args: [...args], argTypes: args.map(argType) });

const COMMIT: SqlStatement = { sql: 'COMMIT', args: [] };
const ROLLBACK: SqlStatement = { sql: 'ROLLBACK', args: [] };

const placeholderLists = new Map<string, string>();

/** `(?, ?, …), (?, ?, …)`: `rows` rows of `columns` placeholders (built once per shape). */
export function placeholders(rows: number, columns: number): string {
  const shape = `${rows}x${columns}`;
  let list = placeholderLists.get(shape);
  if (list === undefined) {
    const row = `(${Array.from({ length: columns }, () => '?').join(', ')})`;
    list = Array.from({ length: rows }, () => row).join(', ');
    // Shapes are bounded by the batch sizes in use; the bound only guards against a surprise.
    if (placeholderLists.size < 1024) placeholderLists.set(shape, list);
  }
  return list;
}

/** better-sqlite3's Database under the adapter (its `client`), when the adapter exposes it. */
function nativeOf(adapter: DriverAdapter): NativeDatabase | undefined {
  const client = (adapter as { client?: unknown }).client;
  return typeof (client as NativeDatabase | undefined)?.prepare === 'function' ? (client as NativeDatabase) : undefined;
}

/** A bound value as the adapter binds it (its default `iso8601` timestamps: `…+00:00`). */
const nativeArg = (value: SqlValue): unknown =>
  value instanceof Date ? value.toISOString().replace('Z', '+00:00') : value;

/** A read value as the adapter answers it: its connection reads integers as BigInt. */
function nativeValue(value: unknown): unknown {
  if (typeof value !== 'bigint') return value;
  const asNumber = Number(value);
  return Number.isSafeInteger(asNumber) ? asNumber : value.toString();
}

export class SqliteDriver {
  private adapter?: DriverAdapter;
  /** The current connection's prepared statements, shared with the adapter (prepared-statements.ts). */
  private statements?: PreparedStatements;

  constructor(
    /** Connects the client (it opens its adapter on first use). */
    private readonly connect: () => Promise<void>,
    /** Told each statement's SQL, as the client's query events tell theirs (BEGIN and COMMIT not). */
    private readonly onStatement?: (sql: string) => void,
  ) {}

  /** The adapter the client has just opened (every connection it makes comes through here). */
  connected<A extends DriverAdapter>(adapter: A): A {
    this.adapter = adapter;
    const native = nativeOf(adapter);
    this.statements = native ? keepPreparedStatements(native) : undefined;
    return adapter;
  }

  /**
   * Runs a read on its own; answers its rows, columns in the SELECT's order. Like the client's
   * statements outside a transaction it does not wait for the adapter's lock, so it may run inside
   * a client transaction in progress: writes go through `transaction`, which does wait.
   */
  async query(statement: SqlStatement): Promise<unknown[][]> {
    const adapter = await this.ready();
    return this.run(adapter, statement);
  }

  /**
   * Runs the statements in one transaction, as the client's `$transaction([...])` does (BEGIN
   * under the adapter's lock, COMMIT; ROLLBACK at the first failure, which is thrown: nothing is
   * written). Answers each statement's rows (none for a write without RETURNING).
   */
  async transaction(statements: readonly SqlStatement[]): Promise<unknown[][][]> {
    const adapter = await this.ready();
    const transaction = await adapter.startTransaction();
    let committed = false;
    try {
      const results: unknown[][][] = [];
      for (const statement of statements) results.push(await this.run(transaction, statement));
      await transaction.executeRaw(query(COMMIT));
      committed = true;
      return results;
    } catch (error) {
      await transaction.executeRaw(query(ROLLBACK)).catch(() => undefined);
      throw error;
    } finally {
      await (committed ? transaction.commit() : transaction.rollback());
    }
  }

  /**
   * One statement on the adapter's connection, prepared once (by its SQL text); through the
   * adapter itself (`via`) when it does not expose its connection. The caller holds the lock it
   * needs, as for the adapter's own methods.
   */
  private async run(via: Queryable, statement: SqlStatement): Promise<unknown[][]> {
    this.onStatement?.(statement.sql);
    if (!this.statements) return (await via.queryRaw(query(statement))).rows;
    const prepared = this.statements.get(statement.sql);
    const args = statement.args.map(nativeArg);
    if (!prepared.reader) {
      prepared.run(...args);
      return [];
    }
    // Raw mode at each execution: the adapter runs the same statements.
    return prepared
      .raw(true)
      .all(...args)
      .map((row) => row.map(nativeValue));
  }

  private async ready(): Promise<DriverAdapter> {
    if (!this.adapter) await this.connect();
    if (!this.adapter) throw new Error('the SQLite driver adapter is not connected');
    return this.adapter;
  }
}
