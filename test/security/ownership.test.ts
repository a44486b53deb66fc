// Line ownership (OWASP API1, broken object-level authorization), through the gateway's edge
// against the sandbox carriers: user A activates a line; user B, authorized for the same plans, is refused
// every read and write of it on both surfaces (REST 403 envelope, GraphQL FORBIDDEN) before
// anything happens at the carrier or in the transaction log; superusers, the `off` setting,
// unowned and unknown lines behave as before; swaps keep the owner.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshSim, SEED_ADDRESS, seedLine } from '../support/lines.js';
import type { GraphQLAnswer, HttpAnswer, TestGateway } from '../support/gateway.js';
import { snakeInput } from '../support/surfaces.js';
import {
  activate,
  activationBody,
  expectGraphQLRefusal,
  expectRestRefusal,
  transactionId,
  type Caller,
  type Line,
  startOwnershipGateway,
} from './ownership-support.js';

let gateway: TestGateway;
let a: Caller;
let b: Caller;
let admin: Caller;
let aLine: Line;
let bLine: Line;

beforeAll(async () => {
  ({ gateway, a, b, admin } = await startOwnershipGateway());
  [aLine, bLine] = [await activate(gateway, a), await activate(gateway, b)];
});
afterAll(() => gateway.close());

const registry = async (mdn: string) => (await gateway.app.services.lines.byMdns([mdn])).get(mdn);
/** What the carrier knows of a line: status, SIM, plan, codes, balances, E911, hotline. */
const carrierState = (mdn: string) => gateway.sandboxes.cores['321'].getServiceProfile(mdn);

interface Case {
  field: string;
  kind: 'query' | 'mutation';
  /** camelCase input naming A's line; mutations get a transaction id added. */
  input: (line: Line) => Record<string, unknown>;
  /** REST method and path; POST bodies are the snake_case input. */
  rest: (line: Line) => { method: 'GET' | 'POST' | 'PATCH'; path: string };
}

const get = (path: (line: Line) => string) => (line: Line) => ({ method: 'GET' as const, path: path(line) });
const post = (path: string) => () => ({ method: 'POST' as const, path });

