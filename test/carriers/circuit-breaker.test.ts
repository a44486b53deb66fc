// The carrier circuit breaker on its own, on a clock the test moves: when it opens, what it
// refuses and for how long, its one trial, and what closes it again.

import { describe, expect, it } from 'vitest';
import { CircuitBreaker, type Admission } from '../../src/carriers/circuit-breaker.js';

function breakerAt(failures = 3, cooldownMs = 1_000) {
  const clock = { now: 0 };
  const breaker = new CircuitBreaker({ failures, cooldownMs }, () => clock.now);
  /** One call admitted and ended; answers the transition it caused. */
  const call = (faulted: boolean) => {
    const admission = breaker.admit();
    expect(admission.kind).not.toBe('refused');
    return breaker.settle(admission, faulted);
  };
  return { breaker, clock, call };
}

const refusedFor = (admission: Admission) => (admission.kind === 'refused' ? admission.retryInMs : null);

describe('carrier circuit breaker', () => {
  it('opens on the configured number of faults in a row, and refuses calls until its cooldown has passed', () => {
    const { breaker, clock, call } = breakerAt(3, 1_000);
    expect(call(true)).toBeNull();
    expect(call(true)).toBeNull();
    expect(breaker.open).toBe(false);
    expect(call(true)).toBe('opened');
    expect(breaker.open).toBe(true);
    expect(refusedFor(breaker.admit())).toBe(1_000);
    clock.now = 600;
    expect(refusedFor(breaker.admit())).toBe(400);
  });

  it('counts faults in a row only: an answer between them starts the count again', () => {
    const { breaker, call } = breakerAt(3);
    call(true);
    call(true);
    call(false);
    call(true);
    call(true);
    expect(breaker.open).toBe(false);
    expect(call(true)).toBe('opened');
  });

  it('lets one trial through after the cooldown; the others wait for its answer', () => {
    const { breaker, clock, call } = breakerAt(1, 1_000);
    call(true);
    clock.now = 1_000;
    const trial = breaker.admit();
    expect(trial.kind).toBe('trial');
    expect(refusedFor(breaker.admit())).toBe(1_000);
    expect(breaker.settle(trial, false)).toBe('closed');
    expect(breaker.open).toBe(false);
    expect(breaker.admit().kind).toBe('call');
  });

  it('a failed trial opens it for another whole cooldown', () => {
    const { breaker, clock, call } = breakerAt(1, 1_000);
    call(true);
    clock.now = 1_500;
    const trial = breaker.admit();
    expect(breaker.settle(trial, true)).toBeNull();
    expect(breaker.open).toBe(true);
    expect(refusedFor(breaker.admit())).toBe(1_000);
    clock.now = 2_500;
    expect(breaker.admit().kind).toBe('trial');
  });

  it('a slow answer to a call sent before it opened does not close it: only the trial does', () => {
    const { breaker } = breakerAt(2);
    const slow = breaker.admit();
    breaker.settle(breaker.admit(), true);
    breaker.settle(breaker.admit(), true);
    expect(breaker.open).toBe(true);
    expect(breaker.settle(slow, false)).toBeNull();
    expect(breaker.open).toBe(true);
  });

  it('with 0 failures it never opens', () => {
    const { breaker, call } = breakerAt(0);
    for (let index = 0; index < 50; index++) expect(call(true)).toBeNull();
    expect(breaker.open).toBe(false);
  });
});
