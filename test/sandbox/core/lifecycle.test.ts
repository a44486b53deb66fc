import { describe, expect, it } from 'vitest';
import { ADDRESS, BAD_ADDRESS, DAY, activeLine, expectRejection, newCarrier, physicalSim, tx } from './helpers.js';

describe('suspend (hotline) and restore', () => {
  it('hotlines an ACTIVE line with its number and reason, and restores it', async () => {
    const core = newCarrier();
    const { mdn } = await activeLine(core);
    await core.suspend({
      transactionId: tx(),
      mdn,
      hotlineNumber: '8005551234',
      hotlineChargeable: true,
      reason: 'non-payment',
    });
    const profile = await core.getServiceProfile(mdn);
    expect(profile).toMatchObject({ lineStatus: 'SUSPENDED', hotlineStatus: 'HOTLINED', hotlineNumber: '8005551234' });
    expect(profile.serviceCodes.map((code) => code.code)).toContain('HOTLINE');

    await core.restore({ transactionId: tx(), mdn });
    expect(await core.getServiceProfile(mdn)).toMatchObject({
      lineStatus: 'ACTIVE',
      hotlineStatus: null,
      hotlineNumber: null,
    });
  });

  it('refuses to suspend a line that is not NEW or ACTIVE (935)', async () => {
    const core = newCarrier();
    const { mdn } = await activeLine(core);
    await core.suspend({ transactionId: tx(), mdn });
    await expectRejection(core.suspend({ transactionId: tx(), mdn }), '935', 'Subscriber state not NEW or ACTIVE');
  });

  it('refuses to restore a line that is not suspended (GENS-0033)', async () => {
    const core = newCarrier();
    const { mdn } = await activeLine(core);
    await expectRejection(core.restore({ transactionId: tx(), mdn }), 'GENS-0033', 'MSISDN is not suspended');
  });

  it('limits a hotline to one service, and restores service by service', async () => {
    const core = newCarrier();
    const { mdn } = await activeLine(core);
    await core.suspend({ transactionId: tx(), mdn, service: 'VOICE' });
    expect((await core.getServiceProfile(mdn)).hotlineStatus).toBe('HOTLINED (VOICE)');
    await expectRejection(
      core.restore({ transactionId: tx(), mdn, service: 'SMS' }),
      'GENS-0033',
      'MSISDN is not suspended for SMS',
    );
    await core.restore({ transactionId: tx(), mdn, service: 'VOICE' });
    expect((await core.getUsage(mdn)).lineStatus).toBe('ACTIVE');

    await core.suspend({ transactionId: tx(), mdn });
    await core.restore({ transactionId: tx(), mdn, service: 'SMS' });
    expect(await core.getServiceProfile(mdn)).toMatchObject({
      lineStatus: 'SUSPENDED',
      hotlineStatus: 'HOTLINED (VOICE, DATA)',
    });
    await core.restore({ transactionId: tx(), mdn });
    expect((await core.getUsage(mdn)).lineStatus).toBe('ACTIVE');
  });

  it('refuses a malformed hotline number (GENS-0183)', async () => {
    const core = newCarrier();
    const { mdn } = await activeLine(core);
    await expectRejection(core.suspend({ transactionId: tx(), mdn, hotlineNumber: '12' }), 'GENS-0183');
    expect((await core.getUsage(mdn)).lineStatus).toBe('ACTIVE');
  });
});

describe('disconnect', () => {
  it('needs the line’s SIM (GENS-0065)', async () => {
    const core = newCarrier();
    const { mdn } = await activeLine(core);
    await expectRejection(core.disconnect({ transactionId: tx(), mdn, sim: physicalSim() }), 'GENS-0065');
    expect((await core.getUsage(mdn)).lineStatus).toBe('ACTIVE');
  });

  it('is permanent: the line answers 915 to almost everything afterwards', async () => {
    const core = newCarrier();
    const { mdn, sim } = await activeLine(core);
    expect(await core.disconnect({ transactionId: tx(), mdn, sim })).toEqual({ mdn, sim });
    await expectRejection(core.getUsage(mdn), '915', 'ESN/MDN is inactive');
    await expectRejection(core.getServiceProfile(mdn), '915');
    await expectRejection(core.getNetworkStatus(mdn), '915');
    await expectRejection(core.suspend({ transactionId: tx(), mdn }), '915');
    await expectRejection(core.disconnect({ transactionId: tx(), mdn, sim }), '915');
    await expectRejection(core.changePlan({ transactionId: tx(), mdn, carrierPlanId: 'BASIC1GB' }), '915');
    expect((await core.getSimDetails(sim)).iccidStatus).toBe('DEACTIVATED');
  });

  it('disconnects a suspended line too', async () => {
    const core = newCarrier();
    const { mdn, sim } = await activeLine(core);
    await core.suspend({ transactionId: tx(), mdn });
    await core.disconnect({ transactionId: tx(), mdn, sim });
    await expectRejection(core.getUsage(mdn), '915');
  });
});

