// The services a bulk activation job's SIMs run with: the shared ones, but with the transaction
// log and the line registry's `record` committing in groups, so that the SIMs in flight together
// share one INSERT of their reservations, one transaction of their completions and line events,
// and one transaction of their line records. Each SIM still waits for its own rows to commit, so
// a crash leaves exactly what it would leave with one SIM at a time (see docs/performance.md).
// Their line events wake the outbox relay at most every RELAY_WAKE_MS.

import { sqliteDriver } from '../../../db/client.js';
import type { SqliteDriver } from '../../../db/sqlite-driver.js';
import { eachAlone, GroupCommit } from '../../../lib/group-commit.js';
import type { LineRegistry, LineWriter, RecordedLine } from '../../../lines/registry.js';
import type { Services } from '../../../pipeline/services.js';
import { GroupCommitTransactionLog } from '../../../pipeline/transaction-batch.js';
import { existingLines, insertLines } from '../../../pipeline/transaction-sql.js';

function groupRecording(lines: LineRegistry, sql: SqliteDriver | null): LineRegistry {
  const writer: LineWriter | undefined = sql
    ? {
        existing: async (mdns) => new Set((await sql.query(existingLines(mdns))).map(([mdn]) => String(mdn))),
        insert: (rows) => sql.transaction([insertLines(rows)]),
      }
    : undefined;
  const records = new GroupCommit<RecordedLine>(async (batch) => {
    // On SQLite even a lone line: its SQL INSERT costs less than `record`'s two model statements.
    if (sql || batch.length > 1) {
      try {
        await lines.recordMany(
          batch.map(({ item }) => item),
          writer,
        );
        return batch.forEach((waiting) => waiting.resolve());
      } catch {
        // Nothing written (one transaction): each alone, so that one failure stays its own.
      }
    }
    await eachAlone(batch, (line) => lines.record(line));
  });
  // Every other member is the registry's own (its caches included).
  const grouped = Object.create(lines) as LineRegistry;
  grouped.record = (line) => records.add(line);
  return grouped;
}

/**
 * How often at most the jobs' committed line events wake the outbox relay. Each wake is a relay
 * pass (three client statements); a job commits events every few ms, which woke it 100–140 times
 * per 1,000 SIMs. A job's events reach subscribers and webhooks up to this much later; a lone
 * activation's still wake the relay at once.
 */
const RELAY_WAKE_MS = 100;

/** Calls `fn` at once, then at most once every `ms`: a call meanwhile is deferred to the end of the wait, never dropped. */
function atMostEvery(ms: number, fn: () => void): () => void {
  let last = 0;
  let deferred: NodeJS.Timeout | undefined;
  const run = () => {
    deferred = undefined;
    last = Date.now();
    fn();
  };
  return () => {
    if (deferred) return;
    const wait = last + ms - Date.now();
    if (wait <= 0) run();
    else deferred = setTimeout(run, wait);
  };
}

export function groupCommitting(services: Services): Services {
  // SQLite's, through its driver adapter; none on PostgreSQL.
  const sql = sqliteDriver(services.db) ?? null;
  return {
    ...services,
    transactions: new GroupCommitTransactionLog(
      services.db,
      atMostEvery(RELAY_WAKE_MS, () => services.outbox.eventWritten()),
      sql,
    ),
    lines: groupRecording(services.lines, sql),
  };
}
