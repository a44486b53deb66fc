// The `strict` line-ownership rule, through the gateway's edge against the sandbox carriers: a
// user acts only on the lines they own. Another user's line, a line nobody owns and a number the
// gateway has never recorded (issued or not) are refused alike, with one message, so the refusal
// tells nothing about the number; nothing reaches the carrier or the transaction log. SIMs no line
// holds stay open (a user must be able to look up and activate stock), and the activation gives
// the new line its owner. Superusers are not held to the rule.

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/logger.js';
import { DEFAULT_SANDBOX_CREDENTIALS } from '../../src/sandbox/start.js';
import { eventually } from '../support/eventually.js';
import { disconnectSeeded, freshSim, seedLine, SEED_ADDRESS } from '../support/lines.js';
import type { GraphQLAnswer, HttpAnswer, TestGateway } from '../support/gateway.js';
import { activate, activationBody, type Caller, type Line, startOwnershipGateway } from './ownership-support.js';

let gateway: TestGateway;
let a: Caller;
let b: Caller;
let admin: Caller;
let aLine: Line;
/** Every line the gateway logged, at debug level. */
const logLines: string[] = [];

const setMode = (mode: string) =>
  gateway.rest('PUT', '/settings/line_ownership', { token: admin.token, body: { value: JSON.stringify(mode) } });

