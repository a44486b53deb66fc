// POST /sim/activate/bulk/ and `activateSims`: sequential per-SIM activation with mixed
// results (HTTP 200), BULK_<sim>_<timestamp> ids, per-SIM plan authorization and
// idempotency, whole-request validation, the batch id, 401, 503 and the 10/hour limit.

import { beforeAll, describe, expect, it } from 'vitest';
import { noData } from '../../support/gateway.js';
import { activationBody } from './activations.js';
import { camelInput } from '../../support/surfaces.js';
import { createPlans } from '../../support/plans.js';
import { freshSim } from '../../support/lines.js';
import { useGateway } from '../../support/use-gateway.js';
import type { RestBulkAnswer as Bulk, RestBulkEntry as Entry } from '../../support/bulk.js';

const BULK_FIELDS = 'results { sim status transactionId mdn message error warning wfcStatus } total processed';

const gateway = useGateway();
beforeAll(async () => {
  await createPlans(gateway);
});

/** A user allowed BASIC, BPLAN (carrier_b), WFC and BAD (invalid at the carrier), not PREMIUM. */
const bulkUser = async (carrier?: '321' | 'carrier_b') =>
  (await gateway.user({ plans: ['BASIC', 'BPLAN', 'WFC', 'BAD'], carrier })).token;

const bulk = (token: string | undefined, body: unknown) =>
  gateway.rest<Bulk>('POST', '/sim/activate/bulk/', { token, body });

describe('mixed results', () => {
  it('activates each SIM in order, reports each failure, and answers 200 with the counts', async () => {
    const token = await bulkUser('321');
    const itemId = `ITEM-${Date.now()}`;
    const items = [
      activationBody(),
      activationBody({ plan_id: 'PREMIUM' }),
      activationBody({ sim: freshSim('8999') }),
      activationBody({ plan_id: 'BPLAN', transaction_id: itemId }),
      activationBody({ plan_id: 'WFC', address1: 'INVALID' }),
      activationBody({ transaction_id: itemId }),
      activationBody({ zip_code: '99999' }),
      activationBody({ plan_id: 'BAD' }),
    ];
    const answer = await bulk(token, { activations: items });
    expect(answer.status).toBe(200);
    expect(answer.body.total).toBe(8);
    expect(answer.body.processed).toBe(3);
    const [ok, unauthorized, foreign, onB, warned, duplicate, uncovered, badPlan] = answer.body.results as [
      Entry,
      Entry,
      Entry,
      Entry,
      Entry,
      Entry,
      Entry,
      Entry,
    ];
    expect(answer.body.results.map((entry) => entry.sim)).toEqual(items.map((item) => item.sim));

    expect(ok).toEqual({
      sim: items[0]!.sim,
      status: 'success',
      transaction_id: expect.any(String),
      mdn: expect.stringMatching(/^321555\d{4}$/),
      message: 'Success',
    });
    expect(ok.transaction_id).toMatch(new RegExp(`^BULK_${String(items[0]!.sim)}_\\d{13}$`));

    const refused = 'Plan PREMIUM is not authorized for this user';
    expect(unauthorized).toEqual({
      sim: items[1]!.sim,
      status: 'failure',
      transaction_id: expect.stringMatching(/^BULK_/),
      message: refused,
      error: [refused],
    });
    expect(foreign).toMatchObject({
      status: 'failure',
      message: 'ESN does not belong to this MVNO (910)',
      error: ['ESN does not belong to this MVNO (910)'],
    });
    expect(foreign).not.toHaveProperty('mdn');

    // The plan's carrier, per SIM, and the item's own transaction id.
    expect(onB).toMatchObject({
      status: 'success',
      transaction_id: itemId,
      mdn: expect.stringMatching(/^646555\d{4}$/),
    });
    expect(warned).toMatchObject({
      status: 'success',
      wfc_status: false,
      warning: expect.stringMatching(/\(GENS-0090\)$/),
    });
    expect(duplicate).toMatchObject({
      status: 'failure',
      transaction_id: itemId,
      message: `Transaction ID ${itemId} already exists`,
    });
    expect(uncovered.message).toMatch(/\(GENS-0289\)$/);
    expect(badPlan.message).toMatch(/\(906\)$/);

    // Each activated line is recorded where it lives: the carrier_b line answers for a 321 user.
    const usage = await gateway.rest('GET', `/sim/usage/${String(onB.mdn)}`, { token });
    expect(usage.status).toBe(200);
    expect(usage.body).toMatchObject({ mdn: onB.mdn, sim: items[3]!.sim });
  });

  it('applies transaction-id idempotency per SIM across requests', async () => {
    const token = await bulkUser();
    const first = await bulk(token, { activations: [activationBody()] });
    const used = first.body.results[0]!.transaction_id;
    const again = await bulk(token, { activations: [activationBody({ transaction_id: used }), activationBody()] });
    expect(again.status).toBe(200);
    expect(again.body.results.map((entry) => entry.status)).toEqual(['failure', 'success']);
    expect(again.body.results[0]!.message).toBe(`Transaction ID ${used} already exists`);
    // The per-SIM ids share the namespace of single activation.
    const single = await gateway.rest('POST', '/sim/activate/', {
      token,
      body: activationBody({ transaction_id: used }),
    });
    expect(single.status).toBe(409);
  });

  it('reports an unreachable carrier as that SIM’s failure and goes on with the rest', async () => {
    const token = await bulkUser('321');
    const faults = `${gateway.sandboxes.urls.carrier_b}/_sandbox/faults`;
    const put = (errorRate: number) =>
      fetch(faults, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ latency_ms: 0, error_rate: errorRate, drop_rate: 0, garbage_rate: 0 }),
      });
    expect((await put(1)).status).toBe(200);
    try {
      const answer = await bulk(token, { activations: [activationBody({ plan_id: 'BPLAN' }), activationBody()] });
      expect(answer.status).toBe(200);
      const [down, ok] = answer.body.results as [Entry, Entry];
      expect(down).toMatchObject({ status: 'failure', error: [down.message] });
      expect(down.message).toMatch(/carrier_b/);
      expect(ok).toMatchObject({ status: 'success', mdn: expect.stringMatching(/^321555/) });
      expect(answer.body.processed).toBe(1);
    } finally {
      await put(0);
    }
  });

  it('answers the same on GraphQL', async () => {
    const token = await bulkUser();
    const items = [activationBody(), activationBody({ plan_id: 'PREMIUM' }), activationBody({ zip_code: '00000' })];
    const answer = await gateway.graphql<{
      activateSims: { results: Record<string, unknown>[]; total: number; processed: number };
    }>(`mutation ($input: ActivateSimsInput!) { activateSims(input: $input) { ${BULK_FIELDS} } }`, {
      token,
      variables: { input: { activations: items.map(camelInput) } },
    });
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.activateSims).toMatchObject({ total: 3, processed: 1 });
    const [ok, unauthorized, badZip] = answer.data!.activateSims.results;
    expect(ok).toMatchObject({
      status: 'SUCCESS',
      sim: items[0]!.sim,
      mdn: expect.stringMatching(/^321555/),
      error: null,
      transactionId: expect.stringMatching(/^BULK_/),
    });
    expect(unauthorized).toMatchObject({
      status: 'FAILURE',
      mdn: null,
      message: 'Plan PREMIUM is not authorized for this user',
      error: ['Plan PREMIUM is not authorized for this user'],
    });
    expect(badZip).toMatchObject({ status: 'FAILURE', message: 'Invalid zip code (510)' });
  });
});

