// Extended queries about a line or an account, over REST and GraphQL against the carrier 321
// sandbox: account, pool usage, active plan and products; validation (422) and the carrier's
// refusals (909, 915, 918).

import { beforeAll, describe, expect, it } from 'vitest';
import { graphqlForm } from '../../support/graphql-form.js';
import { seedDisconnectedLine, seedUnknownLine } from '../../support/lines.js';
import { expectInvalid, expectSameAnswer } from '../../support/surfaces.js';
import { useGateway } from '../../support/use-gateway.js';

let token: string;

const gateway = useGateway();
beforeAll(async () => {
  ({ token } = await gateway.user());
});

const accountQuery =
  'query ($mdn: String!) { account(mdn: $mdn) { status mdn accountId lines { mdn sim subscriberStatus label } message } }';
const poolQuery =
  'query ($accountId: String!) { poolUsage(accountId: $accountId) { status accountId poolBytes usedBytes lines { mdn bytesUsed } message } }';
const activePlanQuery =
  'query ($mdn: String!) { activePlan(mdn: $mdn) { status mdn soc planName effectiveDate message } }';
const productsQuery =
  'query ($mdn: String!) { products(mdn: $mdn) { status mdn products { code effectiveDate } message } }';

/** A parent line with a labelled child line (a family on carrier 321). */
async function family() {
  const core = gateway.sandboxes.cores['321'];
  const parent = await seedUnknownLine(gateway);
  const child = await seedUnknownLine(gateway);
  await core.addChildLine({
    transactionId: `SEED_FAM_${child.sim}`,
    parentMdn: parent.mdn,
    parentSim: parent.sim,
    childMdn: child.mdn,
  });
  await core.extended!.setLabel({ transactionId: `SEED_LBL_${child.sim}`, mdn: child.mdn, label: 'Kid' });
  return { parent, child };
}

describe('account (GET /sim/account/{mdn})', () => {
  it('answers the account and its lines, parent first, from any member, on both surfaces', async () => {
    const { parent, child } = await family();
    const rest = await gateway.rest('GET', `/sim/account/${child.mdn}`, { token });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      status: 'success',
      mdn: child.mdn,
      account_id: expect.stringMatching(/^ACCT\d{8}$/),
      lines: [
        { mdn: parent.mdn, sim: parent.sim, status: 'ACTIVE', label: null },
        { mdn: child.mdn, sim: child.sim, status: 'ACTIVE', label: 'Kid' },
      ],
      message: 'Success',
    });
    const fromParent = await gateway.rest('GET', `/sim/account/${parent.mdn}`, { token });
    expect(fromParent.body.account_id).toBe(rest.body.account_id);
    expectSameAnswer(rest, await gateway.graphql(accountQuery, { token, variables: { mdn: child.mdn } }), 'account');
  });
});

describe('poolUsage (GET /sim/pool-usage/{account_id})', () => {
  it('answers the shared pool of the family, on both surfaces', async () => {
    const { parent, child } = await family();
    const account = await gateway.rest('GET', `/sim/account/${parent.mdn}`, { token });
    const accountId = String(account.body.account_id);
    const rest = await gateway.rest('GET', `/sim/pool-usage/${accountId}`, { token });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      status: 'success',
      account_id: accountId,
      // Two lines on Basic 1GB.
      pool_bytes: 2 * 1024 ** 3,
      used_bytes: expect.any(Number),
      lines: [
        { mdn: parent.mdn, bytes_used: expect.any(Number) },
        { mdn: child.mdn, bytes_used: expect.any(Number) },
      ],
      message: 'Success',
    });
    const lines = rest.body.lines as { bytes_used: number }[];
    expect(rest.body.used_bytes).toBe(lines.reduce((sum, line) => sum + line.bytes_used, 0));
    expectSameAnswer(rest, await gateway.graphql(poolQuery, { token, variables: { accountId } }), 'poolUsage');
  });

  it('answers an unknown account (918) with 400, on both surfaces', async () => {
    const rest = await gateway.rest('GET', '/sim/pool-usage/ACCT99999999', { token });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({
      status: 'failure',
      account_id: 'ACCT99999999',
      message: 'Subscriber with given resource does not exist (918)',
    });
    const graphql = await gateway.graphql(poolQuery, { token, variables: { accountId: 'ACCT99999999' } });
    expect(graphql.data?.poolUsage).toEqual({
      ...graphqlForm(rest.body),
      poolBytes: null,
      usedBytes: null,
      lines: null,
    });
  });

  it.each(['ACCT%2000001', 'a'.repeat(65), 'ACCT.1'])('refuses the account id %s with 422', async (accountId) => {
    const rest = await gateway.rest('GET', `/sim/pool-usage/${accountId}`, { token });
    const graphql = await gateway.graphql(poolQuery, {
      token,
      variables: { accountId: decodeURIComponent(accountId) },
    });
    expectInvalid(rest, graphql, {
      type: 'value_error',
      loc: ['path', 'account_id'],
      msg: 'account_id must be 1 to 64 letters, digits, - or _',
    });
  });
});

