// The `strict` line-ownership rule, through the gateway's edge against the sandbox carriers: a
// user acts only on the lines they own. Another user's line, a line nobody owns and a number the
// gateway has never recorded (issued or not) are refused alike, with one message, so the refusal
// tells nothing about the number; nothing reaches the carrier or the transaction log. SIMs no line
// holds stay open (a user must be able to look up and activate stock), and the activation gives
// the new line its owner. Superusers are not held to the rule.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshSim, seedLine } from '../support/lines.js';
import type { GraphQLAnswer, HttpAnswer, TestGateway } from '../support/gateway.js';
import { activate, activationBody, type Caller, type Line, startOwnershipGateway } from './ownership-support.js';

let gateway: TestGateway;
let a: Caller;
let b: Caller;
let admin: Caller;
let aLine: Line;

const setMode = (mode: string) =>
  gateway.rest('PUT', '/settings/line_ownership', { token: admin.token, body: { value: JSON.stringify(mode) } });

beforeAll(async () => {
  ({ gateway, a, b, admin } = await startOwnershipGateway());
  aLine = await activate(gateway, a);
  expect((await setMode('strict')).status).toBe(200);
});
afterAll(() => gateway.close());

const registry = async (mdn: string) => (await gateway.app.services.lines.byMdns([mdn])).get(mdn);
const transactionsOf = (caller: Caller) =>
  gateway.app.services.db.transaction.count({ where: { userId: caller.user.id } });

/** The strict refusal on REST: the spec's 403 failure envelope, the same words whoever holds the number. */
function expectStrictRestRefusal(answer: HttpAnswer, subject: string): void {
  expect(answer.status).toBe(403);
  expect(answer.body).toEqual({ status: 'failure', message: subject, code: 'HTTP_403' });
}

function expectStrictGraphQLRefusal(answer: GraphQLAnswer, field: string, message: string): void {
  expect(answer.data?.[field] ?? null).toBeNull();
  expect(answer.errors).toHaveLength(1);
  expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', status: 403 });
  expect(answer.errors?.[0]?.message).toBe(message);
}

const usageOnGraphQL = (caller: Caller, mdn: string) =>
  gateway.graphql(`query ($mdn: String!) { usage(mdn: $mdn) { mdn status } }`, {
    token: caller.token,
    variables: { mdn },
  });

