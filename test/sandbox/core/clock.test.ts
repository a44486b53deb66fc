import { describe, expect, it } from 'vitest';
import { SandboxCarrier } from '../../../src/sandbox/core/index.js';
import { DAY, START, activeLine, expectRejection, newCarrier } from './helpers.js';

describe('sandbox clock and reset', () => {
  it('stands still at the start instant until advanced', () => {
    const core = newCarrier();
    expect(core.now()).toEqual(START);
    core.advanceClock(2 * DAY);
    expect(core.now().toISOString()).toBe('2026-03-03T12:00:00.000Z');
  });

  it('refuses to run backwards', () => {
    const core = newCarrier();
    expect(() => core.advanceClock(-1)).toThrow(/forward/);
    expect(() => core.advanceClock(Number.NaN)).toThrow(/forward/);
  });

  it('follows wall time when no start instant is given', () => {
    const before = Date.now();
    const core = new SandboxCarrier({ carrier: 'carrier_b' });
    const now = core.now().getTime();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
    core.advanceClock(DAY);
    expect(core.now().getTime()).toBeGreaterThanOrEqual(before + DAY);
  });

  it('reset forgets every line and number and rewinds the clock', async () => {
    const core = newCarrier();
    const { mdn } = await activeLine(core);
    core.advanceClock(DAY);
    core.reset();
    expect(core.now()).toEqual(START);
    await expectRejection(core.getUsage(mdn), '918');
    expect((await activeLine(core)).mdn).toBe('3215550001');
  });

  it('validates its options', () => {
    expect(() => new SandboxCarrier({ carrier: '321', maxPurchases: -1 })).toThrow(RangeError);
    expect(() => new SandboxCarrier({ carrier: '321', mdnPoolSize: 100_000 })).toThrow(RangeError);
  });
});
