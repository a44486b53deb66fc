// The carrier 321 adapter against the carrier 321 sandbox server and the real sandbox core,
// over loopback HTTP: every operation's answer must be exactly what the core said, after a
// trip through the wire format and back. Reads are compared with the core read directly;
// writes with the core's replay of the same transaction id (it returns the first answer).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCarrier321Adapter, type Carrier321Adapter } from '../../../src/carriers/carrier-321/adapter.js';
import { CarrierRejection } from '../../../src/carriers/errors.js';
import type { E911Address } from '../../../src/carriers/types.js';
import { createCarrier321SandboxServer } from '../../../src/sandbox/carrier-321/server.js';
import { SandboxCarrier } from '../../../src/sandbox/core/index.js';
import type { SandboxServer } from '../../../src/sandbox/http-kit.js';

const KEY = 'round-trip-key';
const ADDRESS: E911Address = {
  address1: '1 Main St',
  address2: 'Apt 2',
  city: 'Springfield',
  state: 'IL',
  zipCode: '62701',
};
const SIM_A = '89010000000000000101';
const SIM_B = '89010000000000000102';
const SIM_C = '89010000000000000103';
const ESIM = '89020000000000000104';
const IMEI = '356938035643809';

let sequence = 0;
const tx = (label: string): string => `RT-${label}-${++sequence}`;

async function rejectionOf(promise: Promise<unknown>): Promise<CarrierRejection> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CarrierRejection);
  return error as CarrierRejection;
}

