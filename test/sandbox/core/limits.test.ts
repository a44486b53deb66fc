import { describe, expect, it } from 'vitest';
import { SandboxClock } from '../../../src/sandbox/core/clock.js';
import { REPLAY_CAPACITY, once } from '../../../src/sandbox/core/replay.js';
import { createState, type CoreContext } from '../../../src/sandbox/core/state.js';
import { USAGE_RECORDS_KEPT } from '../../../src/sandbox/core/usage-records.js';
import { ENDED_SUBSCRIPTIONS_KEPT } from '../../../src/sandbox/core/subscriptions.js';
import { START, activeLine, expectRejection, newCarrier, tx } from './helpers.js';

// A sandbox may run for days under a benchmark: what it remembers per line and per
// transaction is bounded, dropping the oldest first.
describe('memory bounds', () => {
  it('keeps the most recent usage records of a line', async () => {
    const core = newCarrier();
    const { mdn } = await activeLine(core);
    for (let i = 0; i < USAGE_RECORDS_KEPT + 10; i++) await core.cancelDeviceLocation({ transactionId: tx(), mdn });
    expect((await core.getCarrierUsage(mdn)).usageRecords).toHaveLength(USAGE_RECORDS_KEPT);
  });

  it('forgets the oldest ended purchases (still 949 for them: no active subscription)', async () => {
    const core = newCarrier();
    const { mdn } = await activeLine(core);
    const ids: string[] = [];
    for (let i = 0; i < ENDED_SUBSCRIPTIONS_KEPT + 5; i++) {
      const { purchaseId } = await core.purchasePlan({ transactionId: tx(), mdn, carrierPlanId: 'TOPUP1GB' });
      await core.cancelPurchase({ transactionId: tx(), mdn, purchaseId });
      ids.push(purchaseId);
    }
    await expectRejection(core.cancelPurchase({ transactionId: tx(), mdn, purchaseId: ids[0]! }), '949');
    await expectRejection(core.cancelPurchase({ transactionId: tx(), mdn, purchaseId: ids.at(-1)! }), '949');
    expect((await core.getUsage(mdn)).subscriptions).toHaveLength(1);
  });

  it('forgets the oldest transaction answers beyond the replay capacity', () => {
    const clock = new SandboxClock(START);
    const ctx: CoreContext = {
      carrier: '321',
      maxPurchases: 5,
      mdnPoolSize: 9999,
      clock,
      state: createState(clock.now()),
    };
    let runs = 0;
    const write = () => ++runs;
    for (let i = 0; i <= REPLAY_CAPACITY; i++) once(ctx, 'op', `T${i}`, write);
    expect(ctx.state.replays.size).toBe(REPLAY_CAPACITY);
    expect(once(ctx, 'op', `T${REPLAY_CAPACITY}`, write)).toBe(REPLAY_CAPACITY + 1);
    expect(once(ctx, 'op', 'T0', write)).toBe(REPLAY_CAPACITY + 2);
  });
});
