// The shared pipeline over real HTTP: one query, one mutation and one plan-bearing mutation
// on REST and GraphQL against the sandbox carriers; generated ids, 409, 429; mutations at the
// same time (also on PostgreSQL, skipped with a printed reason where none answers).

import { beforeAll, describe, expect, it } from 'vitest';
import { startGateway, statusesOf, type TestGateway } from '../support/gateway.js';
import { freshSim } from '../support/lines.js';
import { postgresAvailable } from '../support/postgres.js';
import { useGateway } from '../support/use-gateway.js';

let token: string;

async function activeLine(on: TestGateway = gateway): Promise<{ mdn: string; sim: string }> {
  const sim = freshSim();
  const result = await on.sandboxes.cores['321'].activate({
    sim,
    carrierPlanId: 'SOC-BASIC',
    zipCode: '30301',
    address: { address1: '1 Main St', city: 'Atlanta', state: 'GA', zipCode: '30301' },
    isEsim: false,
    language: 'ENGL',
    transactionId: `SEED_${sim}`,
  });
  return { mdn: result.mdn, sim };
}

const gateway = useGateway();
beforeAll(async () => {
  ({ token } = await gateway.user({ plans: ['BASIC', 'PREMIUM'] }));
});

describe('a query through both surfaces', () => {
  it('answers the usage record on REST and the same on GraphQL', async () => {
    const line = await activeLine();
    const rest = await gateway.rest('GET', `/sim/usage/${line.mdn}`, { token });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ mdn: line.mdn, sim: line.sim, status: 'ACTIVE' });
    expect(rest.body).toHaveProperty('balance_details.talk');
    const graphql = await gateway.graphql<{ usage: Record<string, unknown> }>(
      `query ($mdn: String!) { usage(mdn: $mdn) { mdn sim status subscriberStatus balanceDetails { talk } } }`,
      {
        token,
        variables: { mdn: line.mdn },
      },
    );
    expect(graphql.errors).toBeUndefined();
    expect(graphql.data?.usage).toMatchObject({
      mdn: line.mdn,
      sim: line.sim,
      status: 'SUCCESS',
      subscriberStatus: 'ACTIVE',
    });
  });

  it('answers a carrier refusal with the failure body and the code in parentheses', async () => {
    const rest = await gateway.rest('GET', '/sim/usage/5550001111', { token });
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({ status: 'failure' });
    expect(String(rest.body.message)).toMatch(/\(918\)$/);
    expect(rest.body.errors).toEqual([rest.body.message]);
  });

  it('refuses a malformed mdn with 422 in the FastAPI shape', async () => {
    const rest = await gateway.rest('GET', '/sim/usage/12ab', { token });
    expect(rest.status).toBe(422);
    expect(rest.body).toEqual({
      detail: [{ type: 'value_error', loc: ['path', 'mdn'], msg: 'mdn must be exactly 10 digits' }],
    });
  });
});

describe('a mutation through both surfaces', () => {
  it('suspends over REST with a generated transaction id of the spec form', async () => {
    const line = await activeLine();
    const rest = await gateway.rest('POST', '/sim/suspend/', { token, body: { mdn: line.mdn } });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ status: 'success', mdn: line.mdn, message: 'Success' });
    expect(rest.body.transaction_id).toMatch(/^SUSPEND_[0-9A-F]{12}$/);
  });

  it('answers the carrier failure as data on GraphQL', async () => {
    const line = await activeLine();
    await gateway.rest('POST', '/sim/suspend/', { token, body: { mdn: line.mdn } });
    const again = await gateway.graphql<{ suspendLine: Record<string, unknown> }>(
      `mutation ($mdn: String!) { suspendLine(input: { mdn: $mdn }) { status message transactionId } }`,
      { token, variables: { mdn: line.mdn } },
    );
    expect(again.errors).toBeUndefined();
    expect(again.data?.suspendLine).toMatchObject({
      status: 'FAILURE',
      message: 'Subscriber state not NEW or ACTIVE (935)',
    });
  });

  it('answers 409 to a repeated transaction id, also when two requests race', async () => {
    const line = await activeLine();
    const body = { mdn: line.mdn, transaction_id: `RACE-${Date.now()}` };
    const answers = await Promise.all([1, 2, 3].map(() => gateway.rest('POST', '/sim/suspend/', { token, body })));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 409)).toHaveLength(2);
    const conflict = answers.find((answer) => answer.status === 409)!;
    expect(conflict.body).toEqual({
      status: 'failure',
      message: `Transaction ID ${body.transaction_id} already exists`,
      code: 'HTTP_409',
    });
  });
});

