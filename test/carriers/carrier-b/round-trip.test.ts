// The carrier_b adapter against the carrier_b sandbox server with the real SandboxCarrier core,
// over loopback HTTP: every method's round trip, refusals normalised to the spec's
// `text (CODE)`, idempotent replay by transaction id, and no extended operations.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCarrierBAdapter, type CarrierBAdapter } from '../../../src/carriers/carrier-b/adapter.js';
import { CarrierRejection } from '../../../src/carriers/errors.js';
import type { E911Address } from '../../../src/carriers/types.js';
import { SandboxCarrier } from '../../../src/sandbox/core/index.js';
import { createCarrierBSandboxServer } from '../../../src/sandbox/carrier-b/server.js';
import type { SandboxServer } from '../../../src/sandbox/http-kit.js';

const CREDENTIALS = { accountId: 'sandbox-b-account', apiSecret: 'sandbox-b-secret' };
const START = new Date('2026-01-02T03:04:05Z');
const ADDRESS: E911Address = {
  address1: '1 Main St',
  address2: 'Apt 2',
  city: 'Springfield',
  state: 'IL',
  zipCode: '62701',
};

let core: SandboxCarrier;
let sandbox: SandboxServer;
let baseUrl: string;
let adapter: CarrierBAdapter;
let sequence = 0;

/** A fresh transaction id per write, so tests never replay each other by accident. */
const tx = (prefix: string) => `${prefix}_${String(++sequence).padStart(12, '0')}`;
/** A fresh physical SIM (8901…, 19 digits) per activation. */
const physicalSim = () => `890126${String(++sequence).padStart(13, '0')}`;

async function activateLine(overrides: Partial<Parameters<CarrierBAdapter['activate']>[0]> = {}) {
  return adapter.activate({
    transactionId: tx('ACT'),
    sim: physicalSim(),
    carrierPlanId: 'BASIC1GB',
    zipCode: '62701',
    address: ADDRESS,
    isEsim: false,
    language: 'ENGL',
    ...overrides,
  });
}

async function rejection(promise: Promise<unknown>): Promise<CarrierRejection> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(CarrierRejection);
  return error as CarrierRejection;
}

beforeAll(async () => {
  core = new SandboxCarrier({ carrier: 'carrier_b', startTime: START });
  sandbox = createCarrierBSandboxServer({ core, credentials: CREDENTIALS });
  baseUrl = await sandbox.listen();
  adapter = createCarrierBAdapter({ baseUrl, ...CREDENTIALS, timeoutMs: 5000, retries: 1 });
});

afterAll(async () => {
  await adapter.close();
  await sandbox.close();
});

beforeEach(() => {
  core.reset();
});

