// A dry run agrees with the real call, on both carriers, for the mutations whose predictions
// read the line, its subscriptions, devices, coverage and E911 addresses (docs/dry-runs.md's
// table): for each documented sandbox value, `?dry_run=true` first, then the real call; the
// prediction (would_succeed, predicted_code, predicted_warning) must be what the call answered.
// Values no read can see (a child line already in a family, the purchase cap, a plan code
// retired, an exhausted pool, a reconnection after 30 days) are the report's `unpredictable`
// and are not held to agreement here.

import { beforeEach, describe, expect, it } from 'vitest';
import type { CarrierId } from '../../../src/carriers/types.js';
import { ALL_PLANS, createPlans } from '../../support/plans.js';
import { disconnectSeeded, freshSim, seedLine, type SeededLine } from '../../support/lines.js';
import { useGateway } from '../../support/use-gateway.js';
import { NO_FAULTS } from '../../../src/sandbox/http-kit.js';

const gateway = useGateway();

const ADDRESS = { address1: '1 Main St', city: 'Atlanta', state: 'GA', zip_code: '30301' };
const INVALID_ADDRESS = { ...ADDRESS, address1: '1 Invalid Way' };
const UNKNOWN_IMEI = '990000000000000';

const codeOf = (message: unknown) => /\(([A-Z0-9-]+)\)$/.exec(String(message))?.[1] ?? null;

interface Expected {
  code: string | null;
  /** The real call's warning on success (Wi-Fi Calling not added). */
  warned?: boolean;
}

