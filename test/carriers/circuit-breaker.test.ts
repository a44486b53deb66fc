// The carrier circuit breaker on its own, on fake timers: when it opens, what it refuses and for
// how long, its trial (the carrier's probe, never a caller's call), and what closes it again.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CircuitBreaker, type Admission } from '../../src/carriers/circuit-breaker.js';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

function breakerWith(failures: number, cooldownMs: number, probe: () => Promise<boolean> = async () => true) {
  const changes: string[] = [];
  const trials = vi.fn(probe);
  const breaker = new CircuitBreaker(
    { failures, cooldownMs },
    { trial: trials, onChange: (change) => void changes.push(change) },
    () => Date.now(),
  );
  /** One call admitted and ended. */
  const call = (faulted: boolean) => {
    const admission = breaker.admit();
    expect(admission.kind).toBe('call');
    breaker.settle(admission, faulted);
  };
  return { breaker, changes, trials, call };
}

const refusedFor = (admission: Admission) => (admission.kind === 'refused' ? admission.retryInMs : null);

describe('carrier circuit breaker', () => {
  it('opens on the configured number of faults in a row, and refuses calls until its cooldown has passed', async () => {
    const { breaker, changes, call } = breakerWith(3, 1_000);
    call(true);
    call(true);
    expect(breaker.open).toBe(false);
    call(true);
    expect(breaker.open).toBe(true);
    expect(changes).toEqual(['opened']);
    expect(refusedFor(breaker.admit())).toBe(1_000);
    await vi.advanceTimersByTimeAsync(600);
    expect(refusedFor(breaker.admit())).toBe(400);
  });

  it('counts faults in a row only: an answer between them starts the count again', () => {
    const { breaker, call } = breakerWith(3, 1_000);
    call(true);
    call(true);
    call(false);
    call(true);
    call(true);
    expect(breaker.open).toBe(false);
    call(true);
    expect(breaker.open).toBe(true);
  });

  it('after the cooldown it sends its own trial, not a caller’s call: an answer closes it', async () => {
    let answer!: (up: boolean) => void;
    const { breaker, changes, trials, call } = breakerWith(
      1,
      1_000,
      () => new Promise<boolean>((resolve) => (answer = resolve)),
    );
    call(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(trials).toHaveBeenCalledTimes(1);
    // While the trial is out, callers are told to come back within a second.
    expect(refusedFor(breaker.admit())).toBe(1_000);
    answer(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(breaker.open).toBe(false);
    expect(changes).toEqual(['opened', 'closed']);
    expect(breaker.admit().kind).toBe('call');
  });

  it('a failed trial (no answer, or a rejection) holds it open another whole cooldown, then tries again', async () => {
    // Made when the trial runs: a rejection made ahead would be unhandled until then.
    const outcomes = [async () => false, () => Promise.reject(new Error('unreachable')), async () => true];
    const { breaker, changes, trials, call } = breakerWith(1, 1_000, () => outcomes.shift()!());
    call(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(trials).toHaveBeenCalledTimes(1);
    expect(breaker.open).toBe(true);
    expect(refusedFor(breaker.admit())).toBe(1_000);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(trials).toHaveBeenCalledTimes(2);
    expect(breaker.open).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(trials).toHaveBeenCalledTimes(3);
    expect(breaker.open).toBe(false);
    expect(changes).toEqual(['opened', 'closed']);
  });

  it('a slow answer to a call sent before it opened does not close it: only the trial does', () => {
    const { breaker, call } = breakerWith(2, 1_000);
    const slow = breaker.admit();
    call(true);
    call(true);
    expect(breaker.open).toBe(true);
    breaker.settle(slow, false);
    expect(breaker.open).toBe(true);
  });

  it('the faults of calls sent before its trial found the carrier back do not open it again', async () => {
    const { breaker, changes, call } = breakerWith(2, 1_000);
    const hung = [breaker.admit(), breaker.admit(), breaker.admit()];
    call(true);
    call(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(breaker.open).toBe(false);
    for (const admission of hung) breaker.settle(admission, true);
    expect(breaker.open).toBe(false);
    expect(changes).toEqual(['opened', 'closed']);
    // Calls of the new generation count as before.
    call(true);
    call(true);
    expect(breaker.open).toBe(true);
  });

  it('stopped, it sends no more trials', async () => {
    const { breaker, trials, call } = breakerWith(1, 1_000);
    call(true);
    breaker.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(trials).not.toHaveBeenCalled();
  });

  it('with 0 failures it never opens', () => {
    const { breaker, call } = breakerWith(0, 1_000);
    for (let index = 0; index < 50; index++) call(true);
    expect(breaker.open).toBe(false);
  });
});
