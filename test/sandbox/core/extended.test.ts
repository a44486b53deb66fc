import { describe, expect, it } from 'vitest';
import type { ExtendedCarrierOperations } from '../../../src/carriers/types.js';
import { DAY, activeLine, expectRejection, newCarrier, physicalSim, tx } from './helpers.js';

function extendedCarrier() {
  const core = newCarrier();
  const extended: ExtendedCarrierOperations = core.extended!;
  return { core, extended };
}

describe('which carriers offer extended operations', () => {
  it('is carrier 321 by default, and any carrier that asks', () => {
    expect(newCarrier({ carrier: '321' }).extended).toBeDefined();
    expect(newCarrier({ carrier: 'carrier_b' }).extended).toBeUndefined();
    expect(newCarrier({ carrier: 'carrier_b', extended: true }).extended).toBeDefined();
    expect(newCarrier({ carrier: '321', extended: false }).extended).toBeUndefined();
  });
});

describe('extended reads', () => {
  it('lists the plan catalogue', async () => {
    const { extended } = extendedCarrier();
    const plans = await extended.listAvailablePlans();
    expect(plans).toContainEqual({ soc: 'BASIC1GB', name: 'Basic 1GB' });
    expect(plans.map((plan) => plan.soc)).toEqual(['BASIC1GB', 'PLUS5GB', 'UNL10GB', 'UNLWFC', 'TOPUP1GB', 'INTL100']);
  });

  it('validates and normalises addresses', async () => {
    const { extended } = extendedCarrier();
    expect(
      await extended.validateAddress({ street1: '1  main st', city: 'new york', state: 'ny', zipCode: '10001' }),
    ).toEqual({
      valid: true,
      normalized: { street1: '1 MAIN ST', city: 'NEW YORK', state: 'NY', zipCode: '10001' },
    });
    expect(
      await extended.validateAddress({ street1: '1 Invalid Rd', city: 'X', state: 'NY', zipCode: '10001' }),
    ).toEqual({ valid: false, normalized: null });
    expect(await extended.validateAddress({ street1: '1 Main St', city: 'X', state: 'NY', zipCode: '00000' })).toEqual({
      valid: false,
      normalized: null,
    });
  });

  it('makes a device unlock-eligible after 60 days on a line', async () => {
    const { core, extended } = extendedCarrier();
    const { mdn } = await activeLine(core);
    const { imei } = await core.getServiceProfile(mdn);
    expect(await extended.getDeviceUnlockStatus(imei)).toMatchObject({ imei, unlocked: false, unlockEligible: false });
    core.advanceClock(60 * DAY);
    expect(await extended.getDeviceUnlockStatus(imei)).toEqual({
      imei,
      unlocked: false,
      unlockEligible: true,
      reason: null,
    });
    expect((await extended.getDeviceUnlockStatus('356938035643809')).unlockEligible).toBe(true);
    await expectRejection(extended.getDeviceUnlockStatus('990000862471854'), '506');
  });

  it('shows an account and its pooled data use', async () => {
    const { core, extended } = extendedCarrier();
    const parent = await activeLine(core, { carrierPlanId: 'BASIC1GB' });
    const child = await activeLine(core, { carrierPlanId: 'BASIC1GB' });
    await core.addChildLine({ transactionId: tx(), parentMdn: parent.mdn, parentSim: parent.sim, childMdn: child.mdn });
    await extended.setLabel({ transactionId: tx(), mdn: child.mdn, label: 'Kid' });
    const account = await extended.getAccount(parent.mdn);
    expect(account).toEqual({
      accountId: 'ACCT00000001',
      mdn: parent.mdn,
      lines: [
        { mdn: parent.mdn, sim: parent.sim, lineStatus: 'ACTIVE', label: null },
        { mdn: child.mdn, sim: child.sim, lineStatus: 'ACTIVE', label: 'Kid' },
      ],
    });
    const pool = await extended.getPoolUsage(account.accountId);
    expect(pool.accountId).toBe('ACCT00000001');
    expect(pool.poolBytes).toBe(2 * 1024 ** 3);
    expect(pool.lines.map((line) => line.mdn)).toEqual([parent.mdn, child.mdn]);
    expect(pool.usedBytes).toBe(pool.lines.reduce((sum, line) => sum + line.bytesUsed, 0));
    expect(pool.usedBytes).toBeGreaterThan(0);
    await expectRejection(extended.getPoolUsage('ACCT99999999'), '918');
    await expectRejection(extended.getPoolUsage('ACCT00000002'), '918');
  });

  it('lists number groups by ZIP', async () => {
    const { extended } = extendedCarrier();
    const groups = await extended.getNumberGroups('10001');
    expect(groups.zipCode).toBe('10001');
    expect(groups.groups.length).toBeGreaterThanOrEqual(1);
    for (const group of groups.groups)
      expect(group).toMatchObject({ npa: '321', nxx: expect.stringMatching(/^\d{3}$/) });
    expect(await extended.getNumberGroups('99999')).toEqual({ zipCode: '99999', groups: [] });
    await expectRejection(extended.getNumberGroups('00000'), '510');
  });

  it('shows the active plan, device details and products', async () => {
    const { core, extended } = extendedCarrier();
    const { mdn } = await activeLine(core, { carrierPlanId: 'UNL10GB' });
    expect(await extended.getActivePlan(mdn)).toEqual({
      mdn,
      soc: 'UNL10GB',
      planName: 'Unlimited Talk & Text 10GB',
      effectiveDate: '2026-03-01 12:00:00',
    });
    expect(await extended.getImeiDetails('356938035643809')).toMatchObject({
      imei: '356938035643809',
      blacklisted: false,
      esimCapable: true,
    });
    await expectRejection(extended.getImeiDetails('991234567890123'), '506');
    expect((await extended.getProducts(mdn)).products.map((product) => product.code)).toEqual(['VOLTE', 'VMBOX']);
    await expectRejection(extended.getActivePlan('3215559999'), '918');
  });

  it('filters seeded customer-impacting events by time window', async () => {
    const { extended } = extendedCarrier();
    expect((await extended.getCustomerImpactingEvents({})).map((event) => event.eventId)).toEqual([
      'CIM-0001',
      'CIM-0002',
      'CIM-0003',
      'CIM-0004',
    ]);
    const recent = await extended.getCustomerImpactingEvents({
      startTime: '2026-02-27 00:00:00',
      endTime: '2026-03-01T12:00:00Z',
    });
    expect(recent.map((event) => event.eventId)).toEqual(['CIM-0003']);
    expect(recent[0]).toMatchObject({ category: 'DEGRADED_SERVICE', endTime: null, startTime: '2026-02-28 12:00:00' });
    expect(
      (await extended.getCustomerImpactingEvents({ startTime: '2026-03-02' })).map((event) => event.eventId),
    ).toEqual(['CIM-0003', 'CIM-0004']);
    await expectRejection(extended.getCustomerImpactingEvents({ startTime: 'yesterday' }), 'GENS-0404');
    await expectRejection(extended.getCustomerImpactingEvents({ endTime: '2026-02-30 00:00:00' }), 'GENS-0404');
    await expectRejection(
      extended.getCustomerImpactingEvents({ startTime: '2026-03-02', endTime: '2026-03-01' }),
      'GENS-0404',
    );
  });
});

