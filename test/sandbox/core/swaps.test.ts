import { describe, expect, it } from 'vitest';
import { DAY, activation, activeLine, expectRejection, newCarrier, physicalSim, tx } from './helpers.js';

describe('SIM swap', () => {
  it('moves the line to an AVAILABLE SIM and retires the old one for good', async () => {
    const core = newCarrier();
    const { mdn, sim } = await activeLine(core);
    const newSim = physicalSim();
    expect(await core.swapSim({ transactionId: tx(), mdn, oldSim: sim, newSim })).toEqual({ mdn, sim: newSim });
    expect((await core.getServiceProfile(mdn)).sim).toBe(newSim);
    expect((await core.getSimDetails(newSim)).iccidStatus).toBe('INUSE');
    expect(await core.getSimDetails(sim)).toMatchObject({ iccidStatus: 'DEACTIVATED', activationEligible: false });
    await expectRejection(core.activate(activation({ sim })), 'GENS-0006', 'Invalid SIM: the SIM has been deactivated');
  });

  it('needs the line’s current SIM as the old one (GENS-0012)', async () => {
    const core = newCarrier();
    const { mdn } = await activeLine(core);
    await expectRejection(
      core.swapSim({ transactionId: tx(), mdn, oldSim: physicalSim(), newSim: physicalSim() }),
      'GENS-0012',
    );
  });

  it('refuses a new SIM already in use (GENS-0018), foreign (910), invalid (GENS-0006) or expired (GENS-0197)', async () => {
    const core = newCarrier();
    const { mdn, sim } = await activeLine(core);
    const other = await activeLine(core);
    const swap = (newSim: string) => core.swapSim({ transactionId: tx(), mdn, oldSim: sim, newSim });
    await expectRejection(swap(other.sim), 'GENS-0018', 'SIM is already in use');
    await expectRejection(swap(sim), 'GENS-0018');
    await expectRejection(swap('8999000000000000009'), '910');
    await expectRejection(swap('0000000000000000000'), 'GENS-0006');
    await expectRejection(swap('8955000000000000000'), 'GENS-0006');
    const stale = physicalSim();
    core.advanceClock(3 * 365 * DAY);
    await expectRejection(swap(stale), 'GENS-0197');
  });
});

describe('MDN swap', () => {
  it('gives the line the next number of the pool and forgets the old one (918)', async () => {
    const core = newCarrier();
    const { mdn, sim } = await activeLine(core);
    await activeLine(core);
    const result = await core.swapMdn({ transactionId: tx(), mdn, sim, zipCode: '10001' });
    expect(result).toEqual({ mdn, newMdn: '3215550003', sim });
    await expectRejection(core.getUsage(mdn), '918');
    expect((await core.getUsage('3215550003')).sim).toBe(sim);
    expect((await core.getNetworkStatus('3215550003')).mdn).toBe('3215550003');
  });

  it('takes a new device along when an IMEI is given, and refuses an unknown one (506)', async () => {
    const core = newCarrier();
    const { mdn, sim } = await activeLine(core);
    await expectRejection(
      core.swapMdn({ transactionId: tx(), mdn, sim, zipCode: '10001', imei: '990000000000001' }),
      '506',
      'Invalid ESN / device',
    );
    const { newMdn } = await core.swapMdn({ transactionId: tx(), mdn, sim, zipCode: '10001', imei: '356938035643809' });
    expect((await core.getServiceProfile(newMdn)).imei).toBe('356938035643809');
  });

  it('checks the SIM (918), the ZIP (510, GENS-0289) and the pool (GENS-0011)', async () => {
    const core = newCarrier({ mdnPoolSize: 1 });
    const { mdn, sim } = await activeLine(core);
    await expectRejection(core.swapMdn({ transactionId: tx(), mdn, sim: physicalSim(), zipCode: '10001' }), '918');
    await expectRejection(core.swapMdn({ transactionId: tx(), mdn, sim, zipCode: '00000' }), '510');
    await expectRejection(core.swapMdn({ transactionId: tx(), mdn, sim, zipCode: '99999' }), 'GENS-0289');
    await expectRejection(core.swapMdn({ transactionId: tx(), mdn, sim, zipCode: '10001' }), 'GENS-0011');
    expect((await core.getUsage(mdn)).mdn).toBe(mdn);
  });

  it('keeps a renumbered child line in its family', async () => {
    const core = newCarrier();
    const parent = await activeLine(core);
    const child = await activeLine(core);
    await core.addChildLine({ transactionId: tx(), parentMdn: parent.mdn, parentSim: parent.sim, childMdn: child.mdn });
    const { newMdn } = await core.swapMdn({ transactionId: tx(), mdn: child.mdn, sim: child.sim, zipCode: '10001' });
    const account = await core.extended!.getAccount(parent.mdn);
    expect(account.lines.map((line) => line.mdn)).toEqual([parent.mdn, newMdn]);
    await core.removeChildLine({ transactionId: tx(), parentMdn: parent.mdn, parentSim: parent.sim, childMdn: newMdn });
  });
});