describe('carrier 321 adapter ↔ sandbox server ↔ core', () => {
  let core: SandboxCarrier;
  let server: SandboxServer;
  let adapter: Carrier321Adapter;
  let mdn: string;

  beforeAll(async () => {
    core = new SandboxCarrier({ carrier: '321', startTime: new Date('2026-01-02T03:04:05Z') });
    server = createCarrier321SandboxServer({ core, credentials: { apiKey: KEY } });
    const baseUrl = await server.listen();
    adapter = createCarrier321Adapter({ baseUrl, apiKey: KEY, timeoutMs: 5000, retries: 1 });

    const request = {
      transactionId: tx('act'),
      sim: SIM_A,
      carrierPlanId: 'BASIC1GB',
      zipCode: '62701',
      address: ADDRESS,
      isEsim: false,
      language: 'ENGL' as const,
    };
    const activated = await adapter.activate(request);
    expect(activated).toEqual(await core.activate(request));
    expect(activated.mdn).toMatch(/^321555\d{4}$/);
    expect(activated.sim).toBe(SIM_A);
    mdn = activated.mdn;
  });

  afterAll(async () => {
    await adapter.close();
    await server.close();
  });

  it('reads subscriber queries exactly as the core answers them', async () => {
    expect(await adapter.getUsage(mdn)).toEqual(await core.getUsage(mdn));
    expect(await adapter.getServiceProfile(mdn)).toEqual(await core.getServiceProfile(mdn));
    expect(await adapter.getServiceProfile(mdn, SIM_A)).toEqual(await core.getServiceProfile(mdn, SIM_A));
    expect(await adapter.getCarrierUsage(mdn)).toEqual(await core.getCarrierUsage(mdn));
    expect(await adapter.getNetworkStatus(mdn)).toEqual(await core.getNetworkStatus(mdn));
    const usage = await adapter.getUsage(mdn);
    expect(usage.lineStatus).toBe('ACTIVE');
    expect(usage.effectiveDate).toBe('2026-01-02 03:04:05');
    expect((await adapter.getCarrierUsage(mdn)).usageRecords.length).toBeGreaterThan(0);
  });

  it('reads coverage, devices and SIMs exactly as the core answers them', async () => {
    for (const zip of ['62701', '99999']) expect(await adapter.getCoverage(zip)).toEqual(await core.getCoverage(zip));
    expect((await adapter.getCoverage('99999')).covered).toBe(false);
    expect(await adapter.getDevice(IMEI)).toEqual(await core.getDevice(IMEI));
    expect(await adapter.getEsimProfile(ESIM)).toEqual(await core.getEsimProfile(ESIM));
    expect(await adapter.getSimDetails(SIM_A)).toEqual(await core.getSimDetails(SIM_A));
    expect(await adapter.getSimDetails(SIM_C)).toEqual(await core.getSimDetails(SIM_C));
  });

  it('validates E911 addresses as the core does, valid and invalid', async () => {
    const valid = { address1: '1 Main St', address2: 'Apt 2', city: 'Springfield', state: 'IL', zipCode: '62701' };
    const invalid = { address1: '1 Invalid Way', city: 'Springfield', state: 'IL', zipCode: '62701' };
    expect(await adapter.validateE911Address(valid)).toEqual({ valid: true });
    expect(await adapter.validateE911Address(invalid)).toEqual(await core.validateE911Address(invalid));
    expect(await adapter.validateE911Address(invalid)).toEqual({
      valid: false,
      failure: { code: 'GENS-0090', text: 'Invalid E911 address' },
    });
  });

  it('normalises rejections to the spec form', async () => {
    const notSuspended = await rejectionOf(adapter.restore({ transactionId: tx('restore'), mdn }));
    expect(notSuspended.code).toBe('GENS-0033');
    expect(notSuspended.message).toBe('MSISDN is not suspended (GENS-0033)');

    expect((await rejectionOf(adapter.getUsage('3215559998'))).message).toBe(
      'Subscriber with given resource does not exist (918)',
    );
    expect((await rejectionOf(adapter.getCoverage('00000'))).code).toBe('510');
    expect((await rejectionOf(adapter.getDevice('990000000000000'))).code).toBe('506');
    expect((await rejectionOf(adapter.getEsimProfile(SIM_A))).code).toBe('8010');
  });

  it('runs the feature writes', async () => {
    const addWfc = { transactionId: tx('wfc'), mdn, sim: SIM_A, address: ADDRESS };
    expect(await adapter.addWfc(addWfc)).toEqual({ mdn, sim: SIM_A });
    expect(await core.addWfc(addWfc)).toEqual({ mdn, sim: SIM_A });
    expect((await rejectionOf(adapter.addWfc({ ...addWfc, transactionId: tx('wfc') }))).code).toBe('GENS-0010');

    const moved: E911Address = { address1: '2 Oak Ave', city: 'Chicago', state: 'IL', zipCode: '60601' };
    expect(await adapter.updateE911Address({ transactionId: tx('e911'), mdn, address: moved })).toEqual({
      mdn,
      sim: SIM_A,
    });
    expect((await adapter.getServiceProfile(mdn)).e911Address).toEqual(moved);

    await expect(adapter.resetVoicemailPassword({ transactionId: tx('vm'), mdn, sim: SIM_A })).resolves.toBeUndefined();
    await expect(
      adapter.setVoicemailLanguage({ transactionId: tx('lang'), mdn, language: 'SPAN' }),
    ).resolves.toBeUndefined();
    await expect(adapter.cancelDeviceLocation({ transactionId: tx('loc'), mdn })).resolves.toBeUndefined();
  });

  it('hotlines and restores a line', async () => {
    await adapter.suspend({
      transactionId: tx('suspend'),
      mdn,
      service: 'DATA',
      hotlineNumber: '8005551212',
      hotlineChargeable: true,
      reason: 'test',
    });
    const profile = await adapter.getServiceProfile(mdn);
    expect(profile).toEqual(await core.getServiceProfile(mdn));
    expect(profile.lineStatus).toBe('SUSPENDED');
    expect(profile.hotlineNumber).toBe('8005551212');
    expect((await rejectionOf(adapter.suspend({ transactionId: tx('suspend'), mdn }))).message).toBe(
      'Subscriber state not NEW or ACTIVE (935)',
    );

    await adapter.restore({ transactionId: tx('restore'), mdn, service: 'DATA' });
    expect((await adapter.getUsage(mdn)).lineStatus).toBe('ACTIVE');
  });

  it('purchases, adjusts and cancels add-ons, changes plan and billing code', async () => {
    const purchase = { transactionId: tx('buy'), mdn, carrierPlanId: 'TOPUP1GB' };
    const bought = await adapter.purchasePlan(purchase);
    expect(bought).toEqual(await core.purchasePlan(purchase));
    // The same transaction id through the adapter again: the carrier replays, nothing is bought twice.
    expect(await adapter.purchasePlan(purchase)).toEqual(bought);

    await adapter.adjustBalance({
      transactionId: tx('adj'),
      mdn,
      subscriptionId: bought.purchaseId,
      uom: 'BYTE',
      amount: 1024,
      expiryDate: '2026-03-01',
    });
    await adapter.adjustBalances({
      transactionId: tx('adjm'),
      mdn,
      adjustments: [{ subscriptionId: bought.purchaseId, uom: 'BYTE', amount: -512 }],
    });
    expect(
      (
        await rejectionOf(
          adapter.adjustBalance({ transactionId: tx('adj'), mdn, subscriptionId: 'NOPE', uom: 'BYTE', amount: 1 }),
        )
      ).code,
    ).toBe('919');

    const cancel = { transactionId: tx('cancel'), mdn, purchaseId: bought.purchaseId };
    expect(await adapter.cancelPurchase(cancel)).toEqual({ mdn, purchaseId: bought.purchaseId });
    expect((await rejectionOf(adapter.cancelPurchase({ ...cancel, transactionId: tx('cancel') }))).code).toBe('949');

    const change = { transactionId: tx('plan'), mdn, sim: SIM_A, carrierPlanId: 'PLUS5GB' };
    expect(await adapter.changePlan(change)).toEqual(await core.changePlan(change));
    expect((await adapter.getServiceProfile(mdn)).planName).toBe('Plus 5GB');
    expect((await rejectionOf(adapter.changePlan({ ...change, transactionId: tx('plan') }))).code).toBe('916');

    const wfcPlan = {
      transactionId: tx('plan'),
      mdn,
      carrierPlanId: 'UNLWFC',
      wfc: { address: { ...ADDRESS, address1: '1 INVALID St' } },
    };
    const wfcResult = await adapter.changePlan(wfcPlan);
    expect(wfcResult).toEqual(await core.changePlan(wfcPlan));
    expect(wfcResult.wfc).toMatchObject({ provisioned: false, failure: { code: 'GENS-0090' } });

    await expect(
      adapter.changeBillingCode({ transactionId: tx('bill'), mdn, billingCode: 'BC999' }),
    ).resolves.toBeUndefined();
  });

  it('activates an eSIM with a WFC plan whose address is missing (warning, not failure)', async () => {
    const request = {
      transactionId: tx('act'),
      sim: ESIM,
      carrierPlanId: 'UNLWFC',
      zipCode: '62701-1234',
      address: ADDRESS,
      isEsim: true,
      email: 'esim@example.com',
      language: 'SPAN' as const,
      wfc: { address: null },
    };
    const result = await adapter.activate(request);
    expect(result).toEqual(await core.activate(request));
    expect(result.wfc).toMatchObject({ provisioned: false });
    expect((await rejectionOf(adapter.activate({ ...request, transactionId: tx('act') }))).code).toBe('914');
  });

  it('adds and removes a child line', async () => {
    const child = await adapter.activate({
      transactionId: tx('act'),
      sim: SIM_C,
      carrierPlanId: 'BASIC1GB',
      zipCode: '62701',
      address: ADDRESS,
      isEsim: false,
      language: 'ENGL',
    });
    const request = { transactionId: tx('child'), parentMdn: mdn, parentSim: SIM_A, childMdn: child.mdn };
    await adapter.addChildLine(request);
    expect((await adapter.extended.getAccount(mdn)).lines.map((l) => l.mdn)).toContain(child.mdn);
    await adapter.removeChildLine({ ...request, transactionId: tx('child') });
    expect((await adapter.extended.getAccount(mdn)).lines.map((l) => l.mdn)).not.toContain(child.mdn);
  });

  it('runs the extended operations', async () => {
    const ext = adapter.extended;
    const coreExt = core.extended!;
    expect(await ext.listAvailablePlans()).toEqual(await coreExt.listAvailablePlans());
    const address = { street1: '1 main st', city: 'springfield', state: 'il', zipCode: '62701' };
    expect(await ext.validateAddress(address)).toEqual(await coreExt.validateAddress(address));
    expect((await ext.validateAddress({ ...address, street1: 'INVALID' })).normalized).toBeNull();
    expect(await ext.getDeviceUnlockStatus(IMEI)).toEqual(await coreExt.getDeviceUnlockStatus(IMEI));
    const account = await ext.getAccount(mdn);
    expect(account).toEqual(await coreExt.getAccount(mdn));
    expect(await ext.getPoolUsage(account.accountId)).toEqual(await coreExt.getPoolUsage(account.accountId));
    expect(await ext.getNumberGroups('62701')).toEqual(await coreExt.getNumberGroups('62701'));
    expect(await ext.getActivePlan(mdn)).toEqual(await coreExt.getActivePlan(mdn));
    expect(await ext.getImeiDetails(IMEI)).toEqual(await coreExt.getImeiDetails(IMEI));
    expect(await ext.getProducts(mdn)).toEqual(await coreExt.getProducts(mdn));
    expect(await ext.getCustomerImpactingEvents({})).toEqual(await coreExt.getCustomerImpactingEvents({}));
    const window = { startTime: '2025-01-01 00:00:00', endTime: '2027-01-01 00:00:00' };
    expect(await ext.getCustomerImpactingEvents(window)).toEqual(await coreExt.getCustomerImpactingEvents(window));
    expect((await rejectionOf(ext.getCustomerImpactingEvents({ startTime: 'yesterday' }))).code).toBe('GENS-0404');

    const sms = { transactionId: tx('sms'), mdn, message: 'Hello from the round trip' };
    expect(await ext.sendSms(sms)).toEqual(await coreExt.sendSms(sms));
    const list = { transactionId: tx('list'), mdn, action: 'block' as const, numbers: ['2125551234'] };
    expect(await ext.managePhoneList(list)).toEqual(await coreExt.managePhoneList(list));
    expect(
      await ext.managePhoneList({ transactionId: tx('list'), mdn, action: 'add', numbers: ['3125550000'] }),
    ).toEqual({
      mdn,
      allowed: ['3125550000'],
      blocked: ['2125551234'],
    });
    expect(await ext.setLabel({ transactionId: tx('label'), mdn, label: 'Main line' })).toEqual({
      mdn,
      label: 'Main line',
    });
    const imei = { transactionId: tx('imei'), mdn, sim: SIM_A, newImei: '356938035643817' };
    expect(await ext.changeImei(imei)).toEqual(await coreExt.changeImei(imei));
  });

  it('swaps SIM and number, then disconnects and reconnects', async () => {
    const swap = { transactionId: tx('swap'), mdn, oldSim: SIM_A, newSim: SIM_B };
    expect(await adapter.swapSim(swap)).toEqual({ mdn, sim: SIM_B });
    expect(await core.swapSim(swap)).toEqual({ mdn, sim: SIM_B });

    const swapMdn = { transactionId: tx('swapmdn'), mdn, sim: SIM_B, zipCode: '62701' };
    const swapped = await adapter.swapMdn(swapMdn);
    expect(swapped).toEqual(await core.swapMdn(swapMdn));
    expect(swapped.mdn).toBe(mdn);
    expect(swapped.newMdn).not.toBe(mdn);
    expect((await rejectionOf(adapter.getUsage(mdn))).code).toBe('918');
    mdn = swapped.newMdn;

    const disconnect = { transactionId: tx('disc'), mdn, sim: SIM_B };
    expect(await adapter.disconnect(disconnect)).toEqual({ mdn, sim: SIM_B });
    expect((await rejectionOf(adapter.getUsage(mdn))).message).toBe('ESN/MDN is inactive (915)');

    const reconnect = {
      transactionId: tx('reconn'),
      mdn,
      sim: SIM_B,
      carrierPlanId: 'BASIC1GB',
      zipCode: '62701',
      billingCode: 'BC123',
    };
    const back = await adapter.reconnect(reconnect);
    expect(back).toEqual(await core.reconnect(reconnect));
    expect(back).toEqual({ mdn, sim: SIM_B });
    expect((await adapter.getUsage(mdn)).lineStatus).toBe('ACTIVE');
  });
});
