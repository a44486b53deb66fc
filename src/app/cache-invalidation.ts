// Hears the cache changes this replica did not make (src/db/cache-invalidation.ts): the other
// replicas' through PostgreSQL LISTEN, the admin CLI's on SQLite through data_version. The
// server needs this; the CLI, whose caches live for one command, does not.

import type { Logger } from '../lib/logger.js';
import type { Metrics } from '../metrics.js';
import { DATA_VERSION_SQL, SqliteChangeWatch } from '../db/sqlite-change-watch.js';
import type { DataServices } from './data.js';

export interface CacheChangeReceiver {
  close(): Promise<void>;
}

export async function startCacheInvalidation(
  data: Pick<DataServices, 'db' | 'target' | 'invalidation'>,
  logger: Logger,
  metrics: Metrics,
): Promise<CacheChangeReceiver> {
  if (data.target.provider === 'sqlite') {
    const watch = new SqliteChangeWatch(data.db, data.invalidation);
    await watch.start();
    metrics.cacheListening.set(1);
    return { close: async () => watch.close() };
  }
  // Loaded only on PostgreSQL: pg is ~4 MB resident that a gateway on SQLite never uses.
  const { PostgresCacheListener } = await import('../db/postgres-cache-listener.js');
  const listener = new PostgresCacheListener(data.target.location, data.invalidation, logger, (listening) =>
    metrics.cacheListening.set(listening ? 1 : 0),
  );
  await listener.start();
  return { close: () => listener.close() };
}

/** Counts the statements sent to the database, but the SQLite watch's own poll. */
export function countQueries(metrics: Metrics): (sql: string) => void {
  return (sql) => {
    if (sql !== DATA_VERSION_SQL) metrics.databaseQueries.inc();
  };
}
