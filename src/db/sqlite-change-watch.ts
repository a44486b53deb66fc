// SQLite runs one replica, which drops its own changes as it makes them; but the admin CLI
// writes to the same file from its own process. SQLite's data_version, read on the gateway's
// own connection, changes exactly when another connection has committed: then every cache is
// dropped, so a token revoked or a user deactivated from the CLI is refused within a poll.

import type { Database } from './client.js';
import type { CacheInvalidation } from './cache-invalidation.js';

/** The statement polled (the query counter leaves it out: it is not the request path's). */
export const DATA_VERSION_SQL = 'PRAGMA data_version';

export const SQLITE_WATCH_MS = 250;

export class SqliteChangeWatch {
  private timer: NodeJS.Timeout | null = null;
  private version: string | null = null;
  private polling = false;

  constructor(
    private readonly db: Database,
    private readonly invalidation: CacheInvalidation,
    private readonly intervalMs = SQLITE_WATCH_MS,
  ) {}

  async start(): Promise<void> {
    await this.poll();
    this.timer = setInterval(() => void this.poll(), this.intervalMs);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const rows = await this.db.$queryRawUnsafe<{ data_version: bigint | number }[]>(DATA_VERSION_SQL);
      const version = String(rows[0]?.data_version);
      if (this.version !== null && version !== this.version) this.invalidation.apply([{ kind: 'everything' }]);
      this.version = version;
    } catch {
      // Closing, or the file is busy: the next poll asks again.
    } finally {
      this.polling = false;
    }
  }
}