describe('reconnect', () => {
  async function disconnectedLine(core: ReturnType<typeof newCarrier>) {
    const line = await activeLine(core);
    await core.disconnect({ transactionId: tx(), mdn: line.mdn, sim: line.sim });
    return line;
  }

  it('brings the number back on its own SIM within 30 days, on the given plan', async () => {
    const core = newCarrier();
    const { mdn, sim } = await disconnectedLine(core);
    core.advanceClock(30 * DAY);
    const result = await core.reconnect({
      transactionId: tx(),
      mdn,
      sim,
      carrierPlanId: 'BASIC1GB',
      zipCode: '10001',
      billingCode: 'BC123',
    });
    expect(result).toEqual({ mdn, sim });
    const usage = await core.getUsage(mdn);
    expect(usage).toMatchObject({
      lineStatus: 'ACTIVE',
      planName: 'Basic 1GB',
      balanceDetails: { talk: 500, text: 1000, data: 1024 ** 3 },
    });
    expect(usage.subscriptions).toHaveLength(1);
    expect((await core.getSimDetails(sim)).iccidStatus).toBe('INUSE');
  });

  it('refuses after the 30-day window (GENS-0147)', async () => {
    const core = newCarrier();
    const { mdn, sim } = await disconnectedLine(core);
    core.advanceClock(30 * DAY + 1000);
    await expectRejection(
      core.reconnect({
        transactionId: tx(),
        mdn,
        sim,
        carrierPlanId: 'BASIC1GB',
        zipCode: '10001',
        billingCode: 'BC123',
      }),
      'GENS-0147',
      'MSISDN ineligible for reactivation: disconnected more than 30 days ago',
    );
  });

  it('refuses a line that is not disconnected (GENS-0147)', async () => {
    const core = newCarrier();
    const { mdn, sim } = await activeLine(core);
    await expectRejection(
      core.reconnect({
        transactionId: tx(),
        mdn,
        sim,
        carrierPlanId: 'BASIC1GB',
        zipCode: '10001',
        billingCode: 'BC123',
      }),
      'GENS-0147',
    );
  });

  it('accepts an AVAILABLE SIM instead, retiring the old one', async () => {
    const core = newCarrier();
    const { mdn, sim } = await disconnectedLine(core);
    const newSim = physicalSim();
    expect(
      await core.reconnect({
        transactionId: tx(),
        mdn,
        sim: newSim,
        carrierPlanId: 'BASIC1GB',
        zipCode: '10001',
        billingCode: 'BC9',
      }),
    ).toEqual({ mdn, sim: newSim });
    expect((await core.getSimDetails(sim)).iccidStatus).toBe('DEACTIVATED');
    expect((await core.getServiceProfile(mdn)).sim).toBe(newSim);
  });

  it('checks the SIM, ZIP and plan like an activation', async () => {
    const core = newCarrier();
    const other = await activeLine(core);
    const { mdn } = await disconnectedLine(core);
    const base = { mdn, carrierPlanId: 'BASIC1GB', zipCode: '10001', billingCode: 'BC123' };
    await expectRejection(core.reconnect({ ...base, transactionId: tx(), sim: other.sim }), '914');
    await expectRejection(core.reconnect({ ...base, transactionId: tx(), sim: '8999000000000000001' }), '910');
    await expectRejection(core.reconnect({ ...base, transactionId: tx(), sim: 'ABC' }), 'GENS-0006');
    await expectRejection(
      core.reconnect({ ...base, transactionId: tx(), sim: physicalSim(), zipCode: '00000' }),
      '510',
    );
    await expectRejection(
      core.reconnect({ ...base, transactionId: tx(), sim: physicalSim(), zipCode: '99999' }),
      'GENS-0289',
    );
    await expectRejection(
      core.reconnect({ ...base, transactionId: tx(), sim: physicalSim(), carrierPlanId: 'INVALID1' }),
      '906',
    );
  });

  it('reports a WFC failure as a warning, not a failure', async () => {
    const core = newCarrier();
    const { mdn, sim } = await disconnectedLine(core);
    const request = { transactionId: tx(), mdn, sim, carrierPlanId: 'UNLWFC', zipCode: '10001', billingCode: 'BC123' };
    const result = await core.reconnect({ ...request, wfc: { address: BAD_ADDRESS } });
    expect(result.wfc).toMatchObject({ provisioned: false, failure: { code: 'GENS-0090' } });
    expect((await core.getUsage(mdn)).lineStatus).toBe('ACTIVE');
    await core.addWfc({ transactionId: tx(), mdn, sim, address: ADDRESS });
  });

  it('knows nothing of numbers it never issued (918) or another vendor’s (909)', async () => {
    const core = newCarrier();
    const request = { sim: physicalSim(), carrierPlanId: 'BASIC1GB', zipCode: '10001', billingCode: 'BC123' };
    await expectRejection(
      core.reconnect({ ...request, transactionId: tx(), mdn: '3215559999' }),
      '918',
      'Subscriber with given resource does not exist',
    );
    await expectRejection(
      core.reconnect({ ...request, transactionId: tx(), mdn: '9095551234' }),
      '909',
      'MDN does not belong to this vendor',
    );
  });
});