/**
 * Twelve suspensions at once, half on REST and half on GraphQL: each answered, each recorded
 * with its own answer and its own line event (writes that meet are committed together).
 */
async function suspendAtOnce(on: TestGateway, caller: string): Promise<void> {
  const lines = await Promise.all(Array.from({ length: 12 }, () => activeLine(on)));
  const answers = await Promise.all(
    lines.map(async (line, index) => {
      if (index % 2 === 0) {
        const rest = await on.rest<{ transaction_id: string }>('POST', '/sim/suspend/', {
          token: caller,
          body: { mdn: line.mdn },
        });
        expect(rest.status).toBe(200);
        return { mdn: line.mdn, transactionId: rest.body.transaction_id };
      }
      const graphql = await on.graphql<{ suspendLine: { status: string; transactionId: string } }>(
        `mutation ($mdn: String!) { suspendLine(input: { mdn: $mdn }) { status transactionId } }`,
        { token: caller, variables: { mdn: line.mdn } },
      );
      expect(graphql.data?.suspendLine.status).toBe('SUCCESS');
      return { mdn: line.mdn, transactionId: graphql.data!.suspendLine.transactionId };
    }),
  );
  const ids = answers.map((answer) => answer.transactionId);
  expect(new Set(ids).size).toBe(12);
  for (const { mdn, transactionId } of answers) {
    const row = await on.app.services.transactions.find(transactionId);
    expect(row).toMatchObject({ status: 'success', httpStatus: 200, mdn, request: null });
    expect(row?.response).toMatchObject({ status: 'success', mdn, transaction_id: transactionId });
  }
  const events = await on.app.services.db.lineEvent.findMany({ where: { transactionId: { in: ids } } });
  expect(events.map((event) => [event.transactionId, event.type, event.mdn]).sort()).toEqual(
    answers.map(({ mdn, transactionId }) => [transactionId, 'line.suspended', mdn]).sort(),
  );
}

describe('mutations at the same time', () => {
  it('each record their own answer and line event, on both surfaces', async () => {
    await suspendAtOnce(gateway, token);
  });

  it('do the same on PostgreSQL', async (context) => {
    if (!(await postgresAvailable())) return context.skip('PostgreSQL is not available');
    const postgres = await startGateway({ database: 'postgresql' });
    try {
      const { token: caller } = await postgres.user({ plans: ['BASIC'] });
      await suspendAtOnce(postgres, caller);
    } finally {
      await postgres.close();
    }
  });
});

