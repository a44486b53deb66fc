// The per-replica cache's bound: when full, the entry unused longest goes, so a busy key stays
// however many others pass through once; a refreshed key counts as used; expiry and
// invalidation are as before.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { TtlCache, type CacheBounds } from '../../src/lib/ttl-cache.js';
import { VerifiedTokens } from '../../src/auth/verified-tokens.js';

const bounds = (maxEntries: number, lifetimeMs = 60_000): CacheBounds => ({ lifetimeMs: () => lifetimeMs, maxEntries });

/** A cache of `maxEntries` and a loader that counts its loads. */
function counted(maxEntries: number) {
  const cache = new TtlCache<string, string>(bounds(maxEntries));
  const loads: string[] = [];
  const get = (key: string) =>
    cache.get(key, async () => {
      loads.push(key);
      return `value of ${key}`;
    });
  return { cache, loads, get };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('TtlCache', () => {
  it('keeps a key in use while more keys than it holds pass through once', async () => {
    const { loads, get } = counted(3);
    await get('busy');
    for (let i = 0; i < 10; i++) {
      await get(`passing${i}`);
      expect(await get('busy')).toBe('value of busy');
    }
    expect(loads.filter((key) => key === 'busy')).toEqual(['busy']);
    expect(loads).toHaveLength(11);
  });

  it('drops the entry unused longest when full, not the first stored', async () => {
    const { cache, get } = counted(3);
    for (const key of ['a', 'b', 'c']) await get(key);
    await get('a');
    await get('d');
    expect(['a', 'b', 'c', 'd'].map((key) => cache.peek(key) !== undefined)).toEqual([true, false, true, true]);
  });

  it('counts a refreshed entry as used', async () => {
    const { cache, get } = counted(2);
    await get('a');
    await get('b');
    cache.set('a', 'fresh');
    await get('c');
    expect([cache.peek('a'), cache.peek('b'), cache.peek('c')]).toEqual(['fresh', undefined, 'value of c']);
  });

  it('holds a working set as large as its bound without a load, in any order', async () => {
    const { loads, get } = counted(500);
    const keys = Array.from({ length: 500 }, (_, i) => `k${i}`);
    for (const key of keys) await get(key);
    for (let round = 0; round < 3; round++) for (const key of [...keys].reverse()) await get(key);
    expect(loads).toHaveLength(500);
  });

  it('expires entries within their lifetime, no sooner than four fifths of it, and loads them again', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
    const cache = new TtlCache<string, number>(bounds(10, 1000));
    let loads = 0;
    const get = () => cache.get('k', async () => ++loads);
    expect(await get()).toBe(1);
    vi.advanceTimersByTime(799);
    expect(await get()).toBe(1);
    vi.advanceTimersByTime(201);
    expect(await get()).toBe(2);
  });

  it('spreads the expiry of entries stored together over the last fifth of their lifetime', () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
    const cache = new TtlCache<number, number>(bounds(1000, 10_000));
    for (let key = 0; key < 1000; key++) cache.set(key, key);
    const alive = (afterMs: number) => {
      vi.setSystemTime(new Date(Date.parse('2026-01-01T00:00:00Z') + afterMs));
      return Array.from({ length: 1000 }, (_, key) => cache.peek(key)).filter((value) => value !== undefined).length;
    };
    expect(alive(7999)).toBe(1000);
    const halfway = alive(9000);
    expect(halfway).toBeGreaterThan(300);
    expect(halfway).toBeLessThan(700);
    expect(alive(10_000)).toBe(0);
  });

  it('does not store a value loaded before an invalidation', async () => {
    const cache = new TtlCache<string, string>(bounds(10));
    let release!: (value: string) => void;
    const loading = cache.get('k', () => new Promise<string>((resolve) => (release = resolve)));
    cache.delete('other');
    release('old');
    expect(await loading).toBe('old');
    expect(cache.peek('k')).toBeUndefined();
  });
});

describe('VerifiedTokens', () => {
  const claims = (jti: string) => ({ jti, sub: 'user', exp: 2_000_000_000 });

  it('keeps a token in use while more tokens than it holds pass through once', () => {
    const verified = new VerifiedTokens(3);
    verified.remember('busy', claims('busy'));
    for (let i = 0; i < 10; i++) {
      verified.remember(`passing${i}`, claims(`passing${i}`));
      expect(verified.get('busy', 1_000_000_000)?.jti).toBe('busy');
    }
    expect(verified.get('passing0', 1_000_000_000)).toBeUndefined();
    expect(verified.get('passing9', 1_000_000_000)?.jti).toBe('passing9');
  });

  it('admits only the exact token it verified (kept by digest, not by text)', () => {
    const verified = new VerifiedTokens(3);
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJl';
    verified.remember(token, claims('t'));
    expect(verified.get(token, 1_000_000_000)?.jti).toBe('t');
    expect(verified.get(`${token.slice(0, -1)}m`, 1_000_000_000)).toBeUndefined();
    expect(verified.get(token.slice(0, -1), 1_000_000_000)).toBeUndefined();
    expect(verified.get(`${token} `, 1_000_000_000)).toBeUndefined();
  });

  it('forgets a token once its exp has passed', () => {
    const verified = new VerifiedTokens(3);
    verified.remember('t', { ...claims('t'), exp: 100 });
    expect(verified.get('t', 99)?.jti).toBe('t');
    expect(verified.get('t', 100)).toBeUndefined();
    expect(verified.get('t', 99)).toBeUndefined();
  });
});
