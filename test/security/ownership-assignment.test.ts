// Who owns a line: activation (single and bulk) gives it to the caller, `me` lists it, and a
// superuser's `assignLineOwner` gives a line to someone, to nobody, or learns a line the
// gateway never saw from the carriers; ordinary users may not assign.

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshSim, seedLine } from '../support/lines.js';
import type { TestGateway } from '../support/gateway.js';
import {
  activate,
  activationBody,
  expectRestRefusal,
  startOwnershipGateway,
  type Caller,
} from './ownership-support.js';

let gateway: TestGateway;
let a: Caller;
let b: Caller;
let admin: Caller;

beforeAll(async () => {
  ({ gateway, a, b, admin } = await startOwnershipGateway());
});
afterAll(() => gateway.close());

const registry = async (mdn: string) => (await gateway.app.services.lines.byMdns([mdn])).get(mdn);
const usage = (caller: Caller, mdn: string) => gateway.rest('GET', `/sim/usage/${mdn}`, { token: caller.token });

const ASSIGN =
  'mutation ($input: AssignLineOwnerInput!) { assignLineOwner(input: $input) { mdn sim carrier subscriberStatus owner } }';
const assign = (input: Record<string, unknown>, caller = admin) =>
  gateway.graphql<{ assignLineOwner: Record<string, unknown> | null }>(ASSIGN, {
    token: caller.token,
    variables: { input },
  });

describe('activation gives the line to the caller', () => {
  it('bulk activation assigns each created line to the caller', async () => {
    const answer = await gateway.rest<{ results: { status: string; mdn: string }[] }>('POST', '/sim/activate/bulk/', {
      token: b.token,
      body: { activations: [activationBody(), activationBody()] },
    });
    expect(answer.status).toBe(200);
    const mdns = answer.body.results.map((entry) => entry.mdn);
    expect(answer.body.results.map((entry) => entry.status)).toEqual(['success', 'success']);
    for (const mdn of mdns) {
      expect((await registry(mdn))?.ownerId).toBe(b.user.id);
      expectRestRefusal(await usage(a, mdn), b.user);
    }
  });

  it('bulk activation refuses a SIM on another user’s line for that SIM alone, looking the SIMs up once', async () => {
    const aLine = await activate(gateway, a);
    const sims = Array.from({ length: 20 }, (_, index) => (index === 18 ? aLine.sim : freshSim()));
    const lookups = vi.spyOn(gateway.app.services.lines, 'bySims');
    const answer = await gateway.rest<{ results: { status: string; message: string; mdn?: string }[] }>(
      'POST',
      '/sim/activate/bulk/',
      // More SIMs than a job has in flight (16), A's among the later ones.
      { token: b.token, body: { activations: sims.map((sim) => activationBody(sim)) } },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.results.map((entry) => entry.status)).toEqual(
      sims.map((sim) => (sim === aLine.sim ? 'failure' : 'success')),
    );
    expect(answer.body.results[18]!.message).toMatch(/belongs to another user$/);
    expect(JSON.stringify(answer.body)).not.toContain(a.user.name);
    // One lookup for the job's SIMs, not one per SIM or per wave of SIMs.
    expect(lookups).toHaveBeenCalledTimes(1);
    lookups.mockRestore();
    expect(await registry(aLine.mdn)).toMatchObject({ sim: aLine.sim, ownerId: a.user.id, status: 'ACTIVE' });
  });

  it('`me` answers each of its listings alone, and the same when several are selected at once', async () => {
    await activate(gateway, a);
    const ask = <T>(query: string) => gateway.graphql<T>(query, { token: a.token });
    const alone = {
      name: await ask<{ me: { name: string } }>('{ me { name } }'),
      count: await ask<{ me: { lineCount: number } }>('{ me { lineCount } }'),
      lines: await ask<{ me: { lines: { mdn: string }[] } }>('{ me { lines { mdn } } }'),
      plans: await ask<{ me: { authorizedPlans: { planId: string }[] } }>('{ me { authorizedPlans { planId } } }'),
    };
    for (const answer of Object.values(alone)) expect(answer.errors).toBeUndefined();
    const together = await ask<{
      x: { lineCount: number; lines: { mdn: string }[] };
      y: { lineCount: number; authorizedPlans: { planId: string }[] };
    }>('{ x: me { lineCount lines { mdn } } y: me { lineCount authorizedPlans { planId } } }');
    expect(together.errors).toBeUndefined();
    expect(alone.count.data!.me.lineCount).toBeGreaterThan(0);
    expect(together.data!.x).toEqual({ lineCount: alone.count.data!.me.lineCount, lines: alone.lines.data!.me.lines });
    expect(together.data!.y).toEqual({
      lineCount: alone.count.data!.me.lineCount,
      authorizedPlans: alone.plans.data!.me.authorizedPlans,
    });
  });

  it('`me` lists the caller’s lines by MDN, with their count, and no one else’s', async () => {
    const mine = [await activate(gateway, a), await activate(gateway, a)];
    const answer = await gateway.graphql<{
      me: { lines: { mdn: string; carrier: string; subscriberStatus: string }[]; lineCount: number };
    }>('{ me { lines { mdn carrier subscriberStatus } lineCount } }', {
      token: a.token,
    });
    expect(answer.errors).toBeUndefined();
    const { lines, lineCount } = answer.data!.me;
    expect(lineCount).toBe(lines.length);
    expect(lines.map((line) => line.mdn)).toEqual([...lines.map((line) => line.mdn)].sort());
    expect(lines).toEqual(
      expect.arrayContaining(mine.map(({ mdn }) => ({ mdn, carrier: 'CARRIER_321', subscriberStatus: 'ACTIVE' }))),
    );
    for (const line of lines) expect((await registry(line.mdn))?.ownerId).toBe(a.user.id);
  });
});

