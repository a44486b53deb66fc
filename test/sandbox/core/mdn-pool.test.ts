// The number pool: one exchange by default, more (load tests with many lines) continuing into
// the next exchanges, never past the maximum, and GENS-0011 once the configured pool is taken.

import { describe, expect, it } from 'vitest';
import { MAX_MDN_POOL_SIZE, takeMdn } from '../../../src/sandbox/core/mdn-pool.js';
import { SandboxClock } from '../../../src/sandbox/core/clock.js';
import { createState, type CoreContext } from '../../../src/sandbox/core/state.js';
import { SandboxCarrier } from '../../../src/sandbox/core/index.js';
import type { CarrierId } from '../../../src/carriers/types.js';

const contextAt = (carrier: CarrierId, taken: number, mdnPoolSize: number): CoreContext => {
  const clock = new SandboxClock(new Date('2026-01-01T00:00:00Z'));
  const ctx: CoreContext = { carrier, maxPurchases: 5, mdnPoolSize, clock, state: createState(clock.now()) };
  ctx.state.counters.mdn = taken;
  return ctx;
};

describe('the MDN pool', () => {
  it('hands out xxx5550001 to xxx5559999, then goes on in the next exchange', () => {
    const ctx = contextAt('321', 0, MAX_MDN_POOL_SIZE);
    expect(takeMdn(ctx)).toBe('3215550001');
    ctx.state.counters.mdn = 9998;
    expect(takeMdn(ctx)).toBe('3215559999');
    expect(takeMdn(ctx)).toBe('3215560001');
    expect(takeMdn(contextAt('carrier_b', 19_998, MAX_MDN_POOL_SIZE))).toBe('6465570001');
  });

  it('ends at the tenth exchange, xxx5649999, with GENS-0011 after it', () => {
    const ctx = contextAt('321', MAX_MDN_POOL_SIZE - 1, MAX_MDN_POOL_SIZE);
    expect(takeMdn(ctx)).toBe('3215649999');
    expect(() => takeMdn(ctx)).toThrow(expect.objectContaining({ code: 'GENS-0011' }));
  });

  it('refuses a pool larger than ten exchanges', () => {
    expect(() => new SandboxCarrier({ carrier: '321', mdnPoolSize: MAX_MDN_POOL_SIZE + 1 })).toThrow(RangeError);
    expect(new SandboxCarrier({ carrier: '321', mdnPoolSize: MAX_MDN_POOL_SIZE }).carrier).toBe('321');
  });
});
