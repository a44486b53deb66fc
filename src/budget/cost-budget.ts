// The per-user GraphQL cost budget: a leaky bucket of `capacity` points restored at
// `restoreRate` points per second. A request takes its requested cost before it runs (all or
// nothing) and gets back what it did not spend. Where the buckets live (this replica's memory,
// or Redis shared by every replica) is the store's business; the clock is a seam for tests.

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

/** One bucket after an update: whether the amount was taken, and what is left. */
export interface BucketState {
  granted: boolean;
  available: number;
}

export interface BucketShape {
  capacity: number;
  /** Points restored per millisecond. */
  perMs: number;
}

export interface CostBucketStore {
  /**
   * Refills the bucket up to `now`, then takes `amount` if it is available (a negative amount,
   * a refund, is always given back, capped at the capacity). Atomic per user.
   */
  apply(userId: string, amount: number, now: number, shape: BucketShape): Promise<BucketState>;
}

export interface Withdrawal {
  granted: boolean;
  status: ThrottleStatus;
  /** Whole seconds until the requested cost would be available (0 when granted). */
  retryAfterSeconds: number;
}

export class CostBudget {
  /** The clock: tests replace it to let time pass without waiting. */
  now: () => number = Date.now;
  private readonly shape: BucketShape;

  constructor(
    private readonly store: CostBucketStore,
    readonly capacity: number,
    readonly restoreRate: number,
  ) {
    this.shape = { capacity, perMs: restoreRate / 1000 };
  }

  async take(userId: string, cost: number): Promise<Withdrawal> {
    const state = await this.store.apply(userId, cost, this.now(), this.shape);
    const missing = state.granted ? 0 : cost - state.available;
    return {
      granted: state.granted,
      status: this.status(state.available),
      retryAfterSeconds: Math.max(state.granted ? 0 : 1, Math.ceil(missing / this.restoreRate)),
    };
  }

  async refund(userId: string, amount: number): Promise<ThrottleStatus> {
    const state = await this.store.apply(userId, -Math.max(0, amount), this.now(), this.shape);
    return this.status(state.available);
  }

  /** Seconds until a bucket holding `available` is full again. */
  secondsToFull(available: number): number {
    return Math.ceil((this.capacity - available) / this.restoreRate);
  }

  private status(available: number): ThrottleStatus {
    return {
      maximumAvailable: this.capacity,
      currentlyAvailable: Math.floor(available),
      restoreRate: this.restoreRate,
    };
  }
}

/** Refill then take, the arithmetic both stores share (the Redis script mirrors it). */
export function applyToBucket(
  stored: { available: number; at: number } | undefined,
  amount: number,
  now: number,
  shape: BucketShape,
): { state: BucketState; at: number } {
  const at = Math.max(now, stored?.at ?? now);
  const refilled = stored
    ? Math.min(shape.capacity, stored.available + Math.max(0, now - stored.at) * shape.perMs)
    : shape.capacity;
  const granted = amount <= refilled;
  const available = Math.min(shape.capacity, granted ? refilled - amount : refilled);
  return { state: { granted, available }, at };
}

/** This replica's buckets; a full bucket is forgotten now and then, so memory follows active users. */
export class MemoryCostBucketStore implements CostBucketStore {
  private readonly buckets = new Map<string, { available: number; at: number }>();
  private sweepAt = 0;

  async apply(userId: string, amount: number, now: number, shape: BucketShape): Promise<BucketState> {
    const { state, at } = applyToBucket(this.buckets.get(userId), amount, now, shape);
    this.buckets.set(userId, { available: state.available, at });
    this.sweep(now, shape);
    return state;
  }

  private sweep(now: number, shape: BucketShape): void {
    if (now < this.sweepAt) return;
    this.sweepAt = now + 60_000;
    for (const [user, bucket] of this.buckets) {
      if (bucket.available + (now - bucket.at) * shape.perMs >= shape.capacity) this.buckets.delete(user);
    }
  }
}
