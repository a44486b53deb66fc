// Carrier 321 writes times as ISO 8601 with any offset; the domain wants `YYYY-MM-DD HH:MM:SS`
// in UTC. UTC times are taken apart as written; other offsets go through a Date. Both paths
// must give what a Date round trip gives, fractions of a second dropped.

import { describe, expect, it } from 'vitest';
import { wireTimestamp } from '../../../src/carriers/carrier-321/codec.js';

const viaDate = (value: string) => new Date(value).toISOString().slice(0, 19).replace('T', ' ');

describe('carrier 321 wire timestamps', () => {
  it('read UTC times as written, with or without fractions', () => {
    expect(wireTimestamp.parse('2026-11-23T04:05:06Z')).toBe('2026-11-23 04:05:06');
    expect(wireTimestamp.parse('2026-11-23T04:05:06.999Z')).toBe('2026-11-23 04:05:06');
    expect(wireTimestamp.parse('2024-02-29T23:59:59.5Z')).toBe('2024-02-29 23:59:59');
  });

  it('move other offsets to UTC, across a day, month and year boundary', () => {
    expect(wireTimestamp.parse('2026-01-01T01:30:00+02:00')).toBe('2025-12-31 23:30:00');
    expect(wireTimestamp.parse('2026-02-28T22:00:00-05:00')).toBe('2026-03-01 03:00:00');
    expect(wireTimestamp.parse('2026-11-23T04:05:06.123+00:00')).toBe('2026-11-23 04:05:06');
  });

  it('agree with a Date round trip on many times', () => {
    let seed = 42;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    for (let i = 0; i < 2000; i++) {
      const iso = new Date(Date.UTC(1990, 0, 1) + (next() % 2 ** 30) * 1500 + (next() % 1000)).toISOString();
      const withoutMs = iso.replace(/\.\d+Z$/, 'Z');
      const offset = `${iso.slice(0, 19)}+0${next() % 10}:${next() % 2 ? '30' : '00'}`;
      for (const value of [iso, withoutMs, offset]) expect(wireTimestamp.parse(value)).toBe(viaDate(value));
    }
  });

  it('refuse what is not an ISO time', () => {
    for (const value of ['2026-13-01T00:00:00Z', '2026-02-30T00:00:00Z', '2026-11-23 04:05:06', '2026-11-23T24:00:00Z'])
      expect(wireTimestamp.safeParse(value).success).toBe(false);
  });
});
