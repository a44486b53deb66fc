// One dedicated PostgreSQL connection per replica that LISTENs for the other replicas' cache
// changes (./cache-invalidation.ts). While it is down, changes could go unheard: the caches
// then keep entries ≤ 1 s, and once it listens again they drop everything, since whatever was
// announced meanwhile is lost. A heartbeat finds a connection that died without closing.

import pg from 'pg';
import type { Logger } from '../lib/logger.js';
import type { CacheInvalidation } from './cache-invalidation.js';

export interface CacheListenerTiming {
  /** How often the connection is checked, and how long the check may take. */
  heartbeatMs: number;
  /** Waits between reconnection attempts grow from this… */
  retryMinMs: number;
  /** …to this. */
  retryMaxMs: number;
}

const DEFAULT_TIMING: CacheListenerTiming = { heartbeatMs: 1000, retryMinMs: 100, retryMaxMs: 2000 };

/** The connection's application_name, so that pg_stat_activity tells whose listener it is. */
export const cacheListenerName = (invalidation: CacheInvalidation) => `line-gateway cache ${invalidation.replica}`;

export class PostgresCacheListener {
  private client: pg.Client | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private retryMs: number;
  private closed = false;
  private downLogged = false;

  constructor(
    private readonly connectionString: string,
    private readonly invalidation: CacheInvalidation,
    private readonly logger: Logger,
    private readonly onState: (listening: boolean) => void = () => undefined,
    private readonly timing: CacheListenerTiming = DEFAULT_TIMING,
  ) {
    this.retryMs = timing.retryMinMs;
  }

  /** Listens before it returns when the database answers; otherwise keeps trying in the background. */
  async start(): Promise<void> {
    await this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    await this.drop();
  }

  private async connect(): Promise<void> {
    this.retry = null;
    if (this.closed) return;
    const client = new pg.Client({
      connectionString: this.connectionString,
      keepAlive: true,
      application_name: cacheListenerName(this.invalidation),
    });
    // Until it is dropped, the error and end events of this client mean "down" (an error
    // before `connect` resolves is thrown by it as well).
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, null));
    client.on('notification', (message) => {
      if (message.payload !== undefined) this.invalidation.receive(message.payload);
    });
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN "${this.invalidation.channel!}"`);
    } catch (error) {
      this.lost(client, error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (this.client !== client || this.closed) return;
    this.retryMs = this.timing.retryMinMs;
    this.invalidation.hearing(true);
    this.onState(true);
    if (this.downLogged) this.logger.info('cache listener listening again: every cache was dropped');
    this.downLogged = false;
    this.heartbeat = setInterval(() => this.beat(client), this.timing.heartbeatMs);
    this.heartbeat.unref();
  }

  /** A check that fails or takes longer than a beat counts as a lost connection. */
  private beat(client: pg.Client): void {
    const timeout = setTimeout(() => this.lost(client, new Error('heartbeat timed out')), this.timing.heartbeatMs);
    client.query('SELECT 1').then(
      () => clearTimeout(timeout),
      (error: unknown) => {
        clearTimeout(timeout);
        this.lost(client, error instanceof Error ? error : new Error(String(error)));
      },
    );
  }

  private lost(client: pg.Client, error: Error | null): void {
    if (this.client !== client) return;
    this.client = null;
    void this.end(client);
    if (this.closed) return;
    this.invalidation.hearing(false);
    this.onState(false);
    if (!this.downLogged)
      this.logger.warn('cache listener lost its database connection: entries live ≤ 1 s until it listens again', {
        detail: error?.message ?? 'connection ended',
      });
    this.downLogged = true;
    this.retry = setTimeout(() => void this.connect(), this.retryMs);
    this.retry.unref();
    this.retryMs = Math.min(this.retryMs * 2, this.timing.retryMaxMs);
  }

  private async drop(): Promise<void> {
    const client = this.client;
    this.client = null;
    if (client) await this.end(client);
  }

  private async end(client: pg.Client): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    await client.end().catch(() => undefined);
  }
}
