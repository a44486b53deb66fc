import { describe, expect, it } from 'vitest';
import { activeLine, expectRejection, newCarrier, tx } from './helpers.js';

describe('balance adjustment', () => {
  it('adds and deducts per unit, keeping balance_details in minutes, messages and bytes', async () => {
    const core = newCarrier();
    const { mdn } = await activeLine(core, { carrierPlanId: 'BASIC1GB' });
    const subscriptionId = 'SUB00000001';
    await core.adjustBalance({ transactionId: tx(), mdn, subscriptionId, uom: 'SECOND', amount: 120 });
    await core.adjustBalance({ transactionId: tx(), mdn, subscriptionId, uom: 'EVENT', amount: -10 });
    await core.adjustBalance({ transactionId: tx(), mdn, subscriptionId, uom: 'BYTE', amount: 1000 });
    const usage = await core.getUsage(mdn);
    expect(usage.balanceDetails).toEqual({ talk: 502, text: 990, data: 1024 ** 3 + 1000 });
    expect(usage.subscriptions[0]!.balances.map((balance) => [balance.uom, balance.balance])).toEqual([
      ['SECOND', 30_120],
      ['EVENT', 990],
      ['BYTE', 1024 ** 3 + 1000],
    ]);
  });

  it('adjusts voice when no unit is given, and moves the expiry date', async () => {
    const core = newCarrier();
    const { mdn } = await activeLine(core, { carrierPlanId: 'BASIC1GB' });
    await core.adjustBalance({
      transactionId: tx(),
      mdn,
      subscriptionId: 'SUB00000001',
      amount: 60,
      expiryDate: '2026-12-31',
    });
    const [voice] = (await core.getUsage(mdn)).subscriptions[0]!.balances;
    expect(voice).toMatchObject({ uom: 'SECOND', balance: 30_060, validTo: '2026-12-31 23:59:59' });
    await expectRejection(
      core.adjustBalance({
        transactionId: tx(),
        mdn,
        subscriptionId: 'SUB00000001',
        amount: 1,
        expiryDate: '31/12/2026',
      }),
      'GENS-0404',
    );
  });

  it('refuses an unknown subscription (919) and a deduction larger than the balance (920)', async () => {
    const core = newCarrier();
    const { mdn } = await activeLine(core, { carrierPlanId: 'BASIC1GB' });
    await expectRejection(
      core.adjustBalance({ transactionId: tx(), mdn, subscriptionId: 'SUB12345678', uom: 'EVENT', amount: 1 }),
      '919',
      'Invalid subscription id',
    );
    await expectRejection(
      core.adjustBalance({ transactionId: tx(), mdn, subscriptionId: 'SUB00000001', uom: 'EVENT', amount: -1001 }),
      '920',
    );
    await core.adjustBalance({ transactionId: tx(), mdn, subscriptionId: 'SUB00000001', uom: 'EVENT', amount: -1000 });
    expect((await core.getUsage(mdn)).balanceDetails.text).toBe(0);
  });

  it('applies several adjustments all or nothing', async () => {
    const core = newCarrier();
    const { mdn } = await activeLine(core, { carrierPlanId: 'BASIC1GB' });
    const purchase = await core.purchasePlan({ transactionId: tx(), mdn, carrierPlanId: 'INTL100' });
    await expectRejection(
      core.adjustBalances({
        transactionId: tx(),
        mdn,
        adjustments: [
          { subscriptionId: 'SUB00000001', uom: 'EVENT', amount: 5 },
          { subscriptionId: purchase.purchaseId, uom: 'EVENT', amount: -1 },
        ],
      }),
      '920',
    );
    expect((await core.getUsage(mdn)).balanceDetails.text).toBe(1000);
    await core.adjustBalances({
      transactionId: tx(),
      mdn,
      adjustments: [
        { subscriptionId: 'SUB00000001', uom: 'EVENT', amount: 5 },
        { subscriptionId: purchase.purchaseId, uom: 'SECOND', amount: -600 },
        { subscriptionId: purchase.purchaseId, uom: 'SECOND', amount: -5400 },
      ],
    });
    expect((await core.getUsage(mdn)).balanceDetails).toMatchObject({ text: 1005, talk: 500 });
    await expectRejection(
      core.adjustBalances({
        transactionId: tx(),
        mdn,
        adjustments: [{ subscriptionId: 'nope', uom: 'BYTE', amount: 1 }],
      }),
      '919',
    );
  });
});