describe('validation of the request (422 for the whole batch, nothing activated)', () => {
  const cases: { name: string; body: () => unknown; loc: (string | number)[]; type: string; msg?: string }[] = [
    { name: 'no activations', body: () => ({}), loc: ['body', 'activations'], type: 'missing' },
    {
      name: 'activations not an array',
      body: () => ({ activations: 'x' }),
      loc: ['body', 'activations'],
      type: 'array_type',
    },
    {
      name: 'empty activations',
      body: () => ({ activations: [] }),
      loc: ['body', 'activations'],
      type: 'value_error',
      msg: 'activations must contain at least one activation',
    },
    {
      name: 'more than 100 activations',
      body: () => ({ activations: Array.from({ length: 101 }, () => activationBody()) }),
      loc: ['body', 'activations'],
      type: 'value_error',
      msg: 'activations must contain at most 100 activations',
    },
    {
      name: 'an item with a bad state',
      body: () => ({ activations: [activationBody(), activationBody({ state: 'ga' })] }),
      loc: ['body', 'activations', 1, 'state'],
      type: 'value_error',
      msg: 'state must be a 2-letter US state code',
    },
    {
      name: 'an item without sim',
      body: () => ({ activations: [activationBody({ sim: undefined })] }),
      loc: ['body', 'activations', 0, 'sim'],
      type: 'missing',
    },
    {
      name: 'an item with a bad ZIP',
      body: () => ({ activations: [activationBody({ zip_code: '123' })] }),
      loc: ['body', 'activations', 0, 'zip_code'],
      type: 'value_error',
    },
    {
      name: 'an eSIM item without email',
      body: () => ({ activations: [activationBody({ is_esim: 'Y' })] }),
      loc: ['body', 'activations', 0, 'email'],
      type: 'value_error',
      msg: 'email is required when is_esim is Y',
    },
    {
      name: 'an empty batch transaction_id',
      body: () => ({ activations: [activationBody()], transaction_id: '' }),
      loc: ['body', 'transaction_id'],
      type: 'value_error',
    },
  ];

  it.each(cases)('$name → 422 at $loc', async ({ body, loc, type, msg }) => {
    const token = await bulkUser();
    const sent = body();
    const answer = await gateway.rest<{ detail: Record<string, unknown>[] }>('POST', '/sim/activate/bulk/', {
      token,
      body: sent,
    });
    expect(answer.status).toBe(422);
    expect(answer.body.detail).toHaveLength(1);
    expect(answer.body.detail[0]).toMatchObject({ loc, type, ...(msg ? { msg } : {}) });
    const first = (sent as { activations?: { sim?: unknown }[] }).activations?.[0]?.sim;
    if (typeof first === 'string')
      expect(await gateway.sandboxes.cores['321'].getSimDetails(first)).toMatchObject({ iccidStatus: 'AVAILABLE' });
  });

  it('gives BAD_USER_INPUT with the item’s path on GraphQL', async () => {
    const token = await bulkUser();
    const answer = await gateway.graphql(
      `mutation ($input: ActivateSimsInput!) { activateSims(input: $input) { total } }`,
      {
        token,
        variables: {
          input: { activations: [camelInput(activationBody()), camelInput(activationBody({ state: 'ga' }))] },
        },
      },
    );
    expect(noData(answer)).toBe(true);
    expect(answer.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      issues: [{ loc: ['input', 'activations', 1, 'state'], type: 'value_error' }],
    });
  });
});