describe('extended writes', () => {
  it('sends an SMS to an active line only (915), up to 160 characters (GENS-0404), once per transaction', async () => {
    const { core, extended } = extendedCarrier();
    const { mdn } = await activeLine(core);
    const request = { transactionId: tx(), mdn, message: 'Hello' };
    const sent = await extended.sendSms(request);
    expect(sent).toEqual({ mdn, messageId: 'SMS00000001' });
    expect(await extended.sendSms(request)).toEqual(sent);
    expect((await extended.sendSms({ transactionId: tx(), mdn, message: 'x'.repeat(160) })).messageId).toBe(
      'SMS00000002',
    );
    await expectRejection(extended.sendSms({ transactionId: tx(), mdn, message: 'x'.repeat(161) }), 'GENS-0404');
    // Characters are code points: 160 emoji are 160 characters (320 UTF-16 units).
    expect((await extended.sendSms({ transactionId: tx(), mdn, message: '😀'.repeat(160) })).mdn).toBe(mdn);
    await expectRejection(extended.sendSms({ transactionId: tx(), mdn, message: '😀'.repeat(161) }), 'GENS-0404');
    await core.suspend({ transactionId: tx(), mdn });
    await expectRejection(extended.sendSms({ transactionId: tx(), mdn, message: 'Hi' }), '915');
  });

  it('manages allow and block lists', async () => {
    const { core, extended } = extendedCarrier();
    const { mdn } = await activeLine(core);
    const manage = (action: 'add' | 'remove' | 'block' | 'unblock', numbers: string[]) =>
      extended.managePhoneList({ transactionId: tx(), mdn, action, numbers });
    expect(await manage('add', ['2125550100', '2125550101', '2125550100'])).toEqual({
      mdn,
      allowed: ['2125550100', '2125550101'],
      blocked: [],
    });
    expect(await manage('block', ['2125550101', '+13105550199'])).toEqual({
      mdn,
      allowed: ['2125550100'],
      blocked: ['2125550101', '+13105550199'],
    });
    expect(await manage('unblock', ['2125550101'])).toEqual({
      mdn,
      allowed: ['2125550100'],
      blocked: ['+13105550199'],
    });
    expect(await manage('remove', ['2125550100'])).toEqual({ mdn, allowed: [], blocked: ['+13105550199'] });
    await expectRejection(manage('add', ['not-a-number']), 'GENS-0404');
  });

  it('labels a line with up to 100 characters', async () => {
    const { core, extended } = extendedCarrier();
    const { mdn } = await activeLine(core);
    expect(await extended.setLabel({ transactionId: tx(), mdn, label: 'x'.repeat(100) })).toEqual({
      mdn,
      label: 'x'.repeat(100),
    });
    await expectRejection(extended.setLabel({ transactionId: tx(), mdn, label: 'x'.repeat(101) }), 'GENS-0404');
    await expectRejection(extended.setLabel({ transactionId: tx(), mdn: '9090000000', label: 'x' }), '909');
  });

  it('changes the device, needing the line’s SIM (GENS-0012) and a known IMEI (506)', async () => {
    const { core, extended } = extendedCarrier();
    const { mdn, sim } = await activeLine(core);
    core.advanceClock(90 * DAY);
    await expectRejection(extended.changeImei({ transactionId: tx(), mdn, sim, newImei: '990000000000000' }), '506');
    await expectRejection(
      extended.changeImei({ transactionId: tx(), mdn, sim: physicalSim(), newImei: '356938035643809' }),
      'GENS-0012',
    );
    expect(await extended.changeImei({ transactionId: tx(), mdn, sim, newImei: '356938035643809' })).toEqual({
      mdn,
      sim,
      imei: '356938035643809',
    });
    expect((await core.getServiceProfile(mdn)).imei).toBe('356938035643809');
    expect((await extended.getDeviceUnlockStatus('356938035643809')).unlockEligible).toBe(false);
  });
});
