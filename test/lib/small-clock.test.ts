// The cache clock: small integers while they fit, the right value after (no wrap at 2^31 ms).

import { afterEach, describe, expect, it, vi } from 'vitest';
import { smallNow } from '../../src/lib/small-clock.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('smallNow', () => {
  it('follows Date.now in whole milliseconds', () => {
    vi.useFakeTimers();
    const start = smallNow();
    vi.advanceTimersByTime(1234);
    expect(smallNow() - start).toBe(1234);
    expect(Number.isInteger(smallNow())).toBe(true);
  });

  it('keeps counting past 24.8 days of uptime instead of wrapping to a negative time', () => {
    vi.useFakeTimers();
    const start = smallNow();
    const thirtyDays = 30 * 24 * 3600 * 1000;
    vi.advanceTimersByTime(thirtyDays);
    expect(smallNow()).toBe(start + thirtyDays);
    expect(smallNow()).toBeGreaterThan(2 ** 31);
  });
});
