// O(1) stores for graphql-rate-limit. The library reads an identity's timestamps, decides, then
// writes them back; both stores hold a per-identity lock from that read to that write, so
// concurrent requests (on one replica, or across replicas through Redis) cannot both read the
// same old list and slip past the limit.

import type { Redis } from 'ioredis';
import { smallNow } from '../lib/small-clock.js';

export interface Identity {
  contextIdentity: string;
  fieldIdentity: string;
}

/** graphql-rate-limit's Store contract, plus a read for computing Retry-After. */
export interface RateLimitStore {
  getForIdentity(identity: Identity): Promise<readonly number[]>;
  setForIdentity(identity: Identity, timestamps: readonly number[], windowMs?: number): Promise<void>;
  peek(identity: Identity): Promise<readonly number[]>;
}

const keyOf = (identity: Identity) => `${identity.contextIdentity}:${identity.fieldIdentity}`;

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly timestamps = new Map<string, { values: readonly number[]; expiresAt: number }>();
  private readonly locks = new Map<string, { release: () => void; done: Promise<void> }>();
  private sweepAt = 0;

  async getForIdentity(identity: Identity): Promise<readonly number[]> {
    const key = keyOf(identity);
    while (this.locks.has(key)) await this.locks.get(key)!.done;
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    this.locks.set(key, { release, done });
    return this.read(key);
  }

  async setForIdentity(identity: Identity, timestamps: readonly number[], windowMs = 60_000): Promise<void> {
    const key = keyOf(identity);
    // A copy of exactly its length: the library builds the list with filter and push, which
    // leaves room for 17 numbers (152 bytes) where a user inside the limits has a handful.
    this.timestamps.set(key, { values: timestamps.slice(), expiresAt: smallNow() + windowMs });
    const lock = this.locks.get(key);
    this.locks.delete(key);
    lock?.release();
    this.sweep();
  }

  async peek(identity: Identity): Promise<readonly number[]> {
    return this.read(keyOf(identity));
  }

  private read(key: string): readonly number[] {
    const entry = this.timestamps.get(key);
    return entry && entry.expiresAt > smallNow() ? entry.values : [];
  }

  /** Drops expired identities now and then so memory follows active users, not all users ever. */
  private sweep(): void {
    const now = smallNow();
    if (now < this.sweepAt) return;
    this.sweepAt = now + 60_000;
    for (const [key, entry] of this.timestamps) if (entry.expiresAt <= now) this.timestamps.delete(key);
  }
}

export class RedisRateLimitStore implements RateLimitStore {
  private readonly prefix = 'line-gateway:rate:';

  constructor(private readonly redis: Redis) {}

  async getForIdentity(identity: Identity): Promise<readonly number[]> {
    const key = this.prefix + keyOf(identity);
    // A short-lived lock: if a holder dies between read and write it expires by itself.
    for (let attempt = 0; attempt < 200; attempt++) {
      if ((await this.redis.set(`${key}:lock`, '1', 'PX', 2000, 'NX')) === 'OK') break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return this.peekKey(key);
  }

  async setForIdentity(identity: Identity, timestamps: readonly number[], windowMs = 60_000): Promise<void> {
    const key = this.prefix + keyOf(identity);
    await this.redis.multi().set(key, JSON.stringify(timestamps), 'PX', windowMs).del(`${key}:lock`).exec();
  }

  peek(identity: Identity): Promise<readonly number[]> {
    return this.peekKey(this.prefix + keyOf(identity));
  }

  private async peekKey(key: string): Promise<readonly number[]> {
    const raw = await this.redis.get(key);
    return raw ? (JSON.parse(raw) as number[]) : [];
  }
}