beforeAll(async () => {
  ({ gateway, a, b, admin } = await startOwnershipGateway({
    env: { LOG_LEVEL: 'debug' },
    logger: createLogger('debug', (line) => logLines.push(line)),
  }));
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

/**
 * Puts `sim` on a new line directly at carrier 321, over its own wire as another system would
 * (the gateway never hears of it); answers the new number.
 */
async function activateAtCarrier(sim: string, esim = false): Promise<string> {
  const response = await fetch(`${gateway.sandboxes.urls['321']}/v1/activations`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': DEFAULT_SANDBOX_CREDENTIALS['321'].apiKey,
      'idempotency-key': `DIRECT_${randomBytes(6).toString('hex')}`,
    },
    body: JSON.stringify({
      iccid: sim,
      soc: 'BASIC1GB',
      postal_code: SEED_ADDRESS.zipCode,
      e911: {
        street1: SEED_ADDRESS.address1,
        city: SEED_ADDRESS.city,
        region: SEED_ADDRESS.state,
        postal_code: SEED_ADDRESS.zipCode,
      },
      esim,
      ...(esim ? { contact_email: 'direct@example.com' } : {}),
      voicemail_language: 'en-US',
    }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { msisdn: string }).msisdn;
}

const simDetailsOnGraphQL = (caller: Caller, sim: string) =>
  gateway.graphql(`query ($sim: String!) { simDetails(sim: $sim) { sim iccidStatus puk1 puk2 } }`, {
    token: caller.token,
    variables: { sim },
  });

const esimProfileOnGraphQL = (caller: Caller, sim: string) =>
  gateway.graphql(`query ($sim: String!) { esimProfile(sim: $sim) { sim profileState activationCode matchingId } }`, {
    token: caller.token,
    variables: { sim },
  });

describe('line_ownership "strict": a SIM on a line the gateway never recorded', () => {
  it('refuses its details on both surfaces, with no PUK code in any answer or log line', async () => {
    const sim = freshSim();
    await activateAtCarrier(sim);
    expect(await gateway.app.services.lines.bySim(sim)).toBeNull();
    const { puk1, puk2, iccidStatus } = await gateway.sandboxes.cores['321'].getSimDetails(sim);
    expect(iccidStatus).toBe('INUSE');
    const message = `SIM ${sim} is not on one of your lines`;
    for (const caller of [a, b]) {
      const rest = await gateway.rest('GET', `/sim/details/${sim}`, { token: caller.token });
      expectStrictRestRefusal(rest, message);
      const graphql = await simDetailsOnGraphQL(caller, sim);
      expectStrictGraphQLRefusal(graphql, 'simDetails', message);
      for (const answer of [rest.body, graphql]) {
        expect(JSON.stringify(answer)).not.toContain(puk1);
        expect(JSON.stringify(answer)).not.toContain(puk2);
        expect(JSON.stringify(answer)).not.toContain('INUSE');
      }
    }
    // The refusals were logged (access lines), and nothing of the carrier's answer with them.
    const refusalsLogged = () =>
      logLines.filter((line) => line.includes('"message":"request"') && line.includes('403')).length >= 2;
    expect(await eventually(async () => refusalsLogged(), 5_000)).toBe(true);
    const log = logLines.join('\n');
    expect(log).not.toContain(puk1);
    expect(log).not.toContain(puk2);
  });

  it('refuses its eSIM profile (no activation code), while a stock eSIM’s stays open', async () => {
    const sim = freshSim('8902');
    await activateAtCarrier(sim, true);
    const { activationCode, matchingId } = await gateway.sandboxes.cores['321'].getEsimProfile(sim);
    const message = `SIM ${sim} is not on one of your lines`;
    const rest = await gateway.rest('GET', `/sim/esim/${sim}`, { token: b.token });
    expectStrictRestRefusal(rest, message);
    const graphql = await esimProfileOnGraphQL(b, sim);
    expectStrictGraphQLRefusal(graphql, 'esimProfile', message);
    for (const answer of [rest.body, graphql]) {
      expect(JSON.stringify(answer)).not.toContain(activationCode);
      expect(JSON.stringify(answer)).not.toContain(matchingId);
    }
    expect(logLines.join('\n')).not.toContain(matchingId);

    const stock = await gateway.rest<{ profile_state: string; activation_code: string }>(
      'GET',
      `/sim/esim/${freshSim('8902')}`,
      { token: b.token },
    );
    expect(stock.status).toBe(200);
    expect(stock.body.profile_state).toBe('AVAILABLE');
    expect(stock.body.activation_code).toMatch(/^LPA:/);
  });

  it('refuses the SIM of a line disconnected at the carrier, which is no longer stock', async () => {
    const line = await seedLine(gateway, { register: false });
    await disconnectSeeded(gateway, line);
    expect((await gateway.sandboxes.cores['321'].getSimDetails(line.sim)).iccidStatus).toBe('DEACTIVATED');
    expectStrictRestRefusal(
      await gateway.rest('GET', `/sim/details/${line.sim}`, { token: b.token }),
      `SIM ${line.sim} is not on one of your lines`,
    );
  });

  it('still answers stock SIMs, and the owner’s own SIM with its PUK codes, on both surfaces', async () => {
    const stock = await gateway.rest<{ iccid_status: string; puk1: string | null }>(
      'GET',
      `/sim/details/${freshSim()}`,
      { token: b.token },
    );
    expect(stock.status).toBe(200);
    expect(stock.body.iccid_status).toBe('AVAILABLE');
    expect(stock.body.puk1).toEqual(expect.any(String));

    const own = await gateway.rest<{ iccid_status: string; puk1: string | null }>('GET', `/sim/details/${aLine.sim}`, {
      token: a.token,
    });
    expect(own.status).toBe(200);
    expect(own.body.iccid_status).toBe('INUSE');
    expect(own.body.puk1).toEqual(expect.any(String));
    const onLine = await gateway.graphql<{ line: { simDetails: { iccidStatus: string; puk1: string } } }>(
      `query ($mdn: String!) { line(mdn: $mdn) { simDetails { iccidStatus puk1 } } }`,
      { token: a.token, variables: { mdn: aLine.mdn } },
    );
    expect(onLine.errors).toBeUndefined();
    expect(onLine.data?.line.simDetails).toEqual({ iccidStatus: 'INUSE', puk1: own.body.puk1 });
  });

  it('answers a superuser in full', async () => {
    const sim = freshSim();
    await activateAtCarrier(sim);
    const { puk1 } = await gateway.sandboxes.cores['321'].getSimDetails(sim);
    const answer = await gateway.rest<{ iccid_status: string; puk1: string | null }>('GET', `/sim/details/${sim}`, {
      token: admin.token,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ iccid_status: 'INUSE', puk1 });
    const graphql = await simDetailsOnGraphQL(admin, sim);
    expect(graphql.errors).toBeUndefined();
    expect(graphql.data?.simDetails).toMatchObject({ iccidStatus: 'INUSE', puk1 });
  });

  it('under "enforced" and "off", answers it as before', async () => {
    const sim = freshSim();
    await activateAtCarrier(sim);
    try {
      for (const mode of ['enforced', 'off']) {
        expect((await setMode(mode)).status).toBe(200);
        const answer = await gateway.rest<{ iccid_status: string }>('GET', `/sim/details/${sim}`, { token: b.token });
        expect(answer.status).toBe(200);
        expect(answer.body.iccid_status).toBe('INUSE');
        expect((await simDetailsOnGraphQL(b, sim)).errors).toBeUndefined();
      }
    } finally {
      expect((await setMode('strict')).status).toBe(200);
    }
  });
});
