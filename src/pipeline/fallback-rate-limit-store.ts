// Shared rate-limit counters in Redis, with per-replica counters in memory while Redis is
// unreachable: a rate-limited operation never fails or stalls because Redis does. The limit
// still applies during an outage, per replica; the shared counters are used again once Redis
// is back. An outage is logged once (warn), its end once (info), and both are metrics.

import type { Redis } from 'ioredis';
import type { Logger } from '../lib/logger.js';
import type { Metrics } from '../metrics.js';
import { MemoryRateLimitStore, RedisRateLimitStore, type Identity, type RateLimitStore } from './rate-limit-store.js';

const SKIP_AFTER_FAILURE_MS = 5_000;

const keyOf = (identity: Identity) => `${identity.contextIdentity}:${identity.fieldIdentity}`;

export class FallbackRateLimitStore implements RateLimitStore {
  private readonly shared: RedisRateLimitStore;
  private readonly local = new MemoryRateLimitStore();
  /** Which store served the read of an identity, so that its write goes to the same one. */
  private readonly readFrom = new Map<string, RateLimitStore>();
  private outage = false;
  /** After a failed command on a connected Redis (hung, not closed), Redis is left alone until then. */
  private skipUntil = 0;

  constructor(
    private readonly redis: Redis,
    private readonly logger: Logger,
    private readonly metrics: Metrics,
  ) {
    this.shared = new RedisRateLimitStore(redis);
    if (redis.status === 'ready') metrics.redisUp.set(1);
    else this.lost(new Error(`not connected (${redis.status})`));
    redis.on('ready', () => this.recovered());
    redis.on('error', (error: Error) => this.lost(error));
    redis.on('end', () => this.metrics.redisUp.set(0));
  }

  async getForIdentity(identity: Identity): Promise<readonly number[]> {
    const store = await this.attempt((target) => target.getForIdentity(identity));
    this.readFrom.set(keyOf(identity), store.used);
    return store.value;
  }

  async setForIdentity(identity: Identity, timestamps: readonly number[], windowMs?: number): Promise<void> {
    const key = keyOf(identity);
    const used = this.readFrom.get(key);
    this.readFrom.delete(key);
    if (used === this.local) return this.local.setForIdentity(identity, timestamps, windowMs);
    await this.attempt((target) => target.setForIdentity(identity, timestamps, windowMs));
  }

  async peek(identity: Identity): Promise<readonly number[]> {
    return (await this.attempt((target) => target.peek(identity))).value;
  }

  /** Runs `action` on Redis when it is connected, else (or when it fails) on the local store. */
  private async attempt<T>(action: (store: RateLimitStore) => Promise<T>): Promise<{ value: T; used: RateLimitStore }> {
    if (this.redis.status === 'ready' && Date.now() >= this.skipUntil) {
      try {
        const value = await action(this.shared);
        if (this.outage) this.recovered();
        return { value, used: this.shared };
      } catch (error) {
        // A timed-out command leaves the connection up: without a pause every request would wait for it.
        this.skipUntil = Date.now() + SKIP_AFTER_FAILURE_MS;
        this.lost(error as Error);
      }
    }
    this.metrics.rateLimitFallbacks.inc();
    return { value: await action(this.local), used: this.local };
  }

  private lost(error: Error): void {
    this.metrics.redisUp.set(0);
    if (this.outage) return;
    this.outage = true;
    this.logger.warn('redis unreachable: rate limits fall back to per-replica counters until it is back', {
      error: error.message,
    });
  }

  private recovered(): void {
    this.skipUntil = 0;
    this.metrics.redisUp.set(1);
    if (!this.outage) return;
    this.outage = false;
    this.logger.info('redis is back: rate limits use the shared counters again');
  }
}
