// Announces every change to what the replicas cache (tokens, users, plans, authorizations,
// settings, line homes), so that those caches can keep entries for minutes (CACHE_TTL_MS):
// the replica that made the change drops it at once, and on PostgreSQL the other replicas
// hear it from a NOTIFY sent inside the writing transaction (delivered only on commit, so never
// ahead of the data nor for a write rolled back; ./postgres-cache-listener.ts receives it).
// SQLite runs one replica: a change made by another process (the admin CLI) is noticed by
// ./sqlite-change-watch.ts. While changes may be missed, entries live ≤ 1 s.

import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Database, DatabaseTarget } from './client.js';
import { postgresSchema } from './client.js';
import type { Prisma } from '../generated/sqlite/client.js';
import type { CacheBounds } from '../lib/ttl-cache.js';

type PrismaPromise<T> = Prisma.PrismaPromise<T>;

export type CacheChange =
  | { kind: 'token'; id: string }
  | { kind: 'user'; id: string }
  | { kind: 'plan'; planId: string }
  | { kind: 'authorizations'; userId: string }
  | { kind: 'settings' }
  /** Line homes by MDN, and the owners whose list of lines may have changed. */
  | { kind: 'lines'; mdns: string[]; owners: string[] }
  /** Notifications may have been missed: drop everything. */
  | { kind: 'everything' };

export type CacheListener = (change: CacheChange) => void;

/** What a cache owner reads: how long an entry may live now, how many it may hold, and the changes to drop. */
export interface CacheFeed extends CacheBounds {
  subscribe(listener: CacheListener): void;
}

/** Longest life of an entry while changes made elsewhere may go unheard (listener down). */
export const UNHEARD_LIFETIME_MS = 1000;

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7900;

const changeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('token'), id: z.string() }),
  z.object({ kind: z.literal('user'), id: z.string() }),
  z.object({ kind: z.literal('plan'), planId: z.string() }),
  z.object({ kind: z.literal('authorizations'), userId: z.string() }),
  z.object({ kind: z.literal('settings') }),
  z.object({ kind: z.literal('lines'), mdns: z.array(z.string()), owners: z.array(z.string()) }),
  z.object({ kind: z.literal('everything') }),
]);
const announcementSchema = z.object({ replica: z.string(), changes: z.array(changeSchema) });

/** The NOTIFY channel of one database schema (channels are per database, schemas share them). */
export function cacheChannel(target: DatabaseTarget): string | null {
  if (target.provider !== 'postgresql') return null;
  const schema = postgresSchema(target.location);
  return `line_gateway_cache_${createHash('sha256').update(schema).digest('hex').slice(0, 16)}`;
}

export class CacheInvalidation implements CacheFeed {
  /** Tells this replica's announcements from the others' (its own are applied at commit). */
  readonly replica = randomUUID();
  private readonly listeners: CacheListener[] = [];
  /** False while another replica's change could go unheard. */
  private heard: boolean;

  constructor(
    private readonly db: Database,
    private readonly ttlMs: number,
    /** The NOTIFY channel on PostgreSQL; null on SQLite (one replica). */
    readonly channel: string | null,
    /** Most entries of each cache (CACHE_MAX_ENTRIES). */
    readonly maxEntries: number,
  ) {
    // On PostgreSQL nothing is heard until a listener has started (the CLI never starts one).
    this.heard = channel === null;
  }

  lifetimeMs(): number {
    return this.heard ? this.ttlMs : Math.min(this.ttlMs, UNHEARD_LIFETIME_MS);
  }

  subscribe(listener: CacheListener): void {
    this.listeners.push(listener);
  }

  /** Runs the writes in one transaction that announces the changes, then drops them here. */
  async write<T extends readonly unknown[]>(
    changes: readonly CacheChange[],
    writes: { [K in keyof T]: PrismaPromise<T[K]> },
  ): Promise<T> {
    const statements = [...(writes as readonly PrismaPromise<unknown>[])];
    try {
      const results = await this.db.$transaction([...statements, ...this.announcement(this.db, changes)]);
      return results.slice(0, statements.length) as unknown as T;
    } finally {
      // Also after a failure: whether it committed may be unknown, and a drop is always safe.
      this.apply(changes);
    }
  }

  /**
   * The statement that announces the changes, to run inside an interactive transaction
   * (then call `apply` after it commits); none on SQLite.
   */
  announcement(client: Pick<Database, '$executeRawUnsafe'>, changes: readonly CacheChange[]): PrismaPromise<number>[] {
    if (this.channel === null || changes.length === 0) return [];
    let payload = JSON.stringify({ replica: this.replica, changes });
    if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES)
      payload = JSON.stringify({ replica: this.replica, changes: [{ kind: 'everything' }] });
    return [client.$executeRawUnsafe('SELECT pg_notify($1, $2)', this.channel, payload)];
  }

  /** Drops the changes from this replica's caches. */
  apply(changes: readonly CacheChange[]): void {
    for (const change of changes) for (const listener of this.listeners) listener(change);
  }

  /** A NOTIFY payload from any replica: another's changes are dropped, garbage drops everything. */
  receive(payload: string): void {
    let parsed: z.infer<typeof announcementSchema>;
    try {
      parsed = announcementSchema.parse(JSON.parse(payload));
    } catch {
      this.apply([{ kind: 'everything' }]);
      return;
    }
    if (parsed.replica !== this.replica) this.apply(parsed.changes);
  }

  /**
   * The listener's state: while changes may go unheard entries live ≤ 1 s; when it hears
   * again, what was cached meanwhile may have missed a change. Either way everything is dropped.
   */
  hearing(heard: boolean): void {
    this.heard = heard;
    this.apply([{ kind: 'everything' }]);
  }

  isHearing(): boolean {
    return this.heard;
  }
}