describe('carrier_b adapter ⇄ sandbox: activation and queries', () => {
  it('activates a SIM and every query reads back exactly what the core holds', async () => {
    const line = await activateLine();
    expect(line.mdn).toMatch(/^646555\d{4}$/);
    expect(line.wfc).toBeUndefined();

    expect(await adapter.getUsage(line.mdn)).toEqual(await core.getUsage(line.mdn));
    const usage = await adapter.getUsage(line.mdn);
    expect(usage.effectiveDate).toBe('2026-01-02 03:04:05');
    expect(usage.lineStatus).toBe('ACTIVE');
    expect(usage.customerId).toBe(line.customerId);

    expect(await adapter.getServiceProfile(line.mdn, line.sim)).toEqual(
      await core.getServiceProfile(line.mdn, line.sim),
    );
    expect(await adapter.getCarrierUsage(line.mdn)).toEqual(await core.getCarrierUsage(line.mdn));
    expect((await adapter.getCarrierUsage(line.mdn)).usageRecords.length).toBeGreaterThan(0);
    expect(await adapter.getNetworkStatus(line.mdn)).toEqual(await core.getNetworkStatus(line.mdn));
    expect(await adapter.getSimDetails(line.sim)).toEqual(await core.getSimDetails(line.sim));
  });

  it('reads SIM details, eSIM profiles, coverage and devices', async () => {
    const details = await adapter.getSimDetails('8901260000000000999');
    expect(details).toEqual(await core.getSimDetails('8901260000000000999'));
    expect(details.createDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(details.expirationDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);

    expect(await adapter.getEsimProfile('8902260000000000999')).toEqual(
      await core.getEsimProfile('8902260000000000999'),
    );
    expect(await adapter.getCoverage('62701')).toEqual(await core.getCoverage('62701'));
    expect(await adapter.getCoverage('99999')).toEqual({ zipCode: '99999', covered: false, areas: [] });
    expect(await adapter.getDevice('356938035643809')).toEqual(await core.getDevice('356938035643809'));
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

  it('normalises query refusals, numeric and GENS codes alike', async () => {
    expect((await rejection(adapter.getDevice('990000000000001'))).message).toBe('Invalid ESN / device (506)');
    expect((await rejection(adapter.getCoverage('00000'))).message).toBe('Invalid zip code (510)');
    expect((await rejection(adapter.getUsage('6465559999'))).code).toBe('918');
    expect((await rejection(adapter.getEsimProfile('8901260000000000999'))).code).toBe('8010');
    expect((await rejection(adapter.activate({ ...(await activationRequest()), sim: '123' }))).code).toBe('GENS-0006');
  });

  it('activates an eSIM with Wi-Fi Calling, and reports a WFC failure without failing the activation', async () => {
    const esim = await adapter.activate({
      ...(await activationRequest()),
      sim: '8902260000000000123',
      isEsim: true,
      email: 'a@example.com',
      wfc: { address: ADDRESS },
    });
    expect(esim.wfc).toEqual({ provisioned: true });
    expect((await adapter.getServiceProfile(esim.mdn)).e911Address).toEqual(ADDRESS);

    const failed = await activateLine({ wfc: { address: { ...ADDRESS, address1: '1 INVALID St' } } });
    expect(failed.wfc).toEqual({ provisioned: false, failure: { code: 'GENS-0090', text: 'Invalid E911 address' } });
    const none = await activateLine({ wfc: { address: null } });
    expect(none.wfc?.provisioned).toBe(false);
  });
});

async function activationRequest() {
  return {
    transactionId: tx('ACT'),
    sim: physicalSim(),
    carrierPlanId: 'BASIC1GB',
    zipCode: '62701',
    address: ADDRESS,
    isEsim: false,
    language: 'ENGL' as const,
  };
}

describe('carrier_b adapter ⇄ sandbox: features', () => {
  it('enables WFC, updates the E911 address, and refuses the spec cases', async () => {
    const line = await activateLine();
    expect(
      (await rejection(adapter.updateE911Address({ transactionId: tx('UPD'), mdn: line.mdn, address: ADDRESS })))
        .message,
    ).toBe('Cannot update E911, WFC not active (GENS-0124)');
    expect(
      await adapter.addWfc({ transactionId: tx('ADD_WFC'), mdn: line.mdn, sim: line.sim, address: ADDRESS }),
    ).toEqual({ mdn: line.mdn, sim: line.sim });
    expect(
      (
        await rejection(
          adapter.addWfc({ transactionId: tx('ADD_WFC'), mdn: line.mdn, sim: line.sim, address: ADDRESS }),
        )
      ).message,
    ).toBe('Duplicate products (GENS-0010)');
    const moved = { address1: '2 Oak Ave', city: 'Chicago', state: 'IL', zipCode: '60601' };
    expect(
      await adapter.updateE911Address({ transactionId: tx('UPD'), mdn: line.mdn, sim: line.sim, address: moved }),
    ).toEqual({ mdn: line.mdn, sim: line.sim });
    expect((await adapter.getServiceProfile(line.mdn)).e911Address).toEqual(moved);
  });

  it('resets voicemail, sets its language and cancels device location', async () => {
    const line = await activateLine();
    await expect(
      adapter.resetVoicemailPassword({ transactionId: tx('VM_RESET'), mdn: line.mdn, sim: line.sim }),
    ).resolves.toBeUndefined();
    await expect(
      adapter.setVoicemailLanguage({ transactionId: tx('VM_LANG'), mdn: line.mdn, language: 'SPAN' }),
    ).resolves.toBeUndefined();
    await expect(
      adapter.cancelDeviceLocation({ transactionId: tx('CANCEL_LOC'), mdn: line.mdn }),
    ).resolves.toBeUndefined();
    expect(
      (await rejection(adapter.cancelDeviceLocation({ transactionId: tx('CANCEL_LOC'), mdn: '9095550000' }))).code,
    ).toBe('909');
  });
});

describe('carrier_b adapter ⇄ sandbox: lifecycle', () => {
  it('suspends and restores, with 935 and GENS-0033 normalised', async () => {
    const line = await activateLine();
    expect((await rejection(adapter.restore({ transactionId: tx('RESTORE'), mdn: line.mdn }))).message).toBe(
      'MSISDN is not suspended (GENS-0033)',
    );

    await adapter.suspend({
      transactionId: tx('SUSPEND'),
      mdn: line.mdn,
      hotlineNumber: '8005550100',
      reason: 'non-payment',
    });
    const profile = await adapter.getServiceProfile(line.mdn);
    expect(profile.lineStatus).toBe('SUSPENDED');
    expect(profile.hotlineStatus).toBe('HOTLINED');
    expect(profile.hotlineNumber).toBe('8005550100');

    const refused = await rejection(adapter.suspend({ transactionId: tx('SUSPEND'), mdn: line.mdn }));
    expect(refused.message).toBe('Subscriber state not NEW or ACTIVE (935)');
    expect(refused.code).toBe('935');
    expect(refused.text).toBe('Subscriber state not NEW or ACTIVE');

    await adapter.restore({ transactionId: tx('RESTORE'), mdn: line.mdn });
    expect((await adapter.getUsage(line.mdn)).lineStatus).toBe('ACTIVE');
  });

  it('suspends and restores a single service scope', async () => {
    const line = await activateLine();
    await adapter.suspend({ transactionId: tx('SUSPEND'), mdn: line.mdn, service: 'DATA' });
    expect((await adapter.getServiceProfile(line.mdn)).hotlineStatus).toBe('HOTLINED (DATA)');
    expect(
      (await rejection(adapter.restore({ transactionId: tx('RESTORE'), mdn: line.mdn, service: 'VOICE' }))).code,
    ).toBe('GENS-0033');
    await adapter.restore({ transactionId: tx('RESTORE'), mdn: line.mdn, service: 'DATA' });
    expect((await adapter.getUsage(line.mdn)).lineStatus).toBe('ACTIVE');
  });

  it('disconnects, reconnects inside the window, and refuses after 30 days', async () => {
    const line = await activateLine();
    expect(await adapter.disconnect({ transactionId: tx('DISCONNECT'), mdn: line.mdn, sim: line.sim })).toEqual({
      mdn: line.mdn,
      sim: line.sim,
    });
    expect((await rejection(adapter.getNetworkStatus(line.mdn))).message).toBe('ESN/MDN is inactive (915)');
    const reconnect = { mdn: line.mdn, sim: line.sim, carrierPlanId: 'UNLWFC', zipCode: '62701', billingCode: 'BC123' };
    const back = await adapter.reconnect({
      transactionId: tx('RECONNECT'),
      ...reconnect,
      wfc: { address: { ...ADDRESS, address1: 'invalid' } },
    });
    expect(back).toEqual({
      mdn: line.mdn,
      sim: line.sim,
      wfc: { provisioned: false, failure: { code: 'GENS-0090', text: 'Invalid E911 address' } },
    });

    await adapter.disconnect({ transactionId: tx('DISCONNECT'), mdn: line.mdn, sim: line.sim });
    const moved = await fetch(`${baseUrl}/_sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance_days: 31 }),
    });
    expect(moved.status).toBe(200);
    const late = await rejection(adapter.reconnect({ transactionId: tx('RECONNECT'), ...reconnect }));
    expect(late.code).toBe('GENS-0147');
    expect(late.message).toMatch(/^MSISDN ineligible for reactivation.* \(GENS-0147\)$/);
  });

  it('swaps the SIM and the number', async () => {
    const line = await activateLine();
    const newSim = physicalSim();
    expect(await adapter.swapSim({ transactionId: tx('SWAP'), mdn: line.mdn, oldSim: line.sim, newSim })).toEqual({
      mdn: line.mdn,
      sim: newSim,
    });
    const swapped = await adapter.swapMdn({
      transactionId: tx('SWAP_MDN'),
      mdn: line.mdn,
      sim: newSim,
      zipCode: '62701',
      imei: '356938035643809',
    });
    expect(swapped.mdn).toBe(line.mdn);
    expect(swapped.sim).toBe(newSim);
    expect(swapped.newMdn).toMatch(/^646555\d{4}$/);
    expect(swapped.newMdn).not.toBe(line.mdn);
    expect((await adapter.getUsage(swapped.newMdn)).sim).toBe(newSim);
    expect((await rejection(adapter.getUsage(line.mdn))).code).toBe('918');
  });

  it('adjusts balances one at a time and several at once', async () => {
    const line = await activateLine();
    const [base] = (await adapter.getUsage(line.mdn)).subscriptions;
    const subscriptionId = base!.purchaseId;
    const before = (await adapter.getUsage(line.mdn)).balanceDetails;

    await adapter.adjustBalance({
      transactionId: tx('ADJ_BAL'),
      mdn: line.mdn,
      subscriptionId,
      uom: 'EVENT',
      amount: 5,
      expiryDate: '2026-12-31',
    });
    expect((await adapter.getUsage(line.mdn)).balanceDetails.text).toBe(before.text + 5);

    await adapter.adjustBalances({
      transactionId: tx('ADJ_MULTI_BAL'),
      mdn: line.mdn,
      adjustments: [
        { subscriptionId, uom: 'SECOND', amount: 600 },
        { subscriptionId, uom: 'BYTE', amount: -1024 },
      ],
    });
    const after = (await adapter.getUsage(line.mdn)).balanceDetails;
    expect(after.talk).toBe(before.talk + 10);
    expect(after.data).toBe(before.data - 1024);

    expect(
      (
        await rejection(
          adapter.adjustBalance({
            transactionId: tx('ADJ_BAL'),
            mdn: line.mdn,
            subscriptionId: 'NOPE',
            uom: 'EVENT',
            amount: 1,
          }),
        )
      ).message,
    ).toBe('Invalid subscription id (919)');
  });

  it('attaches and detaches a child line', async () => {
    const parent = await activateLine();
    const child = await activateLine();
    const family = { parentMdn: parent.mdn, parentSim: parent.sim, childMdn: child.mdn, childSim: child.sim };
    await expect(adapter.addChildLine({ transactionId: tx('ADD_LINE'), ...family })).resolves.toBeUndefined();
    await expect(adapter.removeChildLine({ transactionId: tx('REM_LINE'), ...family })).resolves.toBeUndefined();
    expect((await rejection(adapter.removeChildLine({ transactionId: tx('REM_LINE'), ...family }))).code).toMatch(
      /^(\d+|GENS-\d{4})$/,
    );
  });
});

describe('carrier_b adapter ⇄ sandbox: plans', () => {
  it('changes plan, purchases and cancels an add-on, changes the billing code', async () => {
    const line = await activateLine();
    expect(
      await adapter.changePlan({
        transactionId: tx('PLAN_CHANGE'),
        mdn: line.mdn,
        sim: line.sim,
        carrierPlanId: 'UNLWFC',
        wfc: { address: ADDRESS },
      }),
    ).toEqual({
      mdn: line.mdn,
      wfc: { provisioned: true },
    });
    expect((await adapter.getUsage(line.mdn)).planName).toBe('Unlimited with Wi-Fi Calling');
    expect(
      (
        await rejection(
          adapter.changePlan({ transactionId: tx('PLAN_CHANGE'), mdn: line.mdn, carrierPlanId: 'UNLWFC' }),
        )
      ).message,
    ).toBe('Plan code already active on the MDN (916)');
    expect(
      (
        await rejection(
          adapter.changePlan({ transactionId: tx('PLAN_CHANGE'), mdn: line.mdn, carrierPlanId: 'INVALID_X' }),
        )
      ).code,
    ).toBe('906');

    const purchase = await adapter.purchasePlan({
      transactionId: tx('PURCHASE'),
      mdn: line.mdn,
      carrierPlanId: 'TOPUP1GB',
    });
    expect(purchase.mdn).toBe(line.mdn);
    expect((await adapter.getUsage(line.mdn)).subscriptions.map((s) => s.purchaseId)).toContain(purchase.purchaseId);
    expect(
      await adapter.cancelPurchase({ transactionId: tx('CANCEL'), mdn: line.mdn, purchaseId: purchase.purchaseId }),
    ).toEqual(purchase);
    expect(
      (
        await rejection(
          adapter.cancelPurchase({ transactionId: tx('CANCEL'), mdn: line.mdn, purchaseId: purchase.purchaseId }),
        )
      ).message,
    ).toBe('No active subscription found (949)');

    await expect(
      adapter.changeBillingCode({ transactionId: tx('CHG_BILL'), mdn: line.mdn, billingCode: 'BC999' }),
    ).resolves.toBeUndefined();
  });

  it('refuses purchases beyond the maximum with 969', async () => {
    const line = await activateLine();
    for (let i = 0; i < 5; i++)
      await adapter.purchasePlan({ transactionId: tx('PURCHASE'), mdn: line.mdn, carrierPlanId: 'TOPUP1GB' });
    expect(
      (
        await rejection(
          adapter.purchasePlan({ transactionId: tx('PURCHASE'), mdn: line.mdn, carrierPlanId: 'TOPUP1GB' }),
        )
      ).message,
    ).toBe('Maximum purchases limit exceeded (969)');
  });
});

describe('carrier_b adapter ⇄ sandbox: idempotency and scope', () => {
  it('replays a write sent twice with the same transaction id (the requestId)', async () => {
    const line = await activateLine();
    const transactionId = tx('PURCHASE');
    const first = await adapter.purchasePlan({ transactionId, mdn: line.mdn, carrierPlanId: 'TOPUP1GB' });
    const second = await adapter.purchasePlan({ transactionId, mdn: line.mdn, carrierPlanId: 'TOPUP1GB' });
    expect(second).toEqual(first);
    expect((await adapter.getUsage(line.mdn)).subscriptions.filter((s) => s.planCode === 'TOPUP1GB')).toHaveLength(1);

    const suspendTx = tx('SUSPEND');
    await adapter.suspend({ transactionId: suspendTx, mdn: line.mdn });
    // A replayed suspend answers like the first one instead of refusing with 935.
    await expect(adapter.suspend({ transactionId: suspendTx, mdn: line.mdn })).resolves.toBeUndefined();
  });

  it('offers no extended operations', () => {
    expect(adapter.extended).toBeUndefined();
    expect(core.extended).toBeUndefined();
  });
});
