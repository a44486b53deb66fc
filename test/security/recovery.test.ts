// Issue 7, items 1 and 4: transaction ids are exact (the bytes stored, sent to the carrier and
// answered are the same; anything a header would alter is refused) and no line leaks through a
// look-alike id; a transaction is readable by its owner (or a superuser) only, on both surfaces.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noData, startGateway, type TestGateway } from '../support/gateway.js';
import { activationBody } from '../e2e/activation/activations.js';
import { camelInput as camel } from '../support/surfaces.js';
import { createPlans } from '../support/plans.js';

const RULE = 'transaction_id must be 1 to 64 printable ASCII characters without spaces (0x21-0x7E)';
/** The same rule on GraphQL, which names the member as its schema does. */
const GRAPHQL_RULE = 'transactionId must be 1 to 64 printable ASCII characters without spaces (0x21-0x7E)';
const TRANSACTION = 'query ($id: String!) { transaction(id: $id) { id status response } }';
const ACTIVATE = 'mutation ($input: ActivateSimInput!) { activateSim(input: $input) { status mdn transactionId } }';

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startGateway();
  await createPlans(gateway);
});
afterAll(() => gateway.close());

describe('exact transaction ids', () => {
  it('refuses "K1 " after "K1": B gets a 422, A’s line is never disclosed, B’s SIM is untouched', async () => {
    const { token: a } = await gateway.user({ plans: ['BASIC'] });
    const { token: b } = await gateway.user({ plans: ['BASIC'] });
    const id = `K1-${Date.now()}`;
    const first = await gateway.rest('POST', '/sim/activate/', {
      token: a,
      body: activationBody({ transaction_id: id }),
    });
    expect(first.status).toBe(200);
    const mdnOfA = first.body.mdn as string;

    const simOfB = activationBody().sim as string;
    const second = await gateway.rest('POST', '/sim/activate/', {
      token: b,
      body: activationBody({ sim: simOfB, transaction_id: `${id} ` }),
    });
    expect(second.status).toBe(422);
    expect(second.body).toEqual({ detail: [{ type: 'value_error', loc: ['body', 'transaction_id'], msg: RULE }] });
    expect(JSON.stringify(second.body)).not.toContain(mdnOfA);
    // Nothing was recorded under either spelling for B, and B's SIM was never activated.
    expect(await gateway.app.services.transactions.find(`${id} `)).toBeNull();
    expect((await gateway.app.services.transactions.find(id))?.userId).not.toBe(undefined);
    const details = await gateway.rest('GET', `/sim/details/${simOfB}`, { token: b });
    expect(details.body).toMatchObject({ sim: simOfB });
    expect(details.body.mdn ?? null).toBeNull();
    // B may then activate with its own exact id.
    const retried = await gateway.rest('POST', '/sim/activate/', {
      token: b,
      body: activationBody({ sim: simOfB, transaction_id: `${id}-B` }),
    });
    expect(retried.status).toBe(200);
    expect(retried.body.mdn).not.toBe(mdnOfA);
  });

  const refused: [string, string][] = [
    ['a trailing space', 'K1 '],
    ['a leading space', ' K1'],
    ['an inner space', 'K 1'],
    ['CR LF', 'K1\r\nX-Injected: 1'],
    ['NUL', 'K1\u0000'],
    ['DEL', 'K1\u007f'],
    ['a tab', 'K1\t'],
    ['an emoji', 'K1😀'],
    ['a non-ASCII letter', 'Kü1'],
    ['nothing', ''],
    ['65 characters', 'A'.repeat(65)],
  ];

  it.each(refused)(
    'refuses an id with %s: 422 on REST, BAD_USER_INPUT on GraphQL, nothing recorded',
    async (_name, id) => {
      const { token } = await gateway.user({ plans: ['BASIC'] });
      const body = activationBody({ transaction_id: id });
      const rest = await gateway.rest('POST', '/sim/activate/', { token, body });
      expect(rest.status).toBe(422);
      expect(rest.body).toEqual({ detail: [{ type: 'value_error', loc: ['body', 'transaction_id'], msg: RULE }] });
      const graphql = await gateway.graphql(ACTIVATE, { token, variables: { input: camel(body) } });
      expect(noData(graphql)).toBe(true);
      expect(graphql.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(graphql.errors?.[0]?.message).toBe(`transactionId: ${GRAPHQL_RULE}`);
      expect(await gateway.app.services.transactions.find(id)).toBeNull();
      // The SIM was not activated by either attempt.
      const details = await gateway.rest('GET', `/sim/details/${String(body.sim)}`, { token });
      expect(details.body.mdn ?? null).toBeNull();
    },
  );

  it('refuses a bad id on every mutation that takes one, and on a bulk batch and its items', async () => {
    const { token } = await gateway.user({ plans: ['BASIC'], superuser: true });
    const bad = 'K1 ';
    for (const [path, body] of [
      ['/sim/suspend/', { mdn: '3215550001', transaction_id: bad }],
      ['/sim/plan/change/', { mdn: '3215550001', new_plan_id: 'BASIC', transaction_id: bad }],
      [
        '/sim/wfc/add/',
        {
          mdn: '3215550001',
          sim: '89010000000000000001',
          address1: '1 Main St',
          city: 'Atlanta',
          state: 'GA',
          zip_code: '30301',
          transaction_id: bad,
        },
      ],
      [
        '/sim/balance/adjust/',
        { mdn: '3215550001', subscription_id: 'PUR1', uom: 'SECOND', amount: 60, transaction_id: bad },
      ],
      ['/sim/activate/bulk/', { activations: [activationBody()], transaction_id: bad }],
      ['/sim/activate/bulk/', { activations: [activationBody({ transaction_id: bad })] }],
    ] as const) {
      const answer = await gateway.rest('POST', path, { token, body });
      expect(answer.status, path).toBe(422);
      expect(JSON.stringify(answer.body), path).toContain(RULE);
    }
  });

  it('stores, sends and answers an accepted id as the same bytes (punctuation included)', async () => {
    const { token } = await gateway.user({ plans: ['BASIC'] });
    const id = `!"#$%&'()*+,-./:;<=>?@[\\]^_\`{|}~${Date.now()}`;
    const body = activationBody({ transaction_id: id });
    const answer = await gateway.rest('POST', '/sim/activate/', { token, body });
    expect(answer.status).toBe(200);
    expect(answer.body.transaction_id).toBe(id);
    expect(await gateway.app.services.transactions.find(id)).toMatchObject({ id, status: 'success', request: null });
    // The carrier keeps the id it received: the same write under the same id is its replay.
    const replay = await gateway.sandboxes.cores['321'].activate({
      sim: body.sim as string,
      carrierPlanId: 'BASIC1GB',
      zipCode: '30301',
      address: { address1: '1 Main St', city: 'Atlanta', state: 'GA', zipCode: '30301' },
      isEsim: false,
      language: 'ENGL',
      transactionId: id,
    });
    expect(replay.mdn).toBe(answer.body.mdn);
  });

  it('generates ids that follow the rule', async () => {
    const { token } = await gateway.user({ plans: ['BASIC'] });
    const single = await gateway.rest('POST', '/sim/activate/', { token, body: activationBody() });
    const bulk = await gateway.rest<{ results: { transaction_id: string }[] }>('POST', '/sim/activate/bulk/', {
      token,
      body: { activations: [activationBody()] },
    });
    for (const id of [single.body.transaction_id as string, bulk.body.results[0]!.transaction_id])
      expect(id).toMatch(/^[\x21-\x7E]{1,64}$/);
    expect(bulk.body.results[0]!.transaction_id).toMatch(/^BULK_\d{19,20}_\d+$/);
  });
});

describe('who may read a transaction', () => {
  it('answers the owner and a superuser on REST and GraphQL, and 404 to anyone else', async () => {
    const { token: owner } = await gateway.user({ plans: ['BASIC'] });
    const { token: stranger } = await gateway.user({ plans: ['BASIC'] });
    const { token: admin } = await gateway.user({ superuser: true });
    const id = `MINE-${Date.now()}`;
    const made = await gateway.rest('POST', '/sim/activate/', {
      token: owner,
      body: activationBody({ transaction_id: id }),
    });
    expect(made.status).toBe(200);

    const own = await gateway.rest('GET', `/transactions/${encodeURIComponent(id)}`, { token: owner });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({
      id,
      operation: 'activateSim',
      status: 'success',
      http_status: 200,
      recovered: false,
      resolved_at: null,
    });
    expect(JSON.parse(own.body.response as string)).toEqual(made.body);
    expect(Object.keys(own.body)).not.toContain('request');
    expect((await gateway.rest('GET', `/transactions/${encodeURIComponent(id)}`, { token: admin })).status).toBe(200);

    const hidden = await gateway.rest('GET', `/transactions/${encodeURIComponent(id)}`, { token: stranger });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ detail: `Transaction ${id} not found` });
    // Same answer as an id that does not exist.
    expect((await gateway.rest('GET', '/transactions/NO-SUCH-ID', { token: stranger })).body).toEqual({
      detail: 'Transaction NO-SUCH-ID not found',
    });
    const graphql = await gateway.graphql(TRANSACTION, { token: stranger, variables: { id } });
    expect(noData(graphql)).toBe(true);
    expect(graphql.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(JSON.stringify(graphql)).not.toContain(String(made.body.mdn));
    expect((await gateway.rest('GET', `/transactions/${encodeURIComponent(id)}`)).status).toBe(401);
  });
});
