import { describe, expect, it } from 'vitest';
import { ADDRESS, START_STAMP, activeLine, esim, expectRejection, newCarrier, physicalSim, tx } from './helpers.js';

describe('line queries', () => {
  it('serves the full service profile, verifying the SIM when given (918)', async () => {
    const core = newCarrier();
    const { mdn, sim } = await activeLine(core, { carrierPlanId: 'BASIC1GB' });
    const profile = await core.getServiceProfile(mdn, sim);
    expect(profile).toMatchObject({
      mdn,
      sim,
      lineStatus: 'ACTIVE',
      planName: 'Basic 1GB',
      effectiveDate: START_STAMP,
      billCycleDay: '1',
      e911Address: null,
      hotlineStatus: null,
      hotlineNumber: null,
    });
    expect(profile.imei).toMatch(/^35\d{13}$/);
    expect(profile.serviceCodes).toEqual([
      { code: 'BASIC1GB', effectiveDate: '2026-03-01' },
      { code: 'VOLTE', effectiveDate: '2026-03-01' },
      { code: 'VMBOX', effectiveDate: '2026-03-01' },
    ]);
    await expectRejection(core.getServiceProfile(mdn, physicalSim()), '918');
  });

  it('reports the network status with a stable IMSI and the line’s SOCs', async () => {
    const core = newCarrier();
    const { mdn, sim } = await activeLine(core, { carrierPlanId: 'BASIC1GB' });
    await core.addWfc({ transactionId: tx(), mdn, sim, address: ADDRESS });
    const status = await core.getNetworkStatus(mdn);
    expect(status).toMatchObject({ mdn, sim, lineStatus: 'ACTIVE', simStatus: 'INUSE', imsi: '310240215550001' });
    expect(status.serviceCodes).toEqual(['BASIC1GB', 'VOLTE', 'VMBOX', 'WFC911']);
  });

  it('adds a usage record for every later activity on the line', async () => {
    const core = newCarrier();
    const { mdn } = await activeLine(core);
    await core.suspend({ transactionId: tx(), mdn });
    const records = (await core.getCarrierUsage(mdn)).usageRecords;
    expect(records).toHaveLength(4);
    expect(records[3]).toMatchObject({ type: 'VOICE', timestamp: START_STAMP });
  });

  it('answers 918 for numbers never issued and 909 for another vendor’s', async () => {
    const core = newCarrier();
    await expectRejection(core.getUsage('3215550001'), '918');
    await expectRejection(core.getCarrierUsage('6465550001'), '918');
    await expectRejection(core.getNetworkStatus('9091112222'), '909');
  });
});

describe('coverage and devices', () => {
  it('covers ordinary ZIPs with one to three deterministic areas', async () => {
    const core = newCarrier();
    const coverage = await core.getCoverage('10001');
    expect(coverage.covered).toBe(true);
    expect(coverage.areas.length).toBeGreaterThanOrEqual(1);
    expect(coverage.areas.length).toBeLessThanOrEqual(3);
    for (const area of coverage.areas) {
      expect(area.zipCode).toBe('10001');
      expect(['EXCELLENT', 'GOOD', 'FAIR']).toContain(area.quality);
    }
    expect(await newCarrier().getCoverage('10001')).toEqual(coverage);
    expect((await core.getCoverage('10001-1234')).covered).toBe(true);
  });

  it('says 99999 is not covered and 00000 is invalid (510)', async () => {
    const core = newCarrier();
    expect(await core.getCoverage('99999')).toEqual({ zipCode: '99999', covered: false, areas: [] });
    await expectRejection(core.getCoverage('00000'), '510', 'Invalid zip code');
    await expectRejection(core.getCoverage('1234'), '510');
  });

  it('knows every 15-digit IMEI except those starting 99 (506)', async () => {
    const core = newCarrier();
    const device = await core.getDevice('356938035643809');
    expect(device).toMatchObject({
      imei: '356938035643809',
      compatible: true,
      esimCapable: true,
      volteCapable: true,
      wifiCallingCapable: true,
      networkApproved: true,
    });
    expect(device.manufacturer).toBeTruthy();
    expect(await core.getDevice('356938035643809')).toEqual(device);
    await expectRejection(core.getDevice('990000862471854'), '506', 'Invalid ESN / device');
    await expectRejection(core.getDevice('12345'), '506');
  });
});

describe('SIM queries', () => {
  it('describes an AVAILABLE SIM with PUKs and dates', async () => {
    const core = newCarrier();
    const sim = physicalSim();
    const details = await core.getSimDetails(sim);
    expect(details).toMatchObject({ sim, activationEligible: true, wfcEligible: true, iccidStatus: 'AVAILABLE' });
    expect(details.puk1).toMatch(/^\d{8}$/);
    expect(details.puk2).toMatch(/^\d{8}$/);
    expect(details.createDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(details.expirationDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
    expect(Date.parse(details.createDate!)).toBeLessThan(Date.parse('2026-03-01T12:00:00Z'));
  });

  it('answers 506 for non-ICCIDs, 910 for another MVNO’s SIM and 918 for unknown ones', async () => {
    const core = newCarrier();
    await expectRejection(core.getSimDetails('1234567890123456789'), '506');
    await expectRejection(core.getSimDetails('8999000000000000001'), '910', 'ESN does not belong to this MVNO');
    await expectRejection(core.getSimDetails('8944000000000000001'), '918');
  });

  it('serves an eSIM profile for 8902 SIMs only', async () => {
    const core = newCarrier();
    const sim = esim();
    const profile = await core.getEsimProfile(sim);
    expect(profile).toMatchObject({ sim, profileState: 'AVAILABLE', profileType: 'CONSUMER' });
    expect(profile.matchingId).toMatch(/^[0-9A-F]{5}(-[0-9A-F]{5}){3}$/);
    expect(profile.activationCode).toBe(`LPA:1$smdp.carrier321.sandbox.example$${profile.matchingId}`);
    await expectRejection(core.getEsimProfile(physicalSim()), '8010', 'eSIM not available for this MVNO');
    await expectRejection(
      core.getEsimProfile('89029000000000000001'),
      '8011',
      'eSIM profile already completed and mapped',
    );
    await expectRejection(core.getEsimProfile('1234'), '506');
    await expectRejection(core.getEsimProfile('8912000000000000001'), '918');
  });
});
