// POST /sim/activate/ and `activateSim` over real HTTP against the sandbox carriers:
// success, validation, authorization, every reachable carrier code, the WFC warning variant,
// per-plan carrier resolution and the line registry.

import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { noData, statusesOf } from '../../support/gateway.js';
import { activateOnGraphQL, activationBody } from './activations.js';
import { ALL_PLANS, createPlans } from '../../support/plans.js';
import { freshSim } from '../../support/lines.js';
import { useGateway } from '../../support/use-gateway.js';

let token: string;

const gateway = useGateway();
beforeAll(async () => {
  await createPlans(gateway);
});
// A fresh user per test: activation allows 30 calls a minute per user.
beforeEach(async () => {
  ({ token } = await gateway.user({ plans: ALL_PLANS }));
});

describe('success', () => {
  it('activates on REST with the spec body and a generated ACT_ transaction id', async () => {
    const body = activationBody();
    const answer = await gateway.rest('POST', '/sim/activate/', { token, body });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 'success',
      mdn: expect.stringMatching(/^321555\d{4}$/),
      sim: body.sim,
      customer_id: expect.stringMatching(/^CUST\d+$/),
      transaction_id: expect.stringMatching(/^ACT_[0-9A-F]{12}$/),
      message: 'Success',
    });
    const usage = await gateway.rest('GET', `/sim/usage/${String(answer.body.mdn)}`, { token });
    expect(usage.body).toMatchObject({ status: 'ACTIVE', sim: body.sim, plan_name: 'Basic 1GB' });
  });

  it('activates on GraphQL with the same outcome', async () => {
    const body = activationBody({ transaction_id: `GQL-ACT-${Date.now()}` });
    const answer = await activateOnGraphQL(gateway, token, body);
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.activateSim).toEqual({
      status: 'SUCCESS',
      mdn: expect.stringMatching(/^321555\d{4}$/),
      sim: body.sim,
      customerId: expect.stringMatching(/^CUST\d+$/),
      transactionId: body.transaction_id,
      message: 'Success',
      warning: null,
      wfcStatus: null,
    });
  });

  it('accepts ZIP+4, every optional field and an eSIM with an email', async () => {
    const body = activationBody({
      sim: freshSim('8902'),
      zip_code: '30301-1234',
      address2: 'Apt 4',
      is_esim: 'Y',
      email: 'pat@example.com',
      billing_code: 'BC999',
      language: 'SPAN',
    });
    const answer = await gateway.rest('POST', '/sim/activate/', { token, body });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'success', sim: body.sim });
  });

  it('reads null for an optional field as absent, as the original service did (REST)', async () => {
    const body = activationBody({
      address2: null,
      email: null,
      billing_code: null,
      is_esim: null,
      transaction_id: null,
    });
    const answer = await gateway.rest('POST', '/sim/activate/', { token, body });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      status: 'success',
      sim: body.sim,
      transaction_id: expect.stringMatching(/^ACT_/),
    });
    // A required field is still required.
    const missing = await gateway.rest('POST', '/sim/activate/', { token, body: activationBody({ zip_code: null }) });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({
      detail: [{ type: 'string_type', loc: ['body', 'zip_code'], msg: 'Input should be a valid string' }],
    });
  });

  it('answers 409 to a repeated transaction id on either surface, and activates nothing more', async () => {
    const id = `ACT-DUP-${Date.now()}`;
    const first = await gateway.rest('POST', '/sim/activate/', { token, body: activationBody({ transaction_id: id }) });
    expect(first.status).toBe(200);
    const again = await gateway.rest('POST', '/sim/activate/', { token, body: activationBody({ transaction_id: id }) });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ status: 'failure', message: `Transaction ID ${id} already exists`, code: 'HTTP_409' });
    const graphql = await activateOnGraphQL(gateway, token, activationBody({ transaction_id: id }));
    expect(graphql.errors?.[0]?.extensions?.code).toBe('DUPLICATE_TRANSACTION');
  });
});

