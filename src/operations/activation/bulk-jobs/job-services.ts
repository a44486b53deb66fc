// The services a bulk activation job's SIMs run with: the shared ones, but with the transaction
// log and the line registry's `record` committing in groups, so that the SIMs in flight together
// share one INSERT of their reservations, one transaction of their completions and line events,
// and one transaction of their line records. Each SIM still waits for its own rows to commit, so
// a crash leaves exactly what it would leave with one SIM at a time (see docs/performance.md).

import { parseDatabaseUrl, sqliteDriver, type Database } from '../../../db/client.js';
import { eachAlone, GroupCommit } from '../../../lib/group-commit.js';
import type { LineRegistry, RecordedLine } from '../../../lines/registry.js';
import type { Services } from '../../../pipeline/services.js';
import { GroupCommitTransactionLog } from '../../../pipeline/transaction-batch.js';
import { insertLines } from '../../../pipeline/transaction-sql.js';

function groupRecording(lines: LineRegistry, db: Database, rawSql: boolean): LineRegistry {
  const records = new GroupCommit<RecordedLine>(async (batch) => {
    // On SQLite even a lone line: its SQL INSERT costs less than `record`'s two model statements.
    if (rawSql || batch.length > 1) {
      try {
        const items = batch.map(({ item }) => item);
        await (rawSql ? lines.recordMany(items, (rows) => insertLines(db, rows)) : lines.recordMany(items));
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

export function groupCommitting(services: Services): Services {
  const rawSql = parseDatabaseUrl(services.config.DATABASE_URL).provider === 'sqlite';
  return {
    ...services,
    transactions: new GroupCommitTransactionLog(
      services.db,
      () => services.outbox.eventWritten(),
      (rawSql && sqliteDriver(services.db)) || null,
    ),
    lines: groupRecording(services.lines, services.db, rawSql),
  };
}