describe('activePlan (GET /sim/plan/active/{mdn})', () => {
  it('answers the plan SOC of the line, on both surfaces', async () => {
    const line = await seedUnknownLine(gateway, { carrierPlanId: 'UNL10GB' });
    const rest = await gateway.rest('GET', `/sim/plan/active/${line.mdn}`, { token });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      status: 'success',
      mdn: line.mdn,
      soc: 'UNL10GB',
      plan_name: 'Unlimited Talk & Text 10GB',
      effective_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      message: 'Success',
    });
    expectSameAnswer(
      rest,
      await gateway.graphql(activePlanQuery, { token, variables: { mdn: line.mdn } }),
      'activePlan',
    );
  });
});

describe('products (GET /sim/products/{mdn})', () => {
  it('answers the feature SOCs of the line, on both surfaces', async () => {
    const line = await seedUnknownLine(gateway);
    const rest = await gateway.rest('GET', `/sim/products/${line.mdn}`, { token });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      status: 'success',
      mdn: line.mdn,
      products: [
        { code: 'VOLTE', effective_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) },
        { code: 'VMBOX', effective_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) },
      ],
      message: 'Success',
    });
    expectSameAnswer(rest, await gateway.graphql(productsQuery, { token, variables: { mdn: line.mdn } }), 'products');
  });
});

// The line queries share their refusals and their 422: one table for the four of them.
const lineQueries = [
  { name: 'account', path: '/sim/account/', query: accountQuery, empty: { accountId: null, lines: null } },
  {
    name: 'activePlan',
    path: '/sim/plan/active/',
    query: activePlanQuery,
    empty: { soc: null, planName: null, effectiveDate: null },
  },
  { name: 'products', path: '/sim/products/', query: productsQuery, empty: { products: null } },
] as const;

describe.each(lineQueries)('$name refusals', ({ name, path, query, empty }) => {
  it.each([
    [
      'a number the carrier never issued',
      async () => '3215559998',
      'Subscriber with given resource does not exist (918)',
    ],
    ['a number of another vendor', async () => '9095550001', 'MDN does not belong to this vendor (909)'],
    [
      'a disconnected line',
      async () => (await seedDisconnectedLine(gateway, { register: false })).mdn,
      'ESN/MDN is inactive (915)',
    ],
  ])('answers %s with 400 and the code, on both surfaces', async (_case, mdnOf, message) => {
    const mdn = await mdnOf();
    const rest = await gateway.rest('GET', `${path}${mdn}`, { token });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({ status: 'failure', mdn, message });
    const graphql = await gateway.graphql(query, { token, variables: { mdn } });
    expect(graphql.errors).toBeUndefined();
    expect(graphql.data?.[name]).toEqual({ ...graphqlForm(rest.body), ...empty });
  });

  it.each(['321555000', '32155500011', '321555000x'])('refuses the mdn %s with 422', async (mdn) => {
    const rest = await gateway.rest('GET', `${path}${mdn}`, { token });
    const graphql = await gateway.graphql(query, { token, variables: { mdn } });
    expectInvalid(rest, graphql, { type: 'value_error', loc: ['path', 'mdn'], msg: 'mdn must be exactly 10 digits' });
  });
});
