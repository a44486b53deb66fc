// Account-level extended queries under line ownership: a multi-line account may hold lines of
// several users. `account` and `poolUsage` list only the lines the caller may act on; a caller
// holding none of an account's lines is refused its pool; superusers see every line.

import { beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../support/gateway.js';
import {
  activate,
  expectGraphQLRefusal,
  expectRestRefusal,
  startOwnershipGateway,
  type Caller,
  type Line,
} from './ownership-support.js';

let gateway: TestGateway;
let a: Caller;
let b: Caller;
let admin: Caller;
let parent: Line;
let child: Line;
let accountId: string;

const POOL =
  'query ($accountId: String!) { poolUsage(accountId: $accountId) { status accountId poolBytes lines { mdn } } }';
const ACCOUNT = 'query ($mdn: String!) { account(mdn: $mdn) { status accountId lines { mdn } } }';

beforeAll(async () => {
  ({ gateway, a, b, admin } = await startOwnershipGateway());
  parent = await activate(gateway, a);
  child = await activate(gateway, a);
  await gateway.sandboxes.cores['321'].addChildLine({
    transactionId: `SEED_FAM_${child.sim}`,
    parentMdn: parent.mdn,
    parentSim: parent.sim,
    childMdn: child.mdn,
  });
  const account = await gateway.rest<{ account_id: string }>('GET', `/sim/account/${parent.mdn}`, { token: a.token });
  accountId = account.body.account_id;
  return () => gateway.close();
});

const mdnsOf = (body: unknown) => ((body as { lines: { mdn: string }[] }).lines ?? []).map((line) => line.mdn);

describe('pool usage and account under line ownership', () => {
  it('refuses the pool to a user who holds none of its lines, on both surfaces, naming no one', async () => {
    expectRestRefusal(await gateway.rest('GET', `/sim/pool-usage/${accountId}`, { token: b.token }), a.user);
    const graphql = await gateway.graphql(POOL, { token: b.token, variables: { accountId } });
    expectGraphQLRefusal(graphql, 'poolUsage', a.user);
  });

  it('shows the owner and superusers every line of the pool and the account', async () => {
    for (const caller of [a, admin]) {
      const pool = await gateway.rest('GET', `/sim/pool-usage/${accountId}`, { token: caller.token });
      expect(pool.status).toBe(200);
      expect(mdnsOf(pool.body)).toEqual([parent.mdn, child.mdn]);
      const account = await gateway.rest('GET', `/sim/account/${child.mdn}`, { token: caller.token });
      expect(mdnsOf(account.body)).toEqual([parent.mdn, child.mdn]);
    }
  });

  it('shows a user holding one line of the account that line only, with the pool totals', async () => {
    const assigned = await gateway.graphql(
      'mutation ($input: AssignLineOwnerInput!) { assignLineOwner(input: $input) { mdn } }',
      { token: admin.token, variables: { input: { mdn: child.mdn, user: b.user.name } } },
    );
    expect(assigned.errors).toBeUndefined();
    const pool = await gateway.rest('GET', `/sim/pool-usage/${accountId}`, { token: b.token });
    expect(pool.status).toBe(200);
    expect(mdnsOf(pool.body)).toEqual([child.mdn]);
    expect((pool.body as { pool_bytes: number }).pool_bytes).toBe(2 * 1024 ** 3);
    const graphql = await gateway.graphql<{ poolUsage: unknown }>(POOL, { token: b.token, variables: { accountId } });
    expect(mdnsOf(graphql.data?.poolUsage)).toEqual([child.mdn]);
    const account = await gateway.graphql<{ account: unknown }>(ACCOUNT, {
      token: b.token,
      variables: { mdn: child.mdn },
    });
    expect(mdnsOf(account.data?.account)).toEqual([child.mdn]);
    // And the first owner no longer sees the line given away.
    const fromA = await gateway.rest('GET', `/sim/account/${parent.mdn}`, { token: a.token });
    expect(mdnsOf(fromA.body)).toEqual([parent.mdn]);
  });
});