describe('validation (422, nothing activated)', () => {
  const cases: {
    name: string;
    change: Record<string, unknown>;
    loc: (string | number)[];
    type: string;
    msg?: string;
  }[] = [
    { name: 'missing sim', change: { sim: undefined }, loc: ['body', 'sim'], type: 'missing' },
    {
      name: 'short sim',
      change: { sim: '890100000000000001' },
      loc: ['body', 'sim'],
      type: 'value_error',
      msg: 'sim must be a 19 or 20 digit ICCID',
    },
    { name: 'long sim', change: { sim: '890100000000000000012' }, loc: ['body', 'sim'], type: 'value_error' },
    { name: 'letters in sim', change: { sim: '8901000000000000000A' }, loc: ['body', 'sim'], type: 'value_error' },
    { name: 'missing plan_id', change: { plan_id: undefined }, loc: ['body', 'plan_id'], type: 'missing' },
    { name: 'empty plan_id', change: { plan_id: ' ' }, loc: ['body', 'plan_id'], type: 'value_error' },
    { name: 'missing zip_code', change: { zip_code: undefined }, loc: ['body', 'zip_code'], type: 'missing' },
    {
      name: '4-digit zip_code',
      change: { zip_code: '3030' },
      loc: ['body', 'zip_code'],
      type: 'value_error',
      msg: 'zip_code must be 5 digits or ZIP+4 (NNNNN-NNNN)',
    },
    { name: 'bad ZIP+4', change: { zip_code: '30301-12' }, loc: ['body', 'zip_code'], type: 'value_error' },
    { name: 'missing address1', change: { address1: undefined }, loc: ['body', 'address1'], type: 'missing' },
    { name: 'missing city', change: { city: undefined }, loc: ['body', 'city'], type: 'missing' },
    { name: 'missing state', change: { state: undefined }, loc: ['body', 'state'], type: 'missing' },
    {
      name: 'lower-case state',
      change: { state: 'ga' },
      loc: ['body', 'state'],
      type: 'value_error',
      msg: 'state must be a 2-letter US state code',
    },
    {
      name: 'two letters that are no US state code',
      change: { state: 'ZZ' },
      loc: ['body', 'state'],
      type: 'value_error',
      msg: 'state must be a 2-letter US state code',
    },
    {
      name: '3-letter state',
      change: { state: 'GAA' },
      loc: ['body', 'state'],
      type: 'value_error',
      msg: 'state must be a 2-letter US state code',
    },
    {
      name: 'is_esim not Y/N',
      change: { is_esim: 'yes' },
      loc: ['body', 'is_esim'],
      type: 'value_error',
      msg: 'is_esim must be Y or N',
    },
    {
      name: 'eSIM without email',
      change: { sim: freshSim('8902'), is_esim: 'Y' },
      loc: ['body', 'email'],
      type: 'value_error',
      msg: 'email is required when is_esim is Y',
    },
    { name: 'malformed email', change: { email: 'not-an-email' }, loc: ['body', 'email'], type: 'value_error' },
    {
      name: 'language not ENGL/SPAN',
      change: { language: 'FREN' },
      loc: ['body', 'language'],
      type: 'value_error',
      msg: 'language must be ENGL or SPAN',
    },
    { name: 'empty billing_code', change: { billing_code: '' }, loc: ['body', 'billing_code'], type: 'value_error' },
    {
      name: 'empty transaction_id',
      change: { transaction_id: '' },
      loc: ['body', 'transaction_id'],
      type: 'value_error',
    },
  ];

  it.each(cases)('$name → 422 at $loc', async ({ change, loc, type, msg }) => {
    const body = activationBody(change);
    const answer = await gateway.rest<{ detail: { loc: unknown[]; type: string; msg: string }[] }>(
      'POST',
      '/sim/activate/',
      { token, body },
    );
    expect(answer.status).toBe(422);
    expect(answer.body.detail).toHaveLength(1);
    expect(answer.body.detail[0]).toMatchObject({ loc, type, ...(msg ? { msg } : {}) });
    // Nothing reached the carrier: a well-formed SIM is still available.
    if (typeof body.sim === 'string' && /^890[12]\d{16}$/.test(body.sim)) {
      expect(await gateway.sandboxes.cores['321'].getSimDetails(body.sim)).toMatchObject({ iccidStatus: 'AVAILABLE' });
    }
  });

  it('gives BAD_USER_INPUT with the same rule on GraphQL', async () => {
    const answer = await activateOnGraphQL(gateway, token, activationBody({ state: 'ga' }));
    expect(noData(answer)).toBe(true);
    expect(answer.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      issues: [{ type: 'value_error', loc: ['input', 'state'], msg: 'state must be a 2-letter US state code' }],
    });
    const esim = await activateOnGraphQL(gateway, token, activationBody({ is_esim: 'Y' }));
    expect(esim.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      issues: [{ loc: ['input', 'email'] }],
    });
  });
});