describe('line_ownership "strict"', () => {
  it('refuses another user’s line, a line nobody owns, an unrecorded line and a never-issued number alike', async () => {
    const unowned = await seedLine(gateway);
    const unrecorded = await seedLine(gateway, { register: false });
    expect((await registry(unowned.mdn))?.ownerId).toBeNull();
    expect(await registry(unrecorded.mdn)).toBeUndefined();
    const before = await transactionsOf(b);
    for (const mdn of [aLine.mdn, unowned.mdn, unrecorded.mdn, '5550001234']) {
      const message = `Line ${mdn} is not one of your lines`;
      expectStrictRestRefusal(await gateway.rest('GET', `/sim/usage/${mdn}`, { token: b.token }), message);
      expectStrictRestRefusal(await gateway.rest('POST', '/sim/suspend/', { token: b.token, body: { mdn } }), message);
      expectStrictGraphQLRefusal(await usageOnGraphQL(b, mdn), 'usage', message);
    }
    // Nothing was reserved, nothing reached the carrier.
    expect(await transactionsOf(b)).toBe(before);
    for (const line of [aLine, unowned, unrecorded])
      expect((await gateway.sandboxes.cores['321'].getServiceProfile(line.mdn)).lineStatus).toBe('ACTIVE');
  });

  it('dry runs: the owner’s passes the strict check, another’s number is the real call’s refusal', async () => {
    const dry = await gateway.rest<{
      would_succeed: boolean;
      checks: { name: string; outcome: string; detail: string }[];
    }>('POST', '/sim/suspend/?dry_run=true', { token: a.token, body: { mdn: aLine.mdn } });
    expect(dry.status).toBe(200);
    expect(dry.body.checks).toContainEqual({
      name: 'lineOwnership',
      outcome: 'passed',
      detail: 'The lines named are the caller’s, and the SIMs named are on them or on no line',
    });
    const unrecorded = await seedLine(gateway, { register: false });
    expectStrictRestRefusal(
      await gateway.rest('POST', '/sim/suspend/?dry_run=true', { token: a.token, body: { mdn: unrecorded.mdn } }),
      `Line ${unrecorded.mdn} is not one of your lines`,
    );
  });

  it('lets the owner act on their line, and a superuser on any', async () => {
    expect((await gateway.rest('GET', `/sim/usage/${aLine.mdn}`, { token: a.token })).status).toBe(200);
    expect((await usageOnGraphQL(a, aLine.mdn)).errors).toBeUndefined();
    const unrecorded = await seedLine(gateway, { register: false });
    expect((await gateway.rest('GET', `/sim/usage/${unrecorded.mdn}`, { token: admin.token })).status).toBe(200);
    const suspended = await gateway.rest('POST', '/sim/suspend/', {
      token: admin.token,
      body: { mdn: unrecorded.mdn },
    });
    expect(suspended.status).toBe(200);
  });

  it('leaves stock SIMs open: B looks one up and activates it, and the new line is B’s alone', async () => {
    const sim = freshSim();
    expect((await gateway.rest('GET', `/sim/details/${sim}`, { token: b.token })).status).not.toBe(403);
    const activated = await gateway.rest<{ mdn: string }>('POST', '/sim/activate/', {
      token: b.token,
      body: activationBody(sim),
    });
    expect(activated.status).toBe(200);
    expect((await registry(activated.body.mdn))?.ownerId).toBe(b.user.id);
    expect((await gateway.rest('GET', `/sim/usage/${activated.body.mdn}`, { token: b.token })).status).toBe(200);
    expectStrictRestRefusal(
      await gateway.rest('GET', `/sim/usage/${activated.body.mdn}`, { token: a.token }),
      `Line ${activated.body.mdn} is not one of your lines`,
    );
  });

  it('refuses the SIM of a line that is not the caller’s, and activating it again', async () => {
    const unowned = await seedLine(gateway);
    for (const sim of [aLine.sim, unowned.sim]) {
      const message = `SIM ${sim} is not on one of your lines`;
      expectStrictRestRefusal(await gateway.rest('GET', `/sim/details/${sim}`, { token: b.token }), message);
      expectStrictRestRefusal(
        await gateway.rest('POST', '/sim/activate/', { token: b.token, body: activationBody(sim) }),
        message,
      );
    }
  });

  it('answers each line of `lines(mdns:)` on its own: the caller’s, and a refusal for the others', async () => {
    const unrecorded = await seedLine(gateway, { register: false });
    const answer = await gateway.graphql<{ lines: ({ mdn: string; carrier: string | null } | null)[] }>(
      `query ($mdns: [String!]!) { lines(mdns: $mdns) { mdn carrier } }`,
      { token: a.token, variables: { mdns: [aLine.mdn, unrecorded.mdn] } },
    );
    expect(answer.data?.lines[0]).toEqual({ mdn: aLine.mdn, carrier: 'CARRIER_321' });
    expect(answer.errors?.map((error) => [error.path, error.message])).toEqual([
      [['lines', 1, 'carrier'], `Line ${unrecorded.mdn} is not one of your lines`],
    ]);
  });

  it('shows a line’s history to its owner only', async () => {
    const history = (caller: Caller, mdn: string) =>
      gateway.graphql(`query ($mdn: String!) { lineHistory(mdn: $mdn) { mdn } }`, {
        token: caller.token,
        variables: { mdn },
      });
    expect((await history(a, aLine.mdn)).errors).toBeUndefined();
    const unowned = await seedLine(gateway);
    expectStrictGraphQLRefusal(
      await history(a, unowned.mdn),
      'lineHistory',
      `Line ${unowned.mdn} is not one of your lines`,
    );
  });

  it('back under "enforced", a line nobody owns is open again and another user’s line is refused as before', async () => {
    const unowned = await seedLine(gateway);
    expect((await setMode('enforced')).status).toBe(200);
    try {
      expect((await gateway.rest('GET', `/sim/usage/${unowned.mdn}`, { token: b.token })).status).toBe(200);
      const refused = await gateway.rest<{ message: string }>('GET', `/sim/usage/${aLine.mdn}`, { token: b.token });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(`Line ${aLine.mdn} belongs to another user`);
    } finally {
      expect((await setMode('strict')).status).toBe(200);
    }
  });
});
