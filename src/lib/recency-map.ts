// A Map of at most `maxEntries`, the entry unused longest dropped first when a new one comes:
// what the per-replica caches hold (TtlCache, VerifiedTokens). A first-in-first-out bound
// turned a round of more users than it held into a database read for every request.

export class RecencyMap<K, V> {
  private readonly map = new Map<K, V>();

  constructor(private readonly maxEntries: number) {}

  /**
   * The value; a hit counts as a use. A Map iterates in insertion order: re-inserted, the entry
   * goes last and eviction takes the first. Moving costs ~300 ns a hit in a map of 20,000
   * (docs/performance.md, "Cache bounds and the realistic regime"), so it starts at half full:
   * an entry then goes only if unused while half the bound's worth of others came in.
   */
  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined && this.map.size * 2 >= this.maxEntries) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  /** Stores the value last (a replaced one too), first dropping the oldest when full. */
  set(key: K, value: V): void {
    if (!this.map.delete(key) && this.map.size >= this.maxEntries) this.map.delete(this.map.keys().next().value as K);
    this.map.set(key, value);
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }

  entries(): MapIterator<[K, V]> {
    return this.map.entries();
  }
}
