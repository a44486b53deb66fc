// The ownership check costs no database query of its own: it reads the line homes that carrier
// routing loads anyway (one registry lookup per request, through the request's DataLoaders).
// The registry's methods are observed (and still run); the cache is off so every lookup shows.

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshSim } from '../support/lines.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { activate, createPlans, PLANS, type Caller, type Line } from './ownership-support.js';

let gateway: TestGateway;
let a: Caller;
let line: Line;

beforeAll(async () => {
  gateway = await startGateway({ env: { CACHE_TTL_MS: '0' } });
  await createPlans(gateway);
  a = await gateway.user({ plans: PLANS });
  line = await activate(gateway, a);
});
afterAll(() => gateway.close());

/** How often the registry was asked for homes by MDN and by SIM while `call` ran. */
async function lookups(
  call: () => Promise<{ status: number }>,
): Promise<{ status: number; byMdns: number; bySims: number }> {
  const lines = gateway.app.services.lines;
  const byMdns = vi.spyOn(lines, 'byMdns');
  const bySims = vi.spyOn(lines, 'bySims');
  try {
    const { status } = await call();
    return { status, byMdns: byMdns.mock.calls.length, bySims: bySims.mock.calls.length };
  } finally {
    byMdns.mockRestore();
    bySims.mockRestore();
  }
}

describe('the cost of the ownership check', () => {
  it('a line query looks its line up once, for routing and ownership together', async () => {
    expect(await lookups(() => gateway.rest('GET', `/sim/usage/${line.mdn}`, { token: a.token }))).toEqual({
      status: 200,
      byMdns: 1,
      bySims: 0,
    });
  });

  it('a SIM query looks its SIM up once', async () => {
    expect(await lookups(() => gateway.rest('GET', `/sim/details/${line.sim}`, { token: a.token }))).toEqual({
      status: 200,
      byMdns: 0,
      bySims: 1,
    });
  });

  it('a SIM swap looks up its line, and only the SIM that is not the line’s own', async () => {
    const newSim = freshSim();
    const answer = await lookups(() =>
      gateway.rest('POST', '/sim/swap/', {
        token: a.token,
        body: { mdn: line.mdn, old_sim: line.sim, new_sim: newSim },
      }),
    );
    expect(answer).toEqual({ status: 200, byMdns: 1, bySims: 1 });
    line = { ...line, sim: newSim };
  });

  it('lines(mdns:) looks all its lines up in one batch', async () => {
    const other = await activate(gateway, a);
    const answer = await lookups(() =>
      gateway.graphql(
        'query ($mdns: [String!]!) { lines(mdns: $mdns) { carrier usage { status } networkStatus { status } } }',
        { token: a.token, variables: { mdns: [line.mdn, other.mdn] } },
      ),
    );
    expect(answer).toMatchObject({ byMdns: 1, bySims: 0 });
  });
});