const CASES: Case[] = [
  { field: 'usage', kind: 'query', input: ({ mdn }) => ({ mdn }), rest: get(({ mdn }) => `/sim/usage/${mdn}`) },
  { field: 'serviceInfo', kind: 'query', input: ({ mdn }) => ({ mdn }), rest: get(({ mdn }) => `/sim/service/${mdn}`) },
  {
    field: 'networkStatus',
    kind: 'query',
    input: ({ mdn }) => ({ mdn }),
    rest: get(({ mdn }) => `/sim/network/${mdn}`),
  },
  {
    field: 'carrierUsage',
    kind: 'query',
    input: ({ mdn }) => ({ mdn }),
    rest: get(({ mdn }) => `/sim/usage/carrier/${mdn}`),
  },
  { field: 'simDetails', kind: 'query', input: ({ sim }) => ({ sim }), rest: get(({ sim }) => `/sim/details/${sim}`) },
  { field: 'esimProfile', kind: 'query', input: ({ sim }) => ({ sim }), rest: get(({ sim }) => `/sim/esim/${sim}`) },
  { field: 'account', kind: 'query', input: ({ mdn }) => ({ mdn }), rest: get(({ mdn }) => `/sim/account/${mdn}`) },
  { field: 'suspendLine', kind: 'mutation', input: ({ mdn }) => ({ mdn }), rest: post('/sim/suspend/') },
  {
    field: 'swapSim',
    kind: 'mutation',
    input: ({ mdn, sim }) => ({ mdn, oldSim: sim, newSim: freshSim() }),
    rest: post('/sim/swap/'),
  },
  {
    field: 'swapMdn',
    kind: 'mutation',
    input: ({ mdn, sim }) => ({ mdn, sim, zipCode: '30301' }),
    rest: post('/sim/mdn/swap/'),
  },
  {
    field: 'changePlan',
    kind: 'mutation',
    input: ({ mdn }) => ({ mdn, newPlanId: 'PREMIUM' }),
    rest: post('/sim/plan/change/'),
  },
  {
    field: 'purchasePlan',
    kind: 'mutation',
    input: ({ mdn }) => ({ mdn, planId: 'TOPUP' }),
    rest: post('/sim/plan/purchase/'),
  },
  {
    field: 'sendSms',
    kind: 'mutation',
    input: ({ mdn }) => ({ mdn, message: 'not yours' }),
    rest: post('/sim/sms/send/'),
  },
  {
    field: 'disconnectLine',
    kind: 'mutation',
    input: ({ mdn, sim }) => ({ mdn, sim, acknowledgeFinal: true }),
    rest: post('/sim/disconnect/'),
  },
  {
    field: 'resetVoicemailPassword',
    kind: 'mutation',
    input: ({ mdn }) => ({ mdn }),
    rest: post('/sim/voicemail/reset/'),
  },
  // A's line as the parent of B's line, and as the child of B's.
  {
    field: 'addChildLine',
    kind: 'mutation',
    input: ({ mdn, sim }) => ({ parentMdn: mdn, parentSim: sim, childMdn: bLine.mdn }),
    rest: post('/sim/line/add/'),
  },
  {
    field: 'addChildLine',
    kind: 'mutation',
    input: ({ mdn }) => ({ parentMdn: bLine.mdn, parentSim: bLine.sim, childMdn: mdn }),
    rest: post('/sim/line/add/'),
  },
  // A's SIM given to an activation of B's (the carrier would refuse it too, but only after the
  // attempt reached it and its transaction was recorded).
  {
    field: 'activateSim',
    kind: 'mutation',
    input: ({ sim }) => ({ sim, planId: 'BASIC', ...SEED_ADDRESS }),
    rest: post('/sim/activate/'),
  },
  // B's own line with A's SIM as the one to swap to.
  {
    field: 'swapSim',
    kind: 'mutation',
    input: ({ sim }) => ({ mdn: bLine.mdn, oldSim: bLine.sim, newSim: sim }),
    rest: post('/sim/swap/'),
  },
];

async function callRest(caller: Caller, testCase: Case, input: Record<string, unknown>): Promise<HttpAnswer> {
  const { method, path } = testCase.rest(aLine);
  return gateway.rest(method, path, { token: caller.token, body: method === 'GET' ? undefined : snakeInput(input) });
}

async function callGraphQL(caller: Caller, testCase: Case, input: Record<string, unknown>): Promise<GraphQLAnswer> {
  const pascal = testCase.field.charAt(0).toUpperCase() + testCase.field.slice(1);
  if (testCase.kind === 'mutation') {
    return gateway.graphql(`mutation ($input: ${pascal}Input!) { ${testCase.field}(input: $input) { __typename } }`, {
      token: caller.token,
      variables: { input },
    });
  }
  const args = Object.keys(input);
  return gateway.graphql(
    `query (${args.map((arg) => `$${arg}: String!`).join(', ')}) { ${testCase.field}(${args.map((arg) => `${arg}: $${arg}`).join(', ')}) { __typename } }`,
    {
      token: caller.token,
      variables: input,
    },
  );
}