describe('a plan-bearing mutation', () => {
  it('changes to an authorized plan and refuses an unauthorized one with the spec body', async () => {
    const line = await activeLine();
    const ok = await gateway.rest('POST', '/sim/plan/change/', {
      token,
      body: { mdn: line.mdn, new_plan_id: 'PREMIUM' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'success', mdn: line.mdn });
    expect(ok.body.transaction_id).toMatch(/^PLAN_CHANGE_[0-9A-F]{12}$/);
    const refused = await gateway.rest('POST', '/sim/plan/change/', {
      token,
      body: { mdn: line.mdn, new_plan_id: 'GOLD' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      status: 'failure',
      message: 'Plan GOLD is not authorized for this user',
      code: 'HTTP_403',
    });
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After once the per-minute budget is spent, on both surfaces', async () => {
    const { token: limited } = await gateway.user();
    const answers = [];
    for (let i = 0; i < 20; i++)
      answers.push(await gateway.rest('POST', '/sim/suspend/', { token: limited, body: { mdn: '5550009999' } }));
    expect(answers.every((answer) => answer.status === 400)).toBe(true);
    const rest = await gateway.rest('POST', '/sim/suspend/', { token: limited, body: { mdn: '5550009999' } });
    expect(rest.status).toBe(429);
    expect(Number(rest.headers.get('retry-after'))).toBeGreaterThan(0);
    const graphql = await gateway.graphql(`mutation { suspendLine(input: { mdn: "5550009999" }) { status } }`, {
      token: limited,
    });
    expect(statusesOf(graphql)).toEqual({ http: 200, rest: 429 });
    expect(graphql.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
  });
});

describe('GraphQL input that does not fit the schema', () => {
  it('is a typed error: BAD_USER_INPUT for a variable, GRAPHQL_VALIDATION_FAILED inline', async () => {
    const viaVariable = await gateway.graphql(
      'mutation ($service: ServiceScope) { suspendLine(input: { mdn: "3215550001", service: $service }) { status } }',
      { token, variables: { service: 'EVERYTHING' } },
    );
    expect(viaVariable.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const inline = await gateway.graphql(
      'mutation { suspendLine(input: { mdn: "3215550001", service: EVERYTHING }) { status } }',
      { token },
    );
    expect(inline.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});

describe('carrier resolution for a plan change', () => {
  it('follows the line to its carrier when the plan names none', async () => {
    const sim = '89010000000000000555';
    const line = await gateway.sandboxes.cores.carrier_b.activate({
      sim,
      carrierPlanId: 'SOC-BASIC',
      zipCode: '30301',
      address: { address1: '1 Main St', city: 'Atlanta', state: 'GA', zipCode: '30301' },
      isEsim: false,
      language: 'ENGL',
      transactionId: `SEED_${sim}`,
    });
    await gateway.app.services.lines.record({ mdn: line.mdn, sim, carrier: 'carrier_b' });
    const changed = await gateway.rest('POST', '/sim/plan/change/', {
      token,
      body: { mdn: line.mdn, new_plan_id: 'PREMIUM' },
    });
    expect(changed.status).toBe(200);
    const record = await gateway.app.services.transactions.find(String(changed.body.transaction_id));
    expect(record?.carrier).toBe('carrier_b');
  });
});

describe('carrier failures on GraphQL', () => {
  it('carry the error code on its own next to the message', async () => {
    const answer = await gateway.graphql<{ restoreLine: Record<string, unknown> }>(
      'mutation { restoreLine(input: { mdn: "5550001111" }) { status message errorCode transactionId } }',
      { token },
    );
    expect(answer.data?.restoreLine).toMatchObject({
      status: 'FAILURE',
      errorCode: '918',
      message: expect.stringMatching(/\(918\)$/),
    });
    const ok = await gateway.graphql<{ me: Record<string, unknown> }>(
      '{ coverage(zipCode: "30301") { status errorCode } }',
      { token },
    );
    expect(ok.data).toMatchObject({ coverage: { status: 'SUCCESS', errorCode: null } });
  });
});

describe('a GraphQL request with one refused field', () => {
  it('is a partial success: the other fields answer, HTTP 200, the refusal in errors', async () => {
    const answer = await gateway.graphql<{ me: { name: string } | null; settings: unknown }>(
      '{ me { name } settings { key } }',
      { token },
    );
    expect(answer.status).toBe(200);
    expect(answer.data?.me?.name).toMatch(/^user/);
    expect(answer.data?.settings).toBeNull();
    expect(answer.errors?.map((error) => [error.path, error.extensions?.code])).toEqual([[['settings'], 'FORBIDDEN']]);
  });

  it('answers 200 even when no field answered (GraphQL over HTTP: data is there), the REST status on the error', async () => {
    const answer = await gateway.graphql('{ settings { key } }', { token });
    expect(answer.data).toEqual({ settings: null });
    expect(statusesOf(answer)).toEqual({ http: 200, rest: 403 });
    expect(answer.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});