describe.each(['321', 'carrier_b'] as const)('on carrier %s', (carrier: CarrierId) => {
  let token: string;
  let superuser: string;

  // Fresh users per test: the writes allow 20 a minute per user, dry runs 60.
  beforeEach(async () => {
    await createPlans(gateway);
    ({ token } = await gateway.user({ plans: ALL_PLANS, carrier }));
    ({ token: superuser } = await gateway.user({ superuser: true, carrier }));
  });

  /** Dry run, then the real call: the prediction must be the outcome. */
  async function agree(path: string, body: Record<string, unknown>, expected: Expected | string | null, as = token) {
    const { code, warned = false } = typeof expected === 'object' && expected !== null ? expected : { code: expected };
    const dry = await gateway.rest('POST', `${path}?dry_run=true`, { token: as, body });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.carrier).toBe(carrier);
    const real = await gateway.rest('POST', path, { token: as, body });
    const succeeded = real.status === 200;
    const outcome = {
      wouldSucceed: succeeded,
      code: succeeded ? null : codeOf(real.body.message),
      warning: (real.body.warning as string | undefined) ?? null,
    };
    expect({ wouldSucceed: outcome.wouldSucceed, code: outcome.code }, JSON.stringify(real.body)).toEqual({
      wouldSucceed: code === null,
      code,
    });
    expect(outcome.warning !== null, JSON.stringify(real.body)).toBe(warned);
    expect({
      wouldSucceed: dry.body.would_succeed,
      code: dry.body.predicted_code,
      warning: dry.body.predicted_warning,
    }).toEqual(outcome);
    return dry.body;
  }

  const line = (options: { carrierPlanId?: string; register?: boolean } = {}) =>
    seedLine(gateway, { carrier, ...options });
  const disconnected = async (options: { register?: boolean } = {}) => {
    const seeded = await line(options);
    await disconnectSeeded(gateway, seeded);
    return seeded;
  };
  const wfcPlan = carrier === '321' ? 'WFC' : 'BWFC';

  it('addWfc and updateE911Address: the line, its SIM, WFC on or off, the E911 address', async () => {
    const { mdn, sim } = await line();
    const other = await line();
    await agree('/sim/wfc/address/', { mdn, ...ADDRESS }, 'GENS-0124');
    await agree('/sim/wfc/add/', { mdn, sim: other.sim, ...ADDRESS }, 'GENS-0170');
    await agree('/sim/wfc/add/', { mdn, sim, ...INVALID_ADDRESS }, 'GENS-0090');
    await agree('/sim/wfc/add/', { mdn, sim, ...ADDRESS }, null);
    await agree('/sim/wfc/add/', { mdn, sim, ...ADDRESS }, 'GENS-0010');
    await agree('/sim/wfc/address/', { mdn, sim: other.sim, ...ADDRESS }, 'GENS-0404');
    await agree('/sim/wfc/address/', { mdn, ...INVALID_ADDRESS }, 'GENS-0090');
    await agree('/sim/wfc/address/', { mdn, sim, ...ADDRESS, address1: '2 Oak Ave' }, null);
    const gone = await disconnected();
    await agree('/sim/wfc/add/', { mdn: gone.mdn, sim: gone.sim, ...ADDRESS }, '915');
  });

  it('activation on a WFC plan: a refused or missing E911 address is the call’s warning', async () => {
    const activate = (address: Record<string, unknown>, expected: Expected) =>
      agree('/sim/activate/', { sim: freshSim(), plan_id: wfcPlan, zip_code: '30301', ...address }, expected);
    const report = await activate(ADDRESS, { code: null });
    expect(report.checks).toContainEqual(expect.objectContaining({ name: 'e911Address', outcome: 'passed' }));
    await activate(INVALID_ADDRESS, { code: null, warned: true });
  });

  it('changePlan: the line’s SIM, the current plan (916), WFC on a WFC plan', async () => {
    const { mdn, sim } = await line({ carrierPlanId: 'BASIC1GB' });
    const other = await line();
    await agree('/sim/plan/change/', { mdn, sim: other.sim, new_plan_id: 'PREMIUM' }, '918');
    await agree('/sim/plan/change/', { mdn, new_plan_id: 'BASIC' }, '916');
    await agree('/sim/plan/change/', { mdn, sim, new_plan_id: 'PREMIUM' }, null);
    await agree('/sim/plan/change/', { mdn, new_plan_id: 'PREMIUM' }, '916');
    await agree('/sim/plan/change/', { mdn, new_plan_id: 'WFC', ...INVALID_ADDRESS }, { code: null, warned: true });
    await agree('/sim/plan/change/', { mdn, new_plan_id: 'BASIC', ...ADDRESS }, null);
    const gone = await disconnected();
    await agree('/sim/plan/change/', { mdn: gone.mdn, new_plan_id: 'PREMIUM' }, '915');
  });

  it('purchasePlan, and cancelPurchase after a plan change (an earlier plan’s id is 949, the current one’s 919)', async () => {
    const { mdn } = await line({ carrierPlanId: 'BASIC1GB' });
    const core = gateway.sandboxes.cores[carrier];
    const first = (await core.getUsage(mdn)).subscriptions[0]!.purchaseId;
    await agree('/sim/plan/purchase/', { mdn, plan_id: 'TOPUP' }, null);
    await agree('/sim/plan/purchase/', { mdn, plan_id: 'WFC' }, { code: null, warned: true });
    await agree('/sim/plan/change/', { mdn, new_plan_id: 'PREMIUM' }, null);
    const usage = await core.getUsage(mdn);
    const current = usage.subscriptions[0]!;
    expect(current.planCode).toBe('UNL10GB');
    await agree('/sim/plan/cancel/', { mdn, purchase_id: first }, '949');
    await agree('/sim/plan/cancel/', { mdn, purchase_id: current.purchaseId }, '919');
    await agree('/sim/plan/cancel/', { mdn, purchase_id: usage.subscriptions[1]!.purchaseId }, null);
    await agree('/sim/plan/purchase/', { mdn: '9095550100', plan_id: 'TOPUP' }, '909');
  });

  it('reconnect: a disconnected line (GENS-0147), the SIM, the ZIP, WFC on a WFC plan', async () => {
    const body = (target: SeededLine, extra: Record<string, unknown> = {}) => ({
      mdn: target.mdn,
      sim: target.sim,
      plan_id: 'BASIC',
      zip_code: '30301',
      ...extra,
    });
    const active = await line();
    await agree('/sim/reconnect/', body(active), 'GENS-0147');
    const gone = await disconnected();
    await agree('/sim/reconnect/', body(gone, { sim: active.sim }), '914');
    await agree('/sim/reconnect/', body(gone, { sim: freshSim('8999') }), '910');
    await agree('/sim/reconnect/', body(gone, { zip_code: '99999' }), 'GENS-0289');
    await agree('/sim/reconnect/', body(gone, { zip_code: '00000' }), '510');
    await agree('/sim/reconnect/', body(gone, { plan_id: 'WFC', ...INVALID_ADDRESS }), { code: null, warned: true });
    // On a fresh SIM, and a line the gateway never saw reconnected on its own (retired) SIM.
    const other = await disconnected();
    await agree('/sim/reconnect/', body(other, { sim: freshSim() }), null);
    const unseen = await disconnected({ register: false });
    const report = await agree('/sim/reconnect/', body(unseen), null);
    expect(report.unpredictable).toContainEqual(expect.stringContaining('disconnected line’s own'));
  });

  it('swapMdn: the line’s SIM (918), the device (506), the ZIP (510, GENS-0289)', async () => {
    const { mdn, sim } = await line();
    const other = await line();
    await agree('/sim/mdn/swap/', { mdn, sim: other.sim, zip_code: '30301' }, '918');
    await agree('/sim/mdn/swap/', { mdn, sim, zip_code: '30301', imei: UNKNOWN_IMEI }, '506');
    await agree('/sim/mdn/swap/', { mdn, sim, zip_code: '00000' }, '510');
    await agree('/sim/mdn/swap/', { mdn, sim, zip_code: '99999' }, 'GENS-0289');
    await agree('/sim/mdn/swap/', { mdn, sim, zip_code: '30301', imei: '356938035643809' }, null);
    await agree('/sim/mdn/swap/', { mdn, sim, zip_code: '30301' }, '918');
  });

  it('child lines: both lines ACTIVE (915) with their SIMs (918), not the same line (GENS-0010)', async () => {
    const parent = await line();
    const child = await line();
    const suspended = await line();
    await gateway.sandboxes.cores[carrier].suspend({ mdn: suspended.mdn, transactionId: `SEED_SUS_${suspended.sim}` });
    const add = (body: Record<string, unknown>, expected: string | null) => agree('/sim/line/add/', body, expected);
    await add({ parent_mdn: parent.mdn, parent_sim: parent.sim, child_mdn: suspended.mdn }, '915');
    await add({ parent_mdn: parent.mdn, parent_sim: child.sim, child_mdn: child.mdn }, '918');
    await add({ parent_mdn: parent.mdn, parent_sim: parent.sim, child_mdn: child.mdn, child_sim: parent.sim }, '918');
    await add({ parent_mdn: parent.mdn, parent_sim: parent.sim, child_mdn: parent.mdn }, 'GENS-0010');
    await add({ parent_mdn: parent.mdn, parent_sim: parent.sim, child_mdn: child.mdn, child_sim: child.sim }, null);
    const remove = (body: Record<string, unknown>, expected: string | null) =>
      agree('/sim/line/remove/', body, expected);
    await remove({ parent_mdn: parent.mdn, parent_sim: child.sim, child_mdn: child.mdn }, '918');
    await remove(
      { parent_mdn: parent.mdn, parent_sim: parent.sim, child_mdn: child.mdn, child_sim: parent.sim },
      '918',
    );
    await remove({ parent_mdn: parent.mdn, parent_sim: parent.sim, child_mdn: child.mdn }, null);
  });

  it('voicemail, device location and billing code: the line and its SIM', async () => {
    const { mdn, sim } = await line();
    const other = await line();
    const gone = await disconnected();
    await agree('/sim/voicemail/reset/', { mdn, sim: other.sim }, 'GENS-0149');
    await agree('/sim/voicemail/reset/', { mdn, sim }, null);
    await agree('/sim/voicemail/language/', { mdn: gone.mdn, language: 'SPAN' }, '915');
    await agree('/sim/voicemail/language/', { mdn, language: 'SPAN' }, null);
    await agree('/sim/device-location/cancel/', { mdn: '9095550100' }, '909');
    await agree('/sim/device-location/cancel/', { mdn }, null);
    await agree('/sim/billing-code/change/', { mdn: gone.mdn, billing_code: 'BC9' }, '915', superuser);
    await agree('/sim/billing-code/change/', { mdn, billing_code: 'BC9' }, null, superuser);
  });

  it('balance adjustments: active subscriptions (919) and balances (920), all or nothing', async () => {
    const { mdn } = await line({ carrierPlanId: 'BASIC1GB' });
    const [base] = (await gateway.sandboxes.cores[carrier].getUsage(mdn)).subscriptions;
    const id = base!.purchaseId;
    const one = (body: Record<string, unknown>, expected: string | null) =>
      agree('/sim/balance/adjust/', { mdn, ...body }, expected, superuser);
    await one({ subscription_id: 'SUB-NOT-THERE', uom: 'BYTE', amount: 1 }, '919');
    await one({ subscription_id: id, uom: 'EVENT', amount: -1_000_000 }, '920');
    await one({ subscription_id: id, amount: -60 }, null);
    await one({ subscription_id: id, uom: 'EVENT', amount: 5 }, null);
    const many = (adjustments: Record<string, unknown>[], expected: string | null) =>
      agree('/sim/balance/adjust-multiple/', { mdn, adjustments }, expected, superuser);
    await many(
      [
        { subscription_id: id, uom: 'EVENT', amount: -1005 },
        { subscription_id: id, uom: 'EVENT', amount: 1 },
      ],
      null,
    );
    await many([{ subscription_id: id, uom: 'EVENT', amount: -2 }], '920');
    await many(
      [
        { subscription_id: id, uom: 'BYTE', amount: 1 },
        { subscription_id: 'SUB-NOT-THERE', uom: 'BYTE', amount: 1 },
      ],
      '919',
    );
  });
});

