// Cost buckets shared by every replica through Redis, updated by one Lua script (refill, take or
// refund, store, expire) so that concurrent requests on any replica never both spend the same
// points. While Redis is unreachable each replica uses its own buckets, as the rate limits do
// (the outage itself is logged once, by the rate-limit store watching the same connection).

import type { Redis } from 'ioredis';
import type { Metrics } from '../metrics.js';
import { MemoryCostBucketStore, type BucketShape, type BucketState, type CostBucketStore } from './cost-budget.js';

const SKIP_AFTER_FAILURE_MS = 5_000;
const PREFIX = 'line-gateway:cost:';

// ARGV: amount, now (ms), capacity, points per ms. Mirrors applyToBucket (cost-budget.ts).
// Numbers go back as strings: Redis would truncate a Lua number to an integer.
const SCRIPT = `
local amount = tonumber(ARGV[1])
local now = tonumber(ARGV[2])
local capacity = tonumber(ARGV[3])
local per_ms = tonumber(ARGV[4])
local stored = redis.call('HMGET', KEYS[1], 'available', 'at')
local available = capacity
local at = now
if stored[1] then
  local then_at = tonumber(stored[2])
  available = math.min(capacity, tonumber(stored[1]) + math.max(0, now - then_at) * per_ms)
  at = math.max(now, then_at)
end
local granted = 0
if amount <= available then
  available = math.min(capacity, available - amount)
  granted = 1
end
redis.call('HSET', KEYS[1], 'available', tostring(available), 'at', tostring(at))
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - available) / per_ms) + 1000)
return {granted, tostring(available)}
`;

export class FallbackCostBucketStore implements CostBucketStore {
  private readonly local = new MemoryCostBucketStore();
  /** After a failed command on a connected Redis (hung, not closed), Redis is left alone until then. */
  private skipUntil = 0;

  constructor(
    private readonly redis: Redis,
    private readonly metrics: Metrics,
  ) {
    redis.on('ready', () => (this.skipUntil = 0));
  }

  async apply(userId: string, amount: number, now: number, shape: BucketShape): Promise<BucketState> {
    if (this.redis.status === 'ready' && Date.now() >= this.skipUntil) {
      try {
        const [granted, available] = (await this.redis.eval(
          SCRIPT,
          1,
          PREFIX + userId,
          amount,
          now,
          shape.capacity,
          shape.perMs,
        )) as [number, string];
        return { granted: granted === 1, available: Number(available) };
      } catch {
        this.skipUntil = Date.now() + SKIP_AFTER_FAILURE_MS;
      }
    }
    this.metrics.rateLimitFallbacks.inc();
    return this.local.apply(userId, amount, now, shape);
  }
}