describe('assignLineOwner', () => {
  it('gives a line the gateway never saw to a user, after asking the carriers; then reassigns and clears it', async () => {
    const line = await seedLine(gateway, { register: false });
    expect(await registry(line.mdn)).toBeUndefined();
    const given = await assign({ mdn: line.mdn, user: b.user.name });
    expect(given.errors).toBeUndefined();
    expect(given.data?.assignLineOwner).toEqual({
      mdn: line.mdn,
      sim: line.sim,
      carrier: 'CARRIER_321',
      subscriberStatus: 'ACTIVE',
      owner: b.user.name,
    });
    expect(await registry(line.mdn)).toMatchObject({ sim: line.sim, carrier: '321', ownerId: b.user.id });
    expect((await usage(b, line.mdn)).status).toBe(200);
    expectRestRefusal(await usage(a, line.mdn), b.user);

    expect((await assign({ mdn: line.mdn, user: a.user.name })).data?.assignLineOwner).toMatchObject({
      owner: a.user.name,
    });
    expect((await usage(a, line.mdn)).status).toBe(200);
    expectRestRefusal(await usage(b, line.mdn), a.user);

    // An explicit null, as a client clearing the owner would send it (absent means the same).
    const cleared = await assign({ mdn: line.mdn, user: null });
    expect(cleared.errors).toBeUndefined();
    expect(cleared.data?.assignLineOwner).toMatchObject({ owner: null });
    expect((await usage(a, line.mdn)).status).toBe(200);
    expect((await usage(b, line.mdn)).status).toBe(200);
  });

  it('takes a line activated through the gateway from its owner', async () => {
    const line = await activate(gateway, a);
    expect((await assign({ mdn: line.mdn, user: b.user.name })).data?.assignLineOwner).toMatchObject({
      owner: b.user.name,
      sim: line.sim,
    });
    expectRestRefusal(await usage(a, line.mdn), b.user);
  });

  it('finds a line on carrier_b by asking every enabled carrier, or only the one named', async () => {
    const [asked, named] = [
      await seedLine(gateway, { carrier: 'carrier_b', register: false }),
      await seedLine(gateway, { carrier: 'carrier_b', register: false }),
    ];
    expect((await assign({ mdn: asked.mdn, user: a.user.name })).data?.assignLineOwner).toMatchObject({
      carrier: 'CARRIER_B',
      sim: asked.sim,
      owner: a.user.name,
    });
    expect(
      (await assign({ mdn: named.mdn, user: a.user.name, carrier: 'CARRIER_B' })).data?.assignLineOwner,
    ).toMatchObject({ carrier: 'CARRIER_B' });
    // Named wrong: the line is not on 321, and 321 alone was asked.
    const wrong = await seedLine(gateway, { carrier: 'carrier_b', register: false });
    const refused = await assign({ mdn: wrong.mdn, user: a.user.name, carrier: 'CARRIER_321' });
    expect(refused.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(await registry(wrong.mdn)).toBeUndefined();
  });

  it('refuses an MDN no carrier knows (NOT_FOUND), an unknown user, and a carrier contradicting a known line; nothing recorded', async () => {
    const unknown = await assign({ mdn: '5550001234', user: a.user.name });
    expect(unknown.data?.assignLineOwner ?? null).toBeNull();
    expect(unknown.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(unknown.errors?.[0]?.message).toBe('Line 5550001234 is not known to any enabled carrier');
    expect(await registry('5550001234')).toBeUndefined();

    const line = await activate(gateway, a);
    const noUser = await assign({ mdn: line.mdn, user: 'nobody-by-that-name' });
    expect(noUser.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    const contradicted = await assign({ mdn: line.mdn, user: b.user.name, carrier: 'CARRIER_B' });
    expect(contradicted.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      status: 422,
      issues: [
        { type: 'value_error', loc: ['input', 'carrier'], msg: expect.stringContaining('is known on carrier 321') },
      ],
    });
    expect((await registry(line.mdn))?.ownerId).toBe(a.user.id);
  });

  it('is superuser only: an ordinary user is FORBIDDEN, even for their own line', async () => {
    const line = await activate(gateway, a);
    const answer = await assign({ mdn: line.mdn, user: b.user.name }, a);
    expect(answer.data?.assignLineOwner ?? null).toBeNull();
    expect(answer.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await registry(line.mdn))?.ownerId).toBe(a.user.id);
  });

  it('validates its input: a malformed MDN or user name is BAD_USER_INPUT', async () => {
    for (const input of [
      { mdn: '12', user: a.user.name },
      { mdn: '5550001234', user: 'x'.repeat(65) },
      { mdn: `1${'0'.repeat(5000)}` },
    ]) {
      const answer = await assign(input);
      expect(answer.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
  });
});
