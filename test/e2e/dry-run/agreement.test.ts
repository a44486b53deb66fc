// A dry run agrees with the real call, on both carriers, across the sandbox's documented test
// values (docs/sandbox.md): for each, `?dry_run=true` first, then the real call, and the
// prediction (would_succeed, predicted_code) must be what the call then answered.
// Not covered, because no read-only call of the contract can see them (each is listed in the
// report's `unpredictable`): an INVALID… plan code (906), an exhausted number pool
// (GENS-0011). A SIM past its expiry (GENS-0197) needs the sandbox clock three years on:
// agreement-expiry.test.ts, with a gateway of its own; the other mutations are in
// agreement-writes.test.ts.

import { beforeEach, describe, expect, it } from 'vitest';
import type { CarrierId } from '../../../src/carriers/types.js';
import { activationBody } from '../activation/activations.js';
import { ALL_PLANS, createPlans } from '../../support/plans.js';
import { freshSim, seedDisconnectedLine, seedLine } from '../../support/lines.js';
import { useGateway } from '../../support/use-gateway.js';

let token: string;
const gateway = useGateway();

// A fresh user per test: activation allows 30 writes and dry runs 60 a minute per user.
beforeEach(async () => {
  await createPlans(gateway);
  ({ token } = await gateway.user({ plans: ALL_PLANS }));
});

const codeOf = (message: unknown) => /\(([A-Z0-9-]+)\)$/.exec(String(message))?.[1] ?? null;

/** Dry run, then the real call: the prediction must be the outcome. */
async function agree(path: string, body: Record<string, unknown>, expected: string | null) {
  const dry = await gateway.rest('POST', `${path}?dry_run=true`, { token, body });
  expect(dry.status, JSON.stringify(dry.body)).toBe(200);
  const real = await gateway.rest('POST', path, { token, body });
  const outcome = { wouldSucceed: real.status === 200, code: real.status === 200 ? null : codeOf(real.body.message) };
  expect(outcome, JSON.stringify(real.body)).toEqual({ wouldSucceed: expected === null, code: expected });
  expect({ wouldSucceed: dry.body.would_succeed, code: dry.body.predicted_code }).toEqual(outcome);
  return dry.body;
}

const PLAN_ON: Record<CarrierId, string> = { '321': 'A321', carrier_b: 'BPLAN' };

describe.each(['321', 'carrier_b'] as const)('on carrier %s', (carrier) => {
  const activate = (overrides: Record<string, unknown>, expected: string | null) =>
    agree('/sim/activate/', activationBody({ plan_id: PLAN_ON[carrier], ...overrides }), expected);

  it('activation: every documented SIM class', async () => {
    await activate({}, null);
    await activate({ sim: freshSim('8999') }, '910');
    await activate({ sim: freshSim('8903') }, 'GENS-0006');
    await activate({ sim: '1234567890123456789' }, 'GENS-0006');
    await activate({ sim: freshSim('89029') }, '8011');
    await activate({ sim: freshSim('8902'), is_esim: 'Y', email: 'a@example.com' }, null);
    await activate({ sim: freshSim('8901'), is_esim: 'Y', email: 'a@example.com' }, 'GENS-0030');
    await activate({ sim: freshSim('89029'), is_esim: 'Y', email: 'a@example.com' }, '8011');
    const line = await seedLine(gateway, { carrier });
    await activate({ sim: line.sim }, '914');
    // A SIM retired by a SIM swap is unusable for ever.
    const swappedTo = freshSim();
    await gateway.sandboxes.cores[carrier].swapSim({
      mdn: line.mdn,
      oldSim: line.sim,
      newSim: swappedTo,
      transactionId: `SEED_SWAP_${swappedTo}`,
    });
    await activate({ sim: line.sim }, 'GENS-0006');
  });

  it('activation: every documented ZIP class', async () => {
    await activate({ zip_code: '00000' }, '510');
    await activate({ zip_code: '99999' }, 'GENS-0289');
    await activate({ zip_code: '99999-1234' }, 'GENS-0289');
    await activate({ zip_code: '30301-1234' }, null);
  });

  it('suspend and restore follow the line’s status', async () => {
    const line = await seedLine(gateway, { carrier });
    await agree('/sim/restore/', { mdn: line.mdn }, 'GENS-0033');
    await agree('/sim/suspend/', { mdn: line.mdn }, null);
    await agree('/sim/suspend/', { mdn: line.mdn }, '935');
    await agree('/sim/restore/', { mdn: line.mdn }, null);
    const gone = await seedDisconnectedLine(gateway, { carrier });
    await agree('/sim/suspend/', { mdn: gone.mdn }, '915');
    await agree('/sim/restore/', { mdn: gone.mdn }, '915');
  });

  it('disconnect and SIM swap check the line’s SIM', async () => {
    const line = await seedLine(gateway, { carrier });
    const other = await seedLine(gateway, { carrier });
    await agree('/sim/swap/', { mdn: line.mdn, old_sim: other.sim, new_sim: freshSim() }, 'GENS-0012');
    await agree('/sim/swap/', { mdn: line.mdn, old_sim: line.sim, new_sim: other.sim }, 'GENS-0018');
    await agree('/sim/swap/', { mdn: line.mdn, old_sim: line.sim, new_sim: line.sim }, 'GENS-0018');
    await agree('/sim/swap/', { mdn: line.mdn, old_sim: line.sim, new_sim: freshSim('8999') }, '910');
    await agree('/sim/swap/', { mdn: line.mdn, old_sim: line.sim, new_sim: freshSim('8903') }, 'GENS-0006');
    const newSim = freshSim();
    await agree('/sim/swap/', { mdn: line.mdn, old_sim: line.sim, new_sim: newSim }, null);
    await agree('/sim/disconnect/', { mdn: line.mdn, sim: line.sim, acknowledge_final: true }, 'GENS-0065');
    await agree('/sim/disconnect/', { mdn: line.mdn, sim: newSim, acknowledge_final: true }, null);
  });

  it('cancel follows the line’s purchases', async () => {
    const line = await seedLine(gateway, { carrier });
    const core = gateway.sandboxes.cores[carrier];
    const base = (await core.getUsage(line.mdn)).subscriptions[0]!.purchaseId;
    const { purchaseId } = await core.purchasePlan({
      mdn: line.mdn,
      carrierPlanId: 'TOPUP1GB',
      transactionId: `SEED_BUY_${line.sim}`,
    });
    await agree('/sim/plan/cancel/', { mdn: line.mdn, purchase_id: base }, '919');
    await agree('/sim/plan/cancel/', { mdn: line.mdn, purchase_id: 'PUR-NOT-THERE' }, '949');
    await agree('/sim/plan/cancel/', { mdn: line.mdn, purchase_id: purchaseId }, null);
    await agree('/sim/plan/cancel/', { mdn: line.mdn, purchase_id: purchaseId }, '949');
  });
});

describe('MDNs no carrier serves', () => {
  it('909 and 918 are predicted from the line read', async () => {
    await agree('/sim/suspend/', { mdn: '9095550100' }, '909');
    await agree('/sim/suspend/', { mdn: '3215559999' }, '918');
  });
});
