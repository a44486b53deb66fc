// Prepared statements kept for the SQLite connection under Prisma's driver adapter. The adapter
// prepares every statement it runs anew (`client.prepare(sql).bind(args)`): SQLite compiles the
// same SQL again each time, ~25 µs a statement, ~0.19 ms of a line mutation's ~2.3 ms of CPU
// (docs/performance.md, "Mutations"). Here each SQL text is compiled once per connection and
// kept (the most recently used PREPARED_STATEMENTS), and the adapter is handed, per call, a use
// of the kept statement bound to that call's values: what it runs, and how, is unchanged.

/** The part of better-sqlite3's Statement used here and by the adapter. */
export interface NativeStatement {
  readonly reader: boolean;
  raw(toggle?: boolean): NativeStatement;
  columns(): unknown[];
  all(...args: unknown[]): unknown[][];
  run(...args: unknown[]): unknown;
}

/** better-sqlite3's Database, as far as statements go. */
export interface NativeDatabase {
  prepare(sql: string): NativeStatement;
}

/**
 * Statement texts in use: Prisma's SQL for the models' queries (an `IN (?, …)` list has a text
 * per length, up to a `lines` request's 100 MDNs) and the bulk jobs' batched statements.
 */
export const PREPARED_STATEMENTS = 512;

/** One connection's statements by SQL text, least recently used evicted first. */
export class PreparedStatements {
  private readonly statements = new Map<string, NativeStatement>();

  constructor(
    private readonly prepare: (sql: string) => NativeStatement,
    private readonly limit = PREPARED_STATEMENTS,
  ) {}

  /** The statement for `sql`, compiled on first use (a statement that does not compile throws, and is not kept). */
  get(sql: string): NativeStatement {
    let statement = this.statements.get(sql);
    if (statement) {
      // Map keeps insertion order: re-inserting marks it the most recently used.
      this.statements.delete(sql);
    } else {
      statement = this.prepare(sql);
      if (this.statements.size >= this.limit) this.statements.delete(this.statements.keys().next().value!);
    }
    this.statements.set(sql, statement);
    return statement;
  }

  get size(): number {
    return this.statements.size;
  }
}

/**
 * Makes `database.prepare` answer from kept statements, for the adapter that owns the
 * connection; returns them, for other code on the same connection. A miss runs the Database's
 * own `prepare`, looked up on its prototype at each miss.
 */
export function keepPreparedStatements(database: NativeDatabase): PreparedStatements {
  const own = Object.getPrototypeOf(database) as NativeDatabase;
  const statements = new PreparedStatements((sql) => own.prepare.call(database, sql));
  database.prepare = (sql: string) => new StatementUse(statements.get(sql)) as unknown as NativeStatement;
  return statements;
}

/**
 * What the adapter does with a prepared statement, for one call: `bind` the call's values once,
 * then `run`, or `columns` and `raw().all()` (`prepare("BEGIN").run()` binds nothing). A kept
 * statement cannot be bound (a better-sqlite3 binding is permanent), so the values travel with
 * each execution instead; raw mode is set at each execution, as the statement is shared.
 */
class StatementUse {
  private values: unknown[] = [];
  private bound = false;
  private rawRows = false;

  constructor(private readonly statement: NativeStatement) {}

  get reader(): boolean {
    return this.statement.reader;
  }

  bind(...values: unknown[]): this {
    if (this.bound) throw new TypeError('The bind() method can only be invoked once per statement object');
    this.bound = true;
    this.values = values;
    return this;
  }

  raw(toggle = true): this {
    this.rawRows = toggle;
    return this;
  }

  columns(): unknown[] {
    return this.statement.columns();
  }

  run(): unknown {
    return this.statement.run(...this.values);
  }

  all(): unknown[][] {
    return this.statement.raw(this.rawRows).all(...this.values);
  }
}
