// A line that lives on carrier_b is served by carrier_b for every feature and lifecycle
// operation, over REST and GraphQL: the gateway's line registry routes it, and keeps routing
// it after a SIM swap, an MDN swap, a disconnection and a reconnection.

import { beforeAll, describe, expect, it } from 'vitest';
import { freshSim, seedLine } from '../../support/lines.js';
import { graphqlMutation } from '../../support/surfaces.js';
import { useGateway } from '../../support/use-gateway.js';

let token: string;
let admin: string;

const post = (path: string, body: Record<string, unknown>, as = token) =>
  gateway.rest('POST', path, { token: as, body });
const registry = async (mdn: string) => (await gateway.app.services.lines.byMdns([mdn])).get(mdn);
const coreB = () => gateway.sandboxes.cores.carrier_b;
const core321 = () => gateway.sandboxes.cores['321'];

const gateway = useGateway();
beforeAll(async () => {
  // The plan says carrier_b: the spec's per-plan resolution sends reconnect there.
  await gateway.plan({
    planId: 'B-BASIC',
    name: 'Basic on carrier_b',
    carrierPlanId: 'BASIC1GB',
    carrier: 'carrier_b',
  });
  ({ token } = await gateway.user({ plans: ['B-BASIC'] }));
  ({ token: admin } = await gateway.user({ superuser: true }));
});

describe('a line on carrier_b', () => {
  it('is served by carrier_b through features, suspend/restore, swaps, balances, disconnect and reconnect', async () => {
    const line = await seedLine(gateway, { carrier: 'carrier_b' });
    expect(line.mdn).toMatch(/^646555/);
    await expect(core321().getUsage(line.mdn)).rejects.toMatchObject({ code: '918' });

    const address = { address1: '1 Main St', city: 'Atlanta', state: 'GA', zip_code: '30301' };
    expect((await post('/sim/wfc/add/', { mdn: line.mdn, sim: line.sim, ...address })).status).toBe(200);
    expect((await coreB().getServiceProfile(line.mdn)).e911Address).toMatchObject({ address1: '1 Main St' });
    expect((await post('/sim/wfc/address/', { mdn: line.mdn, ...address, address1: '2 Main St' })).status).toBe(200);
    expect((await post('/sim/voicemail/language/', { mdn: line.mdn, language: 'SPAN' })).status).toBe(200);

    expect((await post('/sim/suspend/', { mdn: line.mdn })).status).toBe(200);
    expect((await coreB().getUsage(line.mdn)).lineStatus).toBe('SUSPENDED');
    const restored = await graphqlMutation(gateway, 'restoreLine', { mdn: line.mdn }, token);
    expect(restored.data?.restoreLine).toMatchObject({ status: 'SUCCESS', mdn: line.mdn });
    expect((await coreB().getUsage(line.mdn)).lineStatus).toBe('ACTIVE');

    // SIM swap: the registry follows the SIM, and the line is still found on carrier_b.
    const newSim = freshSim();
    expect((await post('/sim/swap/', { mdn: line.mdn, old_sim: line.sim, new_sim: newSim })).body).toMatchObject({
      status: 'success',
      sim: newSim,
    });
    expect(await registry(line.mdn)).toMatchObject({ sim: newSim, carrier: 'carrier_b' });
    expect((await post('/sim/voicemail/reset/', { mdn: line.mdn, sim: newSim })).status).toBe(200);

    // MDN swap: carrier_b's pool gives the number; the new number is routed to carrier_b.
    const swapped = await post('/sim/mdn/swap/', { mdn: line.mdn, sim: newSim, zip_code: '30301' });
    expect(swapped.status).toBe(200);
    const newMdn = swapped.body.new_mdn as string;
    expect(newMdn).toMatch(/^646555/);
    expect(await registry(newMdn)).toMatchObject({ sim: newSim, carrier: 'carrier_b' });
    expect((await post('/sim/device-location/cancel/', { mdn: newMdn })).status).toBe(200);
    expect((await post('/sim/suspend/', { mdn: line.mdn })).body.message).toBe(
      'Subscriber with given resource does not exist (918)',
    );

    // Balances (superuser) and a child line under this parent.
    const sub = (await coreB().getUsage(newMdn)).subscriptions[0]!;
    expect(
      (
        await post(
          '/sim/balance/adjust/',
          { mdn: newMdn, subscription_id: sub.purchaseId, uom: 'EVENT', amount: 5 },
          admin,
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await post(
          '/sim/balance/adjust-multiple/',
          { mdn: newMdn, adjustments: [{ subscription_id: sub.purchaseId, uom: 'BYTE', amount: 5 }] },
          admin,
        )
      ).status,
    ).toBe(200);
    const child = await seedLine(gateway, { carrier: 'carrier_b' });
    expect(
      (await post('/sim/line/add/', { parent_mdn: newMdn, parent_sim: newSim, child_mdn: child.mdn })).body,
    ).toMatchObject({ status: 'success', mdn: newMdn });
    expect(
      (await post('/sim/line/remove/', { parent_mdn: newMdn, parent_sim: newSim, child_mdn: child.mdn })).status,
    ).toBe(200);

    // Disconnect, then reconnect on a carrier_b plan.
    expect((await post('/sim/disconnect/', { mdn: newMdn, sim: newSim, acknowledge_final: true })).status).toBe(200);
    expect(await registry(newMdn)).toMatchObject({ status: 'DISCONNECTED', carrier: 'carrier_b' });
    const back = await post('/sim/reconnect/', { mdn: newMdn, sim: newSim, plan_id: 'B-BASIC', zip_code: '30301' });
    expect(back.body).toMatchObject({ status: 'success', mdn: newMdn, sim: newSim });
    expect((await coreB().getUsage(newMdn)).lineStatus).toBe('ACTIVE');
    expect(await registry(newMdn)).toMatchObject({ status: 'ACTIVE', carrier: 'carrier_b' });
  });

  it('records a line the gateway did not know at the carrier that served it (SIM swap)', async () => {
    // Not in the registry: routed by the caller's carrier preference, then remembered.
    const { token: preferB } = await gateway.user({ carrier: 'carrier_b' });
    const sim = freshSim();
    const seeded = await coreB().activate({
      sim,
      carrierPlanId: 'BASIC1GB',
      zipCode: '30301',
      address: { address1: '1 Main St', city: 'Atlanta', state: 'GA', zipCode: '30301' },
      isEsim: false,
      language: 'ENGL',
      transactionId: `SEED_${sim}`,
    });
    expect(await registry(seeded.mdn)).toBeUndefined();
    const newSim = freshSim();
    expect((await post('/sim/swap/', { mdn: seeded.mdn, old_sim: sim, new_sim: newSim }, preferB)).status).toBe(200);
    expect(await registry(seeded.mdn)).toMatchObject({ sim: newSim, carrier: 'carrier_b', status: 'ACTIVE' });
    // From now on any caller reaches it on carrier_b.
    expect((await post('/sim/suspend/', { mdn: seeded.mdn })).status).toBe(200);
  });
});
