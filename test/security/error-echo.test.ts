// Refusals that echo caller input keep it short: `quote` by itself, then the 403 (plan), 404
// (setting key, transaction) and 422 answers of the real gateway to the longest values.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quote, QUOTE_MAX } from '../../src/lib/quote.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { activationBody } from '../e2e/activation/activations.js';

describe('quote', () => {
  it('keeps short values as they are', () => {
    expect(quote('PLAN-1')).toBe('PLAN-1');
    expect(quote('x'.repeat(QUOTE_MAX))).toBe('x'.repeat(QUOTE_MAX));
  });

  it('keeps the first 64 characters of a longer value and marks the cut', () => {
    expect(quote('x'.repeat(100_000))).toBe(`${'x'.repeat(64)}…`);
    expect(quote('abcdef', 3)).toBe('abc…');
  });

  it('never cuts a surrogate pair in two', () => {
    const cut = quote(`${'x'.repeat(63)}😀tail`);
    expect(cut).toBe(`${'x'.repeat(63)}…`);
    expect(/[\ud800-\udbff]…$/.test(cut)).toBe(false);
  });
});

describe('answers that echo input', () => {
  let gateway: TestGateway;
  let token: string;
  let admin: string;

  beforeAll(async () => {
    gateway = await startGateway();
    ({ token } = await gateway.user());
    ({ token: admin } = await gateway.user({ superuser: true }));
  });
  afterAll(() => gateway.close());

  const size = (body: unknown) => Buffer.byteLength(JSON.stringify(body));

  it('refuses a 100 KB plan id with a 422 that does not carry it', async () => {
    const answer = await gateway.rest('POST', '/sim/activate/', {
      token,
      body: activationBody({ plan_id: 'P'.repeat(100_000) }),
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({
      detail: [{ type: 'value_error', loc: ['body', 'plan_id'], msg: 'plan_id must be at most 64 characters' }],
    });
  });

  it('answers 403 to the longest accepted plan id in under 1 KB', async () => {
    const planId = 'P'.repeat(64);
    const answer = await gateway.rest('POST', '/sim/activate/', { token, body: activationBody({ plan_id: planId }) });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({
      status: 'failure',
      message: `Plan ${planId} is not authorized for this user`,
      code: 'HTTP_403',
    });
    expect(size(answer.body)).toBeLessThan(1024);
  });

  it('answers 404 to the longest accepted setting key in under 1 KB, on both surfaces', async () => {
    const key = 'k'.repeat(64);
    const rest = await gateway.rest('GET', `/settings/${key}`, { token: admin });
    expect(rest.status).toBe(404);
    expect(rest.body).toEqual({ detail: `Setting ${key} not found` });
    const graphql = await gateway.graphql(`query ($key: String!) { setting(key: $key) { key } }`, {
      token: admin,
      variables: { key },
    });
    expect(graphql.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(size(graphql.errors)).toBeLessThan(1024);
  });

  it('does not echo a transaction id too long to exist (422, the rule alone)', async () => {
    const id = 'T'.repeat(100_000);
    const answer = await gateway.graphql(`query ($id: String!) { transaction(id: $id) { id } }`, {
      token,
      variables: { id },
    });
    expect(answer.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(answer.errors)).not.toContain('T'.repeat(65));
  });
});
