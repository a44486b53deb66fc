// Expired SIMs (GENS-0197): a dry run agrees with the real call when the SIM's expiry date has
// passed. The sandbox clock moves three years on for this file's gateway, so the file has a
// gateway of its own.

import { beforeAll, describe, expect, it } from 'vitest';
import type { CarrierId } from '../../../src/carriers/types.js';
import { DAY_MS } from '../../../src/sandbox/core/time-format.js';
import { ALL_PLANS, createPlans } from '../../support/plans.js';
import { disconnectSeeded, freshSim, seedLine } from '../../support/lines.js';
import { useGateway } from '../../support/use-gateway.js';

const gateway = useGateway();
const codeOf = (message: unknown) => /\(([A-Z0-9-]+)\)$/.exec(String(message))?.[1] ?? null;
const CARRIERS = ['321', 'carrier_b'] as const;

/** SIMs the carriers know today, and lines on them, made before the clock moves. */
const expired: Record<CarrierId, { physical: string; esim: string; forSwap: string; forReconnect: string }> = {
  '321': { physical: '', esim: '', forSwap: '', forReconnect: '' },
  carrier_b: { physical: '', esim: '', forSwap: '', forReconnect: '' },
};
const lines: Partial<Record<CarrierId, { active: { mdn: string; sim: string }; gone: { mdn: string; sim: string } }>> =
  {};

beforeAll(async () => {
  await createPlans(gateway);
  for (const carrier of CARRIERS) {
    const core = gateway.sandboxes.cores[carrier];
    const sims = { physical: freshSim(), esim: freshSim('8902'), forSwap: freshSim(), forReconnect: freshSim() };
    for (const sim of Object.values(sims)) expect((await core.getSimDetails(sim)).activationEligible).toBe(true);
    expired[carrier] = sims;
    const active = await seedLine(gateway, { carrier });
    const gone = await seedLine(gateway, { carrier });
    lines[carrier] = { active, gone };
    core.advanceClock(3 * 365 * DAY_MS);
    // Disconnected now, so that it is within the 30 days a reconnection allows.
    await disconnectSeeded(gateway, gone);
  }
});

describe.each(CARRIERS)('on carrier %s, three years on', (carrier) => {
  async function agree(path: string, body: Record<string, unknown>, expected: string | null) {
    const { token } = await gateway.user({ plans: ALL_PLANS, carrier });
    const dry = await gateway.rest('POST', `${path}?dry_run=true`, { token, body });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    const real = await gateway.rest('POST', path, { token, body });
    const outcome = { wouldSucceed: real.status === 200, code: real.status === 200 ? null : codeOf(real.body.message) };
    expect(outcome, JSON.stringify(real.body)).toEqual({ wouldSucceed: expected === null, code: expected });
    expect({ wouldSucceed: dry.body.would_succeed, code: dry.body.predicted_code }).toEqual(outcome);
  }

  it('activation, SIM swap and reconnect on an expired SIM are GENS-0197, predicted', async () => {
    const sims = expired[carrier];
    const { active, gone } = lines[carrier]!;
    const address = { address1: '1 Main St', city: 'Atlanta', state: 'GA' };
    await agree('/sim/activate/', { sim: sims.physical, plan_id: 'BASIC', zip_code: '30301', ...address }, 'GENS-0197');
    await agree(
      '/sim/activate/',
      { sim: sims.esim, plan_id: 'BASIC', zip_code: '30301', is_esim: 'Y', email: 'a@example.com', ...address },
      'GENS-0197',
    );
    await agree('/sim/swap/', { mdn: active.mdn, old_sim: active.sim, new_sim: sims.forSwap }, 'GENS-0197');
    const reconnect = { mdn: gone.mdn, plan_id: 'BASIC', zip_code: '30301' };
    await agree('/sim/reconnect/', { ...reconnect, sim: sims.forReconnect }, 'GENS-0197');
  });
});