describe("another user's line", () => {
  const used: string[] = [];

  it.each(CASES.map((testCase, index) => [`${testCase.field} #${index}`, testCase] as const))(
    'refuses %s on both surfaces',
    async (_name, testCase) => {
      const before = await carrierState(aLine.mdn);
      const ids = testCase.kind === 'mutation' ? [transactionId('REST'), transactionId('GQL')] : [];
      const input = (id?: string) => ({ ...testCase.input(aLine), ...(id ? { transactionId: id } : {}) });
      expectRestRefusal(await callRest(b, testCase, input(ids[0])), a.user);
      expectGraphQLRefusal(await callGraphQL(b, testCase, input(ids[1])), testCase.field, a.user);
      // Nothing reached the carrier, nothing was recorded.
      expect(await carrierState(aLine.mdn)).toEqual(before);
      for (const id of ids) expect(await gateway.app.services.transactions.find(id)).toBeNull();
      expect(await registry(aLine.mdn)).toMatchObject({
        mdn: aLine.mdn,
        sim: aLine.sim,
        status: 'ACTIVE',
        ownerId: a.user.id,
      });
      used.push(...ids);
    },
  );

  it('left the refused transaction ids free: B reuses one on his own line', async () => {
    expect(used.length).toBeGreaterThan(0);
    const answer = await gateway.rest('POST', '/sim/sms/send/', {
      token: b.token,
      body: { mdn: bLine.mdn, message: 'mine', transaction_id: used[0] },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'success', mdn: bLine.mdn, transaction_id: used[0] });
  });

  it('answers the owner as before', async () => {
    expect((await gateway.rest('GET', `/sim/usage/${aLine.mdn}`, { token: a.token })).status).toBe(200);
    expect((await gateway.rest('GET', `/sim/details/${aLine.sim}`, { token: a.token })).status).toBe(200);
  });

  it('lines(mdns:) answers B’s line and refuses A’s per field, carrier included', async () => {
    const answer = await gateway.graphql<{
      lines: {
        mdn: string;
        carrier: string | null;
        usage: { status: string; subscriberStatus: string | null } | null;
      }[];
    }>('query ($mdns: [String!]!) { lines(mdns: $mdns) { mdn carrier usage { status subscriberStatus } } }', {
      token: b.token,
      variables: { mdns: [aLine.mdn, bLine.mdn] },
    });
    expect(answer.data?.lines).toEqual([
      { mdn: aLine.mdn, carrier: null, usage: null },
      { mdn: bLine.mdn, carrier: 'CARRIER_321', usage: { status: 'SUCCESS', subscriberStatus: 'ACTIVE' } },
    ]);
    const refused = (answer.errors ?? []).map((error) => ({ path: error.path, code: error.extensions?.code }));
    expect(refused).toEqual(
      expect.arrayContaining([
        { path: ['lines', 0, 'carrier'], code: 'FORBIDDEN' },
        { path: ['lines', 0, 'usage'], code: 'FORBIDDEN' },
      ]),
    );
    expect(refused).toHaveLength(2);
  });

  it('a superuser may act on it', async () => {
    const line = await activate(gateway, a);
    expect((await gateway.rest('GET', `/sim/usage/${line.mdn}`, { token: admin.token })).status).toBe(200);
    expect((await gateway.rest('POST', '/sim/suspend/', { token: admin.token, body: { mdn: line.mdn } })).status).toBe(
      200,
    );
    expect(await registry(line.mdn)).toMatchObject({ status: 'SUSPENDED', ownerId: a.user.id });
  });

  it('with line_ownership "off", B may act on it; "enforced" refuses again', async () => {
    const line = await activate(gateway, a);
    const setMode = (mode: string) =>
      gateway.rest('PUT', '/settings/line_ownership', { token: admin.token, body: { value: JSON.stringify(mode) } });
    expect((await setMode('off')).status).toBe(200);
    try {
      expect((await gateway.rest('GET', `/sim/usage/${line.mdn}`, { token: b.token })).status).toBe(200);
      expect((await gateway.rest('POST', '/sim/suspend/', { token: b.token, body: { mdn: line.mdn } })).status).toBe(
        200,
      );
    } finally {
      expect((await setMode('enforced')).status).toBe(200);
    }
    expectRestRefusal(await gateway.rest('GET', `/sim/usage/${line.mdn}`, { token: b.token }), a.user);
  });
});

