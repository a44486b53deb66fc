import { describe, expect, it } from 'vitest';
import { ADDRESS, BAD_ADDRESS, activeLine, expectRejection, newCarrier, physicalSim, tx } from './helpers.js';

describe('Wi-Fi Calling', () => {
  it('adds WFC with an E911 address once (GENS-0010 the second time)', async () => {
    const core = newCarrier();
    const { mdn, sim } = await activeLine(core);
    expect(await core.addWfc({ transactionId: tx(), mdn, sim, address: ADDRESS })).toEqual({ mdn, sim });
    expect((await core.getServiceProfile(mdn)).e911Address).toEqual(ADDRESS);
    await expectRejection(
      core.addWfc({ transactionId: tx(), mdn, sim, address: ADDRESS }),
      'GENS-0010',
      'Duplicate products',
    );
  });

  it('refuses an invalid E911 address (GENS-0090) and another SIM (GENS-0170)', async () => {
    const core = newCarrier();
    const { mdn, sim } = await activeLine(core);
    await expectRejection(
      core.addWfc({ transactionId: tx(), mdn, sim, address: BAD_ADDRESS }),
      'GENS-0090',
      'Invalid E911 address',
    );
    await expectRejection(
      core.addWfc({ transactionId: tx(), mdn, sim, address: { ...ADDRESS, address1: 'somewhere invalid' } }),
      'GENS-0090',
    );
    await expectRejection(core.addWfc({ transactionId: tx(), mdn, sim: physicalSim(), address: ADDRESS }), 'GENS-0170');
    expect((await core.getServiceProfile(mdn)).e911Address).toBeNull();
  });

  it('updates the E911 address only while WFC is on (GENS-0124)', async () => {
    const core = newCarrier();
    const { mdn, sim } = await activeLine(core);
    const moved = { ...ADDRESS, address1: '2 Side St', address2: 'Apt 3' };
    await expectRejection(
      core.updateE911Address({ transactionId: tx(), mdn, address: moved }),
      'GENS-0124',
      'Cannot update E911, WFC not active',
    );
    await core.addWfc({ transactionId: tx(), mdn, sim, address: ADDRESS });
    expect(await core.updateE911Address({ transactionId: tx(), mdn, address: moved })).toEqual({ mdn, sim });
    expect((await core.getServiceProfile(mdn)).e911Address).toEqual(moved);
    await expectRejection(core.updateE911Address({ transactionId: tx(), mdn, address: BAD_ADDRESS }), 'GENS-0090');
    await expectRejection(
      core.updateE911Address({ transactionId: tx(), mdn, sim: physicalSim(), address: moved }),
      'GENS-0404',
    );
    await core.updateE911Address({ transactionId: tx(), mdn, sim, address: ADDRESS });
  });

  it('answers 918, 909 and 915 like every line operation', async () => {
    const core = newCarrier();
    const { mdn, sim } = await activeLine(core);
    await expectRejection(core.addWfc({ transactionId: tx(), mdn: '3215550999', sim, address: ADDRESS }), '918');
    await expectRejection(core.addWfc({ transactionId: tx(), mdn: '9091234567', sim, address: ADDRESS }), '909');
    await core.disconnect({ transactionId: tx(), mdn, sim });
    await expectRejection(core.addWfc({ transactionId: tx(), mdn, sim, address: ADDRESS }), '915');
  });
});

describe('voicemail and device location', () => {
  it('resets the voicemail password, verifying the SIM when given (GENS-0149)', async () => {
    const core = newCarrier();
    const { mdn, sim } = await activeLine(core);
    await expect(core.resetVoicemailPassword({ transactionId: tx(), mdn })).resolves.toBeUndefined();
    await expect(core.resetVoicemailPassword({ transactionId: tx(), mdn, sim })).resolves.toBeUndefined();
    await expectRejection(core.resetVoicemailPassword({ transactionId: tx(), mdn, sim: physicalSim() }), 'GENS-0149');
  });

  it('sets the voicemail language and cancels device location', async () => {
    const core = newCarrier();
    const { mdn } = await activeLine(core);
    await expect(core.setVoicemailLanguage({ transactionId: tx(), mdn, language: 'SPAN' })).resolves.toBeUndefined();
    await expect(core.setVoicemailLanguage({ transactionId: tx(), mdn, language: 'SPAN' })).resolves.toBeUndefined();
    await expect(core.cancelDeviceLocation({ transactionId: tx(), mdn })).resolves.toBeUndefined();
    await expectRejection(core.cancelDeviceLocation({ transactionId: tx(), mdn: '3215550042' }), '918');
  });
});