describe('the batch transaction id', () => {
  it('is unique: a repeated batch id answers 409 and activates nothing', async () => {
    const token = await bulkUser();
    const batchId = `BATCH-${Date.now()}`;
    expect((await bulk(token, { activations: [activationBody()], transaction_id: batchId })).status).toBe(200);
    const item = activationBody();
    const again = await bulk(token, { activations: [item], transaction_id: batchId });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      status: 'failure',
      message: `Transaction ID ${batchId} already exists`,
      code: 'HTTP_409',
    });
    expect(await gateway.sandboxes.cores['321'].getSimDetails(String(item.sim))).toMatchObject({
      iccidStatus: 'AVAILABLE',
    });
  });
});

describe('access, maintenance and the rate limit', () => {
  it('answers 401 without a token', async () => {
    const answer = await bulk(undefined, { activations: [activationBody()] });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ detail: 'Not authenticated' });
  });

  it('answers 503 to the whole batch in maintenance mode', async () => {
    const { token: admin } = await gateway.user({ superuser: true });
    const token = await bulkUser();
    expect(
      (await gateway.rest('PUT', '/settings/maintenance_mode', { token: admin, body: { value: 'true' } })).status,
    ).toBe(200);
    try {
      const answer = await bulk(token, { activations: [activationBody()] });
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ status: 'failure', code: 'HTTP_503' });
    } finally {
      await gateway.rest('PUT', '/settings/maintenance_mode', { token: admin, body: { value: 'false' } });
    }
  });

  it('allows 10 requests an hour per user, shared by REST and GraphQL', async () => {
    const token = await bulkUser();
    // Unauthorized-plan entries: counted requests that never reach a carrier.
    const body = { activations: [activationBody({ plan_id: 'PREMIUM' })] };
    for (let i = 0; i < 5; i++) expect((await bulk(token, body)).status).toBe(200);
    for (let i = 0; i < 5; i++) {
      const graphql = await gateway.graphql(
        `mutation ($input: ActivateSimsInput!) { activateSims(input: $input) { total } }`,
        {
          token,
          variables: { input: { activations: body.activations.map(camelInput) } },
        },
      );
      expect(graphql.errors).toBeUndefined();
    }
    const limited = await bulk(token, body);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      status: 'failure',
      message: 'Rate limit exceeded: 10 per 1 hour',
      code: 'HTTP_429',
    });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const graphql = await gateway.graphql(
      `mutation ($input: ActivateSimsInput!) { activateSims(input: $input) { total } }`,
      {
        token,
        variables: { input: { activations: body.activations.map(camelInput) } },
      },
    );
    expect(graphql.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
  });
});