describe('lines without an owner', () => {
  it('a line nobody owns (known before ownership) is open to every user', async () => {
    const legacy = await seedLine(gateway);
    expect((await registry(legacy.mdn))?.ownerId).toBeNull();
    expect((await gateway.rest('GET', `/sim/usage/${legacy.mdn}`, { token: b.token })).status).toBe(200);
    expect((await gateway.rest('POST', '/sim/suspend/', { token: b.token, body: { mdn: legacy.mdn } })).status).toBe(
      200,
    );
    // Learning it again through a lifecycle operation gives it no owner.
    expect(await registry(legacy.mdn)).toMatchObject({ status: 'SUSPENDED', ownerId: null });
  });

  it('a line the gateway has never seen goes to the carrier: a never-issued MDN still answers 918', async () => {
    const answer = await gateway.rest('GET', '/sim/usage/5550001234', { token: b.token });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ status: 'failure', message: expect.stringMatching(/\(918\)$/) });
    const unseen = await seedLine(gateway, { register: false });
    const swapped = await gateway.rest('POST', '/sim/swap/', {
      token: b.token,
      body: { mdn: unseen.mdn, old_sim: unseen.sim, new_sim: freshSim() },
    });
    expect(swapped.status).toBe(200);
    // A swap learns the line, without an owner.
    expect((await registry(unseen.mdn))?.ownerId).toBeNull();
  });
});

describe('swaps keep the owner', () => {
  it('after a SIM swap and an MDN swap by A, the line is still A’s and B is refused on the new number and SIM', async () => {
    const line = await activate(gateway, a);
    const newSim = freshSim();
    expect(
      (
        await gateway.rest('POST', '/sim/swap/', {
          token: a.token,
          body: { mdn: line.mdn, old_sim: line.sim, new_sim: newSim },
        })
      ).status,
    ).toBe(200);
    expect(await registry(line.mdn)).toMatchObject({ sim: newSim, ownerId: a.user.id });
    const renumbered = await gateway.rest<{ new_mdn: string }>('POST', '/sim/mdn/swap/', {
      token: a.token,
      body: { mdn: line.mdn, sim: newSim, zip_code: '30301' },
    });
    expect(renumbered.status).toBe(200);
    const newMdn = renumbered.body.new_mdn;
    expect(await registry(line.mdn)).toBeUndefined();
    expect(await registry(newMdn)).toMatchObject({ sim: newSim, ownerId: a.user.id });
    expectRestRefusal(await gateway.rest('GET', `/sim/usage/${newMdn}`, { token: b.token }), a.user);
    expectRestRefusal(await gateway.rest('GET', `/sim/details/${newSim}`, { token: b.token }), a.user);
    expect((await gateway.rest('GET', `/sim/usage/${newMdn}`, { token: a.token })).status).toBe(200);
    // The SIM the swap took off stays A's: its details (PUK codes) and an activation with it are
    // refused to B, on both surfaces; A still reads them.
    expectRestRefusal(await gateway.rest('GET', `/sim/details/${line.sim}`, { token: b.token }), a.user);
    expectGraphQLRefusal(
      await gateway.graphql('query ($sim: String!) { simDetails(sim: $sim) { status } }', {
        token: b.token,
        variables: { sim: line.sim },
      }),
      'simDetails',
      a.user,
    );
    expectRestRefusal(
      await gateway.rest('POST', '/sim/activate/', { token: b.token, body: activationBody(line.sim) }),
      a.user,
    );
    const own = await gateway.rest<{ status: string }>('GET', `/sim/details/${line.sim}`, { token: a.token });
    expect(own.status).not.toBe(403);
  });

  it('a reconnect keeps the owner', async () => {
    const line = await activate(gateway, a);
    expect(
      (
        await gateway.rest('POST', '/sim/disconnect/', {
          token: a.token,
          body: { mdn: line.mdn, sim: line.sim, acknowledge_final: true },
        })
      ).status,
    ).toBe(200);
    expectRestRefusal(
      await gateway.rest('POST', '/sim/reconnect/', {
        token: b.token,
        body: { mdn: line.mdn, sim: line.sim, plan_id: 'BASIC', zip_code: '30301' },
      }),
      a.user,
    );
    const reconnected = await gateway.rest('POST', '/sim/reconnect/', {
      token: a.token,
      body: { mdn: line.mdn, sim: line.sim, plan_id: 'BASIC', zip_code: '30301' },
    });
    expect(reconnected.status).toBe(200);
    expect(await registry(line.mdn)).toMatchObject({ status: 'ACTIVE', ownerId: a.user.id });
  });
});
