// Deterministic pseudo-randomness: every "random-looking" sandbox value (PUKs, device models,
// coverage areas, usage amounts) is derived from its input so that tests can rely on it.

/** FNV-1a, 32 bits: small, fast and stable across runs and platforms. */
export function hash32(input: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < input.length; i++) {
    hash ^= input.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** One element of `items`, always the same for the same seed. */
export function pick<T>(items: readonly T[], seed: string): T {
  if (items.length === 0) throw new RangeError('pick() needs at least one item');
  return items[hash32(seed) % items.length]!;
}

/** An integer in [min, max], always the same for the same seed. */
export function between(min: number, max: number, seed: string): number {
  return min + (hash32(seed) % (max - min + 1));
}

/** `length` decimal digits derived from the seed. */
export function digitsFrom(seed: string, length: number): string {
  let digits = '';
  for (let round = 0; digits.length < length; round++) {
    digits += String(hash32(`${seed}#${round}`)).padStart(10, '0');
  }
  return digits.slice(0, length);
}

/** `length` uppercase hexadecimal characters derived from the seed. */
export function hexFrom(seed: string, length: number): string {
  let hex = '';
  for (let round = 0; hex.length < length; round++) {
    hex += hash32(`${seed}#${round}`).toString(16).toUpperCase().padStart(8, '0');
  }
  return hex.slice(0, length);
}
