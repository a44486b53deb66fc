import { describe, expect, it } from 'vitest';
import { activation, activeLine, expectRejection, newCarrier, tx } from './helpers.js';

describe('replay by transaction id', () => {
  it('answers a repeated activation with the first answer and activates only once', async () => {
    const core = newCarrier();
    const request = activation();
    const first = await core.activate(request);
    const again = await core.activate(request);
    expect(again).toEqual(first);
    expect((await core.activate(activation())).mdn).toBe('3215550002');
  });

  it('replays a refusal even when the line has changed since', async () => {
    const core = newCarrier();
    const { mdn } = await activeLine(core);
    const restoreId = tx();
    await expectRejection(core.restore({ transactionId: restoreId, mdn }), 'GENS-0033');
    await core.suspend({ transactionId: tx(), mdn });
    await expectRejection(core.restore({ transactionId: restoreId, mdn }), 'GENS-0033', 'MSISDN is not suspended');
    expect((await core.getUsage(mdn)).lineStatus).toBe('SUSPENDED');
    await core.restore({ transactionId: tx(), mdn });
    expect((await core.getUsage(mdn)).lineStatus).toBe('ACTIVE');
  });

  it('does not apply a purchase or an adjustment twice', async () => {
    const core = newCarrier();
    const { mdn } = await activeLine(core, { carrierPlanId: 'BASIC1GB' });
    const purchase = { transactionId: tx(), mdn, carrierPlanId: 'TOPUP1GB' };
    const first = await core.purchasePlan(purchase);
    expect(await core.purchasePlan(purchase)).toEqual(first);
    const adjust = { transactionId: tx(), mdn, subscriptionId: 'SUB00000001', uom: 'EVENT' as const, amount: 7 };
    await core.adjustBalance(adjust);
    await core.adjustBalance(adjust);
    const usage = await core.getUsage(mdn);
    expect(usage.subscriptions).toHaveLength(2);
    expect(usage.balanceDetails.text).toBe(1007);
  });

  it('replays a suspension instead of refusing it with 935', async () => {
    const core = newCarrier();
    const { mdn } = await activeLine(core);
    const request = { transactionId: tx(), mdn };
    await core.suspend(request);
    await expect(core.suspend(request)).resolves.toBeUndefined();
  });

  it('hands out copies: changing a returned answer does not change the replay', async () => {
    const core = newCarrier();
    const request = activation();
    const first = await core.activate(request);
    first.mdn = 'tampered';
    expect((await core.activate(request)).mdn).toBe('3215550001');
  });

  it('keeps operations apart, and forgets everything on reset', async () => {
    const core = newCarrier();
    const { mdn, sim } = await activeLine(core);
    const shared = tx();
    await core.suspend({ transactionId: shared, mdn });
    await core.restore({ transactionId: shared, mdn });
    expect((await core.getUsage(mdn)).lineStatus).toBe('ACTIVE');

    const request = activation({ sim });
    await expectRejection(core.activate(request), '914');
    core.reset();
    expect((await core.activate(request)).mdn).toBe('3215550001');
  });
});
