// Writes on one line at once, through the gateway against the sandbox: whatever order the carrier
// applies them in, the registry's status of the line (what `me { lines }` shows, what ownership
// and routing read) ends as the carrier's. A SIM or MDN swap records no status it read before
// its carrier call.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshSim } from '../support/lines.js';
import type { TestGateway } from '../support/gateway.js';
import { activate, startOwnershipGateway, type Caller } from '../security/ownership-support.js';

let gateway: TestGateway;
let a: Caller;

beforeAll(async () => {
  ({ gateway, a } = await startOwnershipGateway());
});
afterAll(() => gateway.close());

const registryStatus = async (mdn: string) => (await gateway.app.services.lines.byMdns([mdn])).get(mdn)?.status;
const carrierStatus = async (mdn: string) => (await gateway.sandboxes.cores['321'].getServiceProfile(mdn)).lineStatus;

it('a suspension and a SIM swap sent together leave the registry’s status as the carrier’s', async () => {
  for (let round = 0; round < 5; round++) {
    const line = await activate(gateway, a);
    const [suspend, swap] = await Promise.all([
      gateway.rest('POST', '/sim/suspend/', { token: a.token, body: { mdn: line.mdn } }),
      gateway.rest('POST', '/sim/swap/', {
        token: a.token,
        body: { mdn: line.mdn, old_sim: line.sim, new_sim: freshSim() },
      }),
    ]);
    expect([suspend.status, swap.status]).toEqual([200, 200]);
    expect(await registryStatus(line.mdn)).toBe('SUSPENDED');
    expect(await carrierStatus(line.mdn)).toBe('SUSPENDED');
  }
});

it('a suspension and an MDN swap sent together: the new number is as suspended as the carrier says', async () => {
  for (let round = 0; round < 5; round++) {
    const line = await activate(gateway, a);
    const suspend = gateway.rest('POST', '/sim/suspend/', { token: a.token, body: { mdn: line.mdn } });
    const swap = gateway.rest<{ new_mdn: string }>('POST', '/sim/mdn/swap/', {
      token: a.token,
      body: { mdn: line.mdn, sim: line.sim, zip_code: '30301' },
    });
    const [suspended, swapped] = await Promise.all([suspend, swap]);
    expect(suspended.status).toBe(200);
    if (swapped.status !== 200) continue; // the carrier refused the swap of a suspended line
    const mdn = swapped.body.new_mdn;
    expect(await registryStatus(mdn)).toBe(await carrierStatus(mdn));
  }
});
