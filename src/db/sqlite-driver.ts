// SQL statements sent to SQLite through Prisma's driver adapter itself instead of the client: a
// raw statement through the client costs ~0.18 ms of CPU (its request pipeline, query
// interpreter and tracing hooks), the same statement through the adapter ~0.05 ms; a model
// `findMany` of a few rows ~0.27 ms, the same SELECT ~0.03 ms. It is the client's own connection
// and the adapter converts the arguments exactly as it does for the client's raw statements, so
// what is written is what `$executeRaw` would write; a transaction takes the adapter's lock as the
// client's own transactions do, so neither runs inside the other. Writes go only in such a
// transaction: a write on its own (how the client sends a single statement) would join whatever
// client transaction is open on the one connection and be rolled back with it. For the few
// statements a bulk job sends per SIM (src/pipeline/transaction-batch.ts, bulk-jobs/job-services.ts);
// everything else keeps the client.

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

/** `(?, ?, …), (?, ?, …)`: `rows` rows of `columns` placeholders. */
export function placeholders(rows: number, columns: number): string {
  const row = `(${Array.from({ length: columns }, () => '?').join(', ')})`;
  return Array.from({ length: rows }, () => row).join(', ');
}

export class SqliteDriver {
  private adapter?: DriverAdapter;

  constructor(
    /** Connects the client (it opens its adapter on first use). */
    private readonly connect: () => Promise<void>,
  ) {}

  /** The adapter the client has just opened (every connection it makes comes through here). */
  connected<A extends DriverAdapter>(adapter: A): A {
    this.adapter = adapter;
    return adapter;
  }

  /**
   * Runs a read on its own; answers its rows, columns in the SELECT's order. Like the client's
   * statements outside a transaction it does not wait for the adapter's lock, so it may run inside
   * a client transaction in progress: writes go through `transaction`, which does wait.
   */
  async query(statement: SqlStatement): Promise<unknown[][]> {
    return (await (await this.ready()).queryRaw(query(statement))).rows;
  }

  /**
   * Runs the statements in one transaction, as the client's `$transaction([...])` does (BEGIN
   * under the adapter's lock, COMMIT; ROLLBACK at the first failure, which is thrown: nothing is
   * written). Answers each statement's rows (none for a write without RETURNING).
   */
  async transaction(statements: readonly SqlStatement[]): Promise<unknown[][][]> {
    const transaction = await (await this.ready()).startTransaction();
    let committed = false;
    try {
      const results: unknown[][][] = [];
      for (const statement of statements) results.push((await transaction.queryRaw(query(statement))).rows);
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

  private async ready(): Promise<DriverAdapter> {
    if (!this.adapter) await this.connect();
    if (!this.adapter) throw new Error('the SQLite driver adapter is not connected');
    return this.adapter;
  }
}