describe('extended writes (carrier 321)', () => {
  it('changeImei, sendSms, setLineLabel and managePhoneList predict from the line and the device', async () => {
    await createPlans(gateway);
    const { token } = await gateway.user({ plans: ALL_PLANS, carrier: '321' });
    const agreeOn = async (path: string, body: Record<string, unknown>, code: string | null, method = 'POST') => {
      const dry = await gateway.rest(method, `${path}?dry_run=true`, { token, body });
      expect(dry.status, JSON.stringify(dry.body)).toBe(200);
      const real = await gateway.rest(method, path, { token, body });
      expect(real.status === 200 ? null : codeOf(real.body.message), JSON.stringify(real.body)).toBe(code);
      expect({ wouldSucceed: dry.body.would_succeed, code: dry.body.predicted_code }).toEqual({
        wouldSucceed: code === null,
        code,
      });
    };
    const { mdn, sim } = await seedLine(gateway, { carrier: '321' });
    const other = await seedLine(gateway, { carrier: '321' });
    await agreeOn('/sim/imei/change/', { mdn, sim: other.sim, new_imei: '356938035643809' }, 'GENS-0012');
    await agreeOn('/sim/imei/change/', { mdn, sim, new_imei: UNKNOWN_IMEI }, '506');
    await agreeOn('/sim/imei/change/', { mdn, sim, new_imei: '356938035643809' }, null);
    await agreeOn('/sim/sms/send/', { mdn, message: 'hello' }, null);
    await agreeOn(`/sim/label/${mdn}`, { mdn, label: 'Fleet 7' }, null, 'PATCH');
    await agreeOn('/sim/phone-list/manage/', { mdn, action: 'block', numbers: ['2125550100'] }, null);
    await gateway.sandboxes.cores['321'].suspend({ mdn, transactionId: `SEED_SUS_${sim}` });
    await agreeOn('/sim/sms/send/', { mdn, message: 'hello' }, '915');
    await agreeOn('/sim/phone-list/manage/', { mdn: '3215559999', action: 'block', numbers: ['2125550100'] }, '918');
  });
});

