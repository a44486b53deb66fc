import { describe, expect, it } from 'vitest';
import {
  ADDRESS,
  BAD_ADDRESS,
  DAY,
  START_STAMP,
  activation,
  esim,
  expectRejection,
  newCarrier,
  physicalSim,
} from './helpers.js';

describe('activation', () => {
  it('creates an ACTIVE line with the next pool MDN, a customer and a base subscription matching the plan', async () => {
    const core = newCarrier();
    const sim = physicalSim();
    const result = await core.activate(activation({ sim, carrierPlanId: 'PLUS5GB' }));
    expect(result).toEqual({ mdn: '3215550001', sim, customerId: 'CUST00000001' });

    const usage = await core.getUsage(result.mdn);
    expect(usage).toMatchObject({
      mdn: '3215550001',
      sim,
      lineStatus: 'ACTIVE',
      customerId: 'CUST00000001',
      planName: 'Plus 5GB',
      effectiveDate: START_STAMP,
    });
    expect(usage.balanceDetails).toEqual({ talk: 1000, text: 5000, data: 5 * 1024 ** 3 });
    expect(usage.subscriptions).toHaveLength(1);
    expect(usage.subscriptions[0]).toMatchObject({
      purchaseId: 'SUB00000001',
      planCode: 'PLUS5GB',
      planName: 'Plus 5GB',
    });
    expect(usage.subscriptions[0]!.balances).toEqual([
      { uom: 'SECOND', balance: 60_000, validFrom: START_STAMP, validTo: '2026-03-31 12:00:00' },
      { uom: 'EVENT', balance: 5000, validFrom: START_STAMP, validTo: '2026-03-31 12:00:00' },
      { uom: 'BYTE', balance: 5 * 1024 ** 3, validFrom: START_STAMP, validTo: '2026-03-31 12:00:00' },
    ]);

    const details = await core.getSimDetails(sim);
    expect(details).toMatchObject({ iccidStatus: 'INUSE', activationEligible: false });
    expect((await core.getNetworkStatus(result.mdn)).simStatus).toBe('INUSE');
  });

  it('issues sequential MDNs per carrier: 321555xxxx for 321, 646555xxxx for carrier_b', async () => {
    const core = newCarrier();
    expect((await core.activate(activation())).mdn).toBe('3215550001');
    expect((await core.activate(activation())).mdn).toBe('3215550002');
    const b = newCarrier({ carrier: 'carrier_b' });
    expect((await b.activate(activation())).mdn).toBe('6465550001');
  });

  it('accepts ZIP+4 and a 19-digit ICCID, and defaults the billing code', async () => {
    const core = newCarrier();
    const sim = `8901${'7'.repeat(15)}`;
    const result = await core.activate(activation({ sim, zipCode: '10001-1234' }));
    expect(result.sim).toBe(sim);
  });

  it('refuses a SIM already active on a line (914)', async () => {
    const core = newCarrier();
    const sim = physicalSim();
    await core.activate(activation({ sim }));
    await expectRejection(core.activate(activation({ sim })), '914', 'ESN already active with another MDN');
  });

  it('refuses SIMs that are not this MVNO’s (910) or not valid (GENS-0006)', async () => {
    const core = newCarrier();
    await expectRejection(
      core.activate(activation({ sim: '8999000000000000001' })),
      '910',
      'ESN does not belong to this MVNO',
    );
    await expectRejection(core.activate(activation({ sim: '8912345678901234567' })), 'GENS-0006', 'Invalid SIM');
    await expectRejection(core.activate(activation({ sim: '1234567890123456789' })), 'GENS-0006');
    await expectRejection(core.activate(activation({ sim: '8901123' })), 'GENS-0006');
  });

  it('refuses an invalid ZIP (510) and an uncovered one (GENS-0289)', async () => {
    const core = newCarrier();
    await expectRejection(core.activate(activation({ zipCode: '00000' })), '510', 'Invalid zip code');
    await expectRejection(core.activate(activation({ zipCode: '99999' })), 'GENS-0289');
  });

  it('refuses an invalid plan (906) without using up an MDN', async () => {
    const core = newCarrier();
    await expectRejection(
      core.activate(activation({ carrierPlanId: 'INVALID_PLAN' })),
      '906',
      'Plan code invalid or inactive',
    );
    await expectRejection(core.activate(activation({ carrierPlanId: 'invalid-lower' })), '906');
    expect((await core.activate(activation({ carrierPlanId: 'ANY_OTHER_CODE' }))).mdn).toBe('3215550001');
    expect((await core.getUsage('3215550001')).planName).toBe('Plan ANY_OTHER_CODE');
  });

  it('activates eSIMs only with an eSIM ICCID and an email', async () => {
    const core = newCarrier();
    await expectRejection(core.activate(activation({ isEsim: true, email: 'a@example.com' })), 'GENS-0030');
    await expectRejection(core.activate(activation({ sim: esim(), isEsim: true })), 'GENS-0031');
    const sim = esim();
    const result = await core.activate(activation({ sim, isEsim: true, email: 'a@example.com' }));
    expect(result.sim).toBe(sim);
    expect((await core.getEsimProfile(sim)).profileState).toBe('RELEASED');
  });

  it('refuses an eSIM whose profile is already completed and mapped (8011)', async () => {
    const core = newCarrier();
    await expectRejection(
      core.activate(activation({ sim: '89029000000000000001', isEsim: true, email: 'a@example.com' })),
      '8011',
      'eSIM profile already completed and mapped',
    );
  });

  it('provisions WFC when asked, and reports a WFC failure without failing the activation', async () => {
    const core = newCarrier();
    const ok = await core.activate(activation({ wfc: { address: ADDRESS } }));
    expect(ok.wfc).toEqual({ provisioned: true });
    const profile = await core.getServiceProfile(ok.mdn);
    expect(profile.e911Address).toEqual(ADDRESS);
    expect(profile.serviceCodes.map((code) => code.code)).toContain('WFC911');

    const bad = await core.activate(activation({ wfc: { address: BAD_ADDRESS } }));
    expect(bad.wfc).toEqual({ provisioned: false, failure: { code: 'GENS-0090', text: 'Invalid E911 address' } });
    expect((await core.getServiceProfile(bad.mdn)).e911Address).toBeNull();
    expect((await core.getUsage(bad.mdn)).lineStatus).toBe('ACTIVE');

    const missing = await core.activate(activation({ wfc: { address: null } }));
    expect(missing.wfc).toMatchObject({ provisioned: false, failure: { code: 'GENS-0090' } });

    const none = await core.activate(activation());
    expect(none).not.toHaveProperty('wfc');
  });

  it('runs out of numbers with GENS-0011', async () => {
    const core = newCarrier({ mdnPoolSize: 1 });
    await core.activate(activation());
    await expectRejection(core.activate(activation()), 'GENS-0011');
  });

  it('refuses a SIM past its expiration date (GENS-0197)', async () => {
    const core = newCarrier();
    const sim = physicalSim();
    expect((await core.getSimDetails(sim)).activationEligible).toBe(true);
    core.advanceClock(3 * 365 * DAY);
    expect((await core.getSimDetails(sim)).activationEligible).toBe(false);
    await expectRejection(core.activate(activation({ sim })), 'GENS-0197', 'SIM has expired');
  });

  it('leaves usage records stamped with the sandbox clock', async () => {
    const core = newCarrier();
    const { mdn } = await core.activate(activation());
    const usage = await core.getCarrierUsage(mdn);
    expect(usage.mdn).toBe(mdn);
    expect(usage.usageRecords.map((record) => record.type)).toEqual(['VOICE', 'SMS', 'DATA']);
    for (const record of usage.usageRecords) expect(record.timestamp).toBe(START_STAMP);
    // Deterministic: a second sandbox doing the same things records the same usage.
    const again = newCarrier();
    await again.activate(activation());
    expect((await again.getCarrierUsage(mdn)).usageRecords).toEqual(usage.usageRecords);
  });
});