describe('access', () => {
  it('answers 401 without a token on both surfaces', async () => {
    const rest = await gateway.rest('POST', '/sim/activate/', { body: activationBody() });
    expect(rest.status).toBe(401);
    expect(rest.body).toEqual({ detail: 'Not authenticated' });
    const graphql = await activateOnGraphQL(gateway, '', activationBody());
    expect(graphql.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('answers 403 with the spec body to an unauthorized plan, and PLAN_NOT_AUTHORIZED on GraphQL', async () => {
    const { token: basicOnly } = await gateway.user({ plans: ['BASIC'] });
    const rest = await gateway.rest('POST', '/sim/activate/', {
      token: basicOnly,
      body: activationBody({ plan_id: 'PREMIUM' }),
    });
    expect(rest.status).toBe(403);
    expect(rest.body).toEqual({
      status: 'failure',
      message: 'Plan PREMIUM is not authorized for this user',
      code: 'HTTP_403',
    });
    const unknown = await gateway.rest('POST', '/sim/activate/', {
      token: basicOnly,
      body: activationBody({ plan_id: 'NOPE' }),
    });
    expect(unknown.status).toBe(403);
    const graphql = await activateOnGraphQL(gateway, basicOnly, activationBody({ plan_id: 'PREMIUM' }));
    expect(statusesOf(graphql)).toEqual({ http: 200, rest: 403 });
    expect(graphql.errors?.[0]).toMatchObject({
      message: 'Plan PREMIUM is not authorized for this user',
      extensions: { code: 'PLAN_NOT_AUTHORIZED' },
    });
  });
});

describe('carrier refusals (400, failure body with the SIM)', () => {
  const codes: { code: string; change: () => Record<string, unknown> }[] = [
    { code: '910', change: () => ({ sim: freshSim('8999') }) },
    { code: 'GENS-0006', change: () => ({ sim: freshSim('8903') }) },
    { code: 'GENS-0006', change: () => ({ sim: '1234567890123456789' }) },
    { code: '8011', change: () => ({ sim: freshSim('89029'), is_esim: 'Y', email: 'pat@example.com' }) },
    { code: 'GENS-0030', change: () => ({ is_esim: 'Y', email: 'pat@example.com' }) },
    { code: '510', change: () => ({ zip_code: '00000' }) },
    { code: 'GENS-0289', change: () => ({ zip_code: '99999' }) },
    { code: 'GENS-0289', change: () => ({ zip_code: '99999-0001' }) },
    { code: '906', change: () => ({ plan_id: 'BAD' }) },
  ];

  it.each(codes)('($code) on REST and GraphQL', async ({ code, change }) => {
    const body = activationBody(change());
    const rest = await gateway.rest('POST', '/sim/activate/', { token, body });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({
      status: 'failure',
      sim: body.sim,
      transaction_id: expect.stringMatching(/^ACT_[0-9A-F]{12}$/),
      message: expect.stringMatching(new RegExp(`\\(${code}\\)$`)),
    });
    const graphql = await activateOnGraphQL(gateway, token, activationBody(change()));
    expect(graphql.errors).toBeUndefined();
    expect(graphql.data?.activateSim).toMatchObject({
      status: 'FAILURE',
      mdn: null,
      message: expect.stringMatching(new RegExp(`\\(${code}\\)$`)),
    });
  });

  it('(914) when the SIM already serves a line', async () => {
    const body = activationBody();
    expect((await gateway.rest('POST', '/sim/activate/', { token, body })).status).toBe(200);
    const again = await gateway.rest('POST', '/sim/activate/', { token, body });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({
      status: 'failure',
      sim: body.sim,
      message: 'ESN already active with another MDN (914)',
    });
  });
});

describe('Wi-Fi Calling plans', () => {
  it('activates with WFC on a valid E911 address', async () => {
    const answer = await gateway.rest('POST', '/sim/activate/', { token, body: activationBody({ plan_id: 'WFC' }) });
    expect(answer.status).toBe(200);
    expect(answer.body).not.toHaveProperty('warning');
    const profile = await gateway.sandboxes.cores['321'].getServiceProfile(String(answer.body.mdn));
    expect(profile.e911Address).toMatchObject({ address1: '1 Main St', city: 'Atlanta', state: 'GA' });
  });

  it('answers the warning variant (HTTP 200, wfc_status false) on an invalid E911 address (GENS-0090)', async () => {
    const body = activationBody({ plan_id: 'WFC', address1: '1 Invalid Road' });
    const rest = await gateway.rest('POST', '/sim/activate/', { token, body });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({
      status: 'success',
      sim: body.sim,
      mdn: expect.stringMatching(/^\d{10}$/),
      customer_id: expect.any(String),
      wfc_status: false,
    });
    expect(String(rest.body.warning)).toMatch(/\(GENS-0090\)$/);
    const graphql = await activateOnGraphQL(gateway, token, activationBody({ plan_id: 'WFC', address1: 'INVALID' }));
    expect(graphql.data?.activateSim).toMatchObject({
      status: 'SUCCESS',
      wfcStatus: false,
      warning: expect.stringMatching(/GENS-0090/),
    });
  });

  it('does not ask for WFC on a plan that is not a WFC plan, whatever the address', async () => {
    const answer = await gateway.rest('POST', '/sim/activate/', {
      token,
      body: activationBody({ address1: 'INVALID' }),
    });
    expect(answer.status).toBe(200);
    expect(answer.body).not.toHaveProperty('warning');
    expect(answer.body).not.toHaveProperty('wfc_status');
  });
});

describe('per-plan carrier resolution and the line registry', () => {
  it('uses the plan’s carrier first: a carrier_b plan activates on carrier_b, even against the user’s preference', async () => {
    const { token: prefers321 } = await gateway.user({ plans: ['BPLAN'], carrier: '321' });
    const answer = await gateway.rest('POST', '/sim/activate/', {
      token: prefers321,
      body: activationBody({ plan_id: 'BPLAN' }),
    });
    expect(answer.status).toBe(200);
    expect(answer.body.mdn).toMatch(/^646555\d{4}$/);
    // Recorded: the line's later operations reach carrier_b although this user prefers 321.
    const usage = await gateway.rest('GET', `/sim/usage/${String(answer.body.mdn)}`, { token: prefers321 });
    expect(usage.status).toBe(200);
    expect(usage.body).toMatchObject({ mdn: answer.body.mdn, status: 'ACTIVE' });
    const suspend = await gateway.rest('POST', '/sim/suspend/', { token: prefers321, body: { mdn: answer.body.mdn } });
    expect(suspend.status).toBe(200);
  });

  it('then the user’s carrier preference', async () => {
    const { token: prefersB } = await gateway.user({ plans: ['BASIC', 'A321'], carrier: 'carrier_b' });
    const onB = await gateway.rest('POST', '/sim/activate/', { token: prefersB, body: activationBody() });
    expect(onB.body.mdn).toMatch(/^646555\d{4}$/);
    const plan321 = await gateway.rest('POST', '/sim/activate/', {
      token: prefersB,
      body: activationBody({ plan_id: 'A321' }),
    });
    expect(plan321.body.mdn).toMatch(/^321555\d{4}$/);
  });

  it('then the default_carrier setting', async () => {
    const { token: admin } = await gateway.user({ superuser: true });
    const onDefault = await gateway.rest('POST', '/sim/activate/', { token, body: activationBody() });
    expect(onDefault.body.mdn).toMatch(/^321555\d{4}$/);
    const set = await gateway.rest('PUT', '/settings/default_carrier', {
      token: admin,
      body: { value: '"carrier_b"' },
    });
    expect(set.status).toBe(200);
    try {
      const onB = await gateway.rest('POST', '/sim/activate/', { token, body: activationBody() });
      expect(onB.body.mdn).toMatch(/^646555\d{4}$/);
      const graphql = await activateOnGraphQL(gateway, token, activationBody());
      expect(graphql.data?.activateSim.mdn).toMatch(/^646555\d{4}$/);
    } finally {
      await gateway.rest('PUT', '/settings/default_carrier', { token: admin, body: { value: '"321"' } });
    }
  });
});
