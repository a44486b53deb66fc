import { describe, expect, it } from 'vitest';
import { ADDRESS, BAD_ADDRESS, activeLine, expectRejection, newCarrier, physicalSim, tx } from './helpers.js';

describe('plan change', () => {
  it('moves the line to a new base plan with fresh balances', async () => {
    const core = newCarrier();
    const { mdn, sim } = await activeLine(core, { carrierPlanId: 'PLUS5GB' });
    expect(await core.changePlan({ transactionId: tx(), mdn, sim, carrierPlanId: 'UNL10GB' })).toEqual({ mdn });
    const usage = await core.getUsage(mdn);
    expect(usage.planName).toBe('Unlimited Talk & Text 10GB');
    expect(usage.subscriptions.map((subscription) => subscription.planCode)).toEqual(['UNL10GB']);
    expect(usage.balanceDetails).toEqual({ talk: 10_000, text: 10_000, data: 10 * 1024 ** 3 });
    expect((await core.extended!.getActivePlan(mdn)).soc).toBe('UNL10GB');
  });

  it('refuses the plan already active (916), an invalid plan (906) and another SIM (918)', async () => {
    const core = newCarrier();
    const { mdn } = await activeLine(core, { carrierPlanId: 'PLUS5GB' });
    await expectRejection(
      core.changePlan({ transactionId: tx(), mdn, carrierPlanId: 'PLUS5GB' }),
      '916',
      'Plan code already active on the MDN',
    );
    await expectRejection(core.changePlan({ transactionId: tx(), mdn, carrierPlanId: 'INVALID9' }), '906');
    await expectRejection(
      core.changePlan({ transactionId: tx(), mdn, sim: physicalSim(), carrierPlanId: 'BASIC1GB' }),
      '918',
    );
  });

  it('provisions WFC for a WFC plan, or reports why it could not', async () => {
    const core = newCarrier();
    const { mdn } = await activeLine(core);
    const bad = await core.changePlan({
      transactionId: tx(),
      mdn,
      carrierPlanId: 'UNLWFC',
      wfc: { address: BAD_ADDRESS },
    });
    expect(bad).toEqual({
      mdn,
      wfc: { provisioned: false, failure: { code: 'GENS-0090', text: 'Invalid E911 address' } },
    });
    const good = await core.changePlan({
      transactionId: tx(),
      mdn,
      carrierPlanId: 'BASIC1GB',
      wfc: { address: ADDRESS },
    });
    expect(good.wfc).toEqual({ provisioned: true });
    expect((await core.getServiceProfile(mdn)).e911Address).toEqual(ADDRESS);
  });
});

describe('purchases', () => {
  it('adds an add-on subscription with a PUR purchase id, and cancels it', async () => {
    const core = newCarrier();
    const { mdn } = await activeLine(core, { carrierPlanId: 'BASIC1GB' });
    const purchase = await core.purchasePlan({ transactionId: tx(), mdn, carrierPlanId: 'TOPUP1GB' });
    expect(purchase).toEqual({ mdn, purchaseId: 'PUR00000001' });
    let usage = await core.getUsage(mdn);
    expect(usage.subscriptions.map((subscription) => subscription.purchaseId)).toEqual(['SUB00000001', 'PUR00000001']);
    expect(usage.balanceDetails.data).toBe(2 * 1024 ** 3);
    expect((await core.getServiceProfile(mdn)).serviceCodes.map((code) => code.code)).toContain('TOPUP1GB');

    expect(await core.cancelPurchase({ transactionId: tx(), mdn, purchaseId: purchase.purchaseId })).toEqual({
      mdn,
      purchaseId: 'PUR00000001',
    });
    usage = await core.getUsage(mdn);
    expect(usage.subscriptions).toHaveLength(1);
    expect(usage.balanceDetails.data).toBe(1024 ** 3);
    await expectRejection(
      core.cancelPurchase({ transactionId: tx(), mdn, purchaseId: purchase.purchaseId }),
      '949',
      'No active subscription found',
    );
  });

  it('caps active purchases per subscriber (969)', async () => {
    const core = newCarrier({ maxPurchases: 2 });
    const { mdn } = await activeLine(core);
    const first = await core.purchasePlan({ transactionId: tx(), mdn, carrierPlanId: 'TOPUP1GB' });
    await core.purchasePlan({ transactionId: tx(), mdn, carrierPlanId: 'INTL100' });
    await expectRejection(
      core.purchasePlan({ transactionId: tx(), mdn, carrierPlanId: 'TOPUP1GB' }),
      '969',
      'Maximum purchases limit exceeded',
    );
    await core.cancelPurchase({ transactionId: tx(), mdn, purchaseId: first.purchaseId });
    await core.purchasePlan({ transactionId: tx(), mdn, carrierPlanId: 'TOPUP1GB' });
  });

  it('defaults to five active purchases', async () => {
    const core = newCarrier();
    const { mdn } = await activeLine(core);
    for (let i = 0; i < 5; i++) await core.purchasePlan({ transactionId: tx(), mdn, carrierPlanId: 'TOPUP1GB' });
    await expectRejection(core.purchasePlan({ transactionId: tx(), mdn, carrierPlanId: 'TOPUP1GB' }), '969');
  });

  it('refuses an invalid plan (906), purchase ids with no active subscription on this line (949) and the base plan (919)', async () => {
    const core = newCarrier();
    const { mdn } = await activeLine(core);
    const other = await activeLine(core);
    await expectRejection(core.purchasePlan({ transactionId: tx(), mdn, carrierPlanId: 'INVALID' }), '906');
    const theirs = await core.purchasePlan({ transactionId: tx(), mdn: other.mdn, carrierPlanId: 'TOPUP1GB' });
    await expectRejection(
      core.cancelPurchase({ transactionId: tx(), mdn, purchaseId: theirs.purchaseId }),
      '949',
      'No active subscription found',
    );
    await expectRejection(core.cancelPurchase({ transactionId: tx(), mdn, purchaseId: 'PUR99999999' }), '949');
    const basePlan = (await core.getUsage(mdn)).subscriptions[0]!.purchaseId;
    await expectRejection(
      core.cancelPurchase({ transactionId: tx(), mdn, purchaseId: basePlan }),
      '919',
      'Invalid subscription id',
    );
  });

  it('reports the WFC outcome of a WFC add-on beside the purchase', async () => {
    const core = newCarrier();
    const { mdn } = await activeLine(core);
    const result = await core.purchasePlan({
      transactionId: tx(),
      mdn,
      carrierPlanId: 'UNLWFC',
      wfc: { address: null },
    });
    expect(result).toMatchObject({
      mdn,
      purchaseId: 'PUR00000001',
      wfc: { provisioned: false, failure: { code: 'GENS-0090' } },
    });
  });
});

describe('billing code', () => {
  it('changes the wholesale billing code without touching the plan', async () => {
    const core = newCarrier();
    const { mdn } = await activeLine(core);
    await expect(core.changeBillingCode({ transactionId: tx(), mdn, billingCode: 'BC999' })).resolves.toBeUndefined();
    expect((await core.getUsage(mdn)).planName).toBe('Plus 5GB');
    await expectRejection(core.changeBillingCode({ transactionId: tx(), mdn: '9090000000', billingCode: 'X' }), '909');
  });
});
