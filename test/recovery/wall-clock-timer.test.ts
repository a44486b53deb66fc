// The reconciler's re-send timer: it must not run before the instant that the row's backoff
// lease ends, or the re-send finds the lease still held, is refused, and waits for a sweep.
// Node's timers may fire a little early by Date.now(); fake timers reproduce that exactly by
// setting the wall clock back while the timers' clock goes on.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { atWallClock } from '../../src/lib/wall-clock-timer.js';

const START = 1_800_000_000_000;

beforeEach(() => {
  vi.useFakeTimers({ now: START, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a timer for an instant of the wall clock', () => {
  it('runs at its instant', () => {
    const runs: number[] = [];
    atWallClock(START + 2_000, () => runs.push(Date.now()));
    vi.advanceTimersByTime(1_999);
    expect(runs).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(runs).toEqual([START + 2_000]);
  });

  it('waits out what is left when its timer fires before the instant by Date.now()', () => {
    const runs: number[] = [];
    atWallClock(START + 2_000, () => runs.push(Date.now()));
    // The wall clock now reads 5 ms less than the timers' clock has counted.
    vi.setSystemTime(START - 5);
    vi.advanceTimersByTime(2_000);
    expect(Date.now()).toBe(START + 1_995);
    expect(runs).toEqual([]);
    vi.advanceTimersByTime(5);
    expect(runs).toEqual([START + 2_000]);
  });

  it('runs on the next turn for an instant already past', () => {
    const runs: number[] = [];
    atWallClock(START - 1_000, () => runs.push(Date.now()));
    expect(runs).toEqual([]);
    vi.advanceTimersByTime(0);
    expect(runs).toEqual([START]);
  });

  it('never runs once cancelled, also after it was armed again', () => {
    const runs: number[] = [];
    const timer = atWallClock(START + 2_000, () => runs.push(Date.now()));
    vi.setSystemTime(START - 5);
    vi.advanceTimersByTime(2_000);
    timer.cancel();
    vi.advanceTimersByTime(60_000);
    expect(runs).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
