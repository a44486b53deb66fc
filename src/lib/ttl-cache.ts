// A per-replica cache with expiry and explicit invalidation, so that the read path costs no
// database query in steady state. Entries live for a lifetime read at each store (long while
// changes are announced, short while they may be missed), less up to a fifth at random;
// `delete`/`clear` drop entries at once. When full, the entry unused longest goes (RecencyMap).

import { RecencyMap } from './recency-map.js';
import { smallNow } from './small-clock.js';

/** How long an entry may live now (read at each store), and how many a cache may hold. */
export interface CacheBounds {
  lifetimeMs(): number;
  readonly maxEntries: number;
}

export class TtlCache<K, V> {
  private readonly entries: RecencyMap<K, { value: V; expiresAt: number }>;
  private readonly pending = new Map<K, Promise<V>>();
  /**
   * Bumped by every invalidation: a value read before one may be older than the change it
   * announced, so a load begun under an earlier generation returns its value but never stores it.
   */
  private currentGeneration = 0;

  constructor(private readonly bounds: CacheBounds) {
    this.entries = new RecencyMap(bounds.maxEntries);
  }

  /** The cached value, or the loader's (one load at a time per key). */
  async get(key: K, load: () => Promise<V>): Promise<V> {
    const cached = this.peek(key);
    if (cached !== undefined) return cached;
    const inFlight = this.pending.get(key);
    if (inFlight) return inFlight;
    const started = this.currentGeneration;
    const loading: Promise<V> = load()
      .then((value) => {
        this.set(key, value, started);
        return value;
      })
      .finally(() => {
        if (this.pending.get(key) === loading) this.pending.delete(key);
      });
    this.pending.set(key, loading);
    return loading;
  }

  /** The cached value, or undefined when absent or expired (no load); a hit counts as a use. */
  peek(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.expiresAt <= smallNow()) return undefined;
    return entry.value;
  }

  /** Read before loading a value yourself; pass it to `set` so an invalidation in between wins. */
  generation(): number {
    return this.currentGeneration;
  }

  /** Stores the value unless the cache was invalidated since `loadedIn` (a generation). */
  set(key: K, value: V, loadedIn = this.currentGeneration): void {
    if (loadedIn !== this.currentGeneration) return;
    const lifetime = this.bounds.lifetimeMs();
    if (lifetime <= 0) return;
    // Up to a fifth shorter, at random: entries loaded together (after a restart, or a crowd of
    // users arriving at once) would otherwise all expire in the same second and be read again
    // together, a burst of database reads every lifetime with nothing changed.
    const jitter = Math.floor(Math.random() * (lifetime / 5));
    this.entries.set(key, { value, expiresAt: smallNow() + lifetime - jitter });
  }

  delete(key: K): void {
    this.currentGeneration++;
    this.entries.delete(key);
    this.pending.delete(key);
  }

  /** Drops every entry whose value `stale` picks. */
  deleteWhere(stale: (value: V) => boolean): void {
    this.currentGeneration++;
    for (const [key, entry] of this.entries.entries()) if (stale(entry.value)) this.entries.delete(key);
    this.pending.clear();
  }

  clear(): void {
    this.currentGeneration++;
    this.entries.clear();
    this.pending.clear();
  }
}