describe('a carrier failing its reads', () => {
  it('answers a dry run 400 with the carrier fault (as a query would), predicts nothing and changes nothing', async () => {
    await createPlans(gateway);
    // A superuser, for the balance adjustment; the plans authorized for the reconnect.
    const { token } = await gateway.user({ superuser: true, plans: ALL_PLANS, carrier: 'carrier_b' });
    const { mdn, sim } = await seedLine(gateway, { carrier: 'carrier_b' });
    const server = gateway.sandboxes.servers.carrier_b;
    try {
      for (const faults of [
        { ...NO_FAULTS, errorRate: 1 },
        { ...NO_FAULTS, garbageRate: 1 },
      ]) {
        server.faults = faults;
        for (const [path, body] of [
          ['/sim/wfc/add/', { mdn, sim, ...ADDRESS }],
          ['/sim/reconnect/', { mdn, sim, plan_id: 'WFC', ...INVALID_ADDRESS }],
          ['/sim/balance/adjust/', { mdn, subscription_id: 'SUB-1', amount: 1 }],
        ] as const) {
          const dry = await gateway.rest('POST', `${path}?dry_run=true`, { token, body });
          expect(dry.status, `${path} ${JSON.stringify(dry.body)}`).toBe(400);
          expect(dry.body).not.toHaveProperty('would_succeed');
        }
      }
    } finally {
      server.faults = NO_FAULTS;
    }
    expect((await gateway.sandboxes.cores.carrier_b.getServiceProfile(mdn)).e911Address).toBeNull();
  });
});

describe('GraphQL', () => {
  it('previews a WFC plan’s refused E911 address as the call’s warning, wfcStatus false', async () => {
    await createPlans(gateway);
    const { token } = await gateway.user({ plans: ALL_PLANS, carrier: '321' });
    const { mdn } = await seedLine(gateway, { carrier: '321' });
    const change = (dryRun: boolean) =>
      gateway.graphql(
        `mutation ($input: ChangePlanInput!) {
          changePlan(input: $input) { status warning wfcStatus dryRun { wouldSucceed predictedWarning checks { name outcome } } }
        }`,
        {
          token,
          variables: {
            input: {
              mdn,
              newPlanId: 'WFC',
              address1: '9 Invalid Rd',
              city: 'Atlanta',
              state: 'GA',
              zipCode: '30301',
              dryRun,
            },
          },
        },
      );
    const dry = await change(true);
    const real = await change(false);
    const preview = dry.data?.changePlan as Record<string, unknown> & { dryRun: Record<string, unknown> };
    const answer = real.data?.changePlan as Record<string, unknown>;
    expect(answer).toMatchObject({ status: 'SUCCESS', wfcStatus: false, dryRun: null });
    expect(answer.warning).toEqual(expect.stringContaining('(GENS-0090)'));
    expect(preview).toMatchObject({ status: 'SUCCESS', warning: answer.warning, wfcStatus: false });
    expect(preview.dryRun).toMatchObject({ wouldSucceed: true, predictedWarning: answer.warning });
    expect(preview.dryRun.checks).toContainEqual({ name: 'e911Address', outcome: 'FAILED' });
  });
});
