// A REST call and its GraphQL twin are one operation below the transport: they share the
// rate-limit budget and the transaction-id namespace (shown with `purchasePlan`).

import { beforeAll, describe, expect, it } from 'vitest';
import { statusesOf } from '../../support/gateway.js';
import { createPlans } from '../../support/plans.js';
import { graphqlMutation } from '../../support/surfaces.js';
import { seedLine } from '../../support/lines.js';
import { useGateway } from '../../support/use-gateway.js';

const gateway = useGateway();
beforeAll(async () => {
  await createPlans(gateway);
});

describe('purchasePlan on REST and GraphQL', () => {
  it('shares one budget of 30 a minute: 15 REST + 15 GraphQL calls, then 429 on either surface', async () => {
    const { token } = await gateway.user({ plans: ['TOPUP'] });
    // An unknown number: each call is a counted carrier refusal (918) that changes nothing.
    const mdn = '3215559999';
    for (let i = 0; i < 15; i++)
      expect(
        (await gateway.rest('POST', '/sim/plan/purchase/', { token, body: { mdn, plan_id: 'TOPUP' } })).status,
      ).toBe(400);
    for (let i = 0; i < 15; i++)
      expect(
        (await graphqlMutation(gateway, 'purchasePlan', { mdn, planId: 'TOPUP' }, token)).data?.purchasePlan?.status,
      ).toBe('FAILURE');
    const rest = await gateway.rest('POST', '/sim/plan/purchase/', { token, body: { mdn, plan_id: 'TOPUP' } });
    expect(rest.status).toBe(429);
    expect(rest.body).toEqual({ status: 'failure', message: 'Rate limit exceeded: 30 per 1 minute', code: 'HTTP_429' });
    expect(Number(rest.headers.get('retry-after'))).toBeGreaterThan(0);
    const graphql = await graphqlMutation(gateway, 'purchasePlan', { mdn, planId: 'TOPUP' }, token);
    expect(statusesOf(graphql)).toEqual({ http: 200, rest: 429 });
    expect(graphql.errors?.[0]).toMatchObject({
      message: 'Rate limit exceeded: 30 per 1 minute',
      extensions: { code: 'RATE_LIMITED' },
    });
    // Budgets are per operation: cancellation still answers.
    expect(
      (await gateway.rest('POST', '/sim/plan/cancel/', { token, body: { mdn, purchase_id: 'PUR1' } })).status,
    ).toBe(400);
  });

  it('shares one transaction-id namespace: an id used on REST answers 409 on GraphQL, and the other way round', async () => {
    const { token } = await gateway.user({ plans: ['TOPUP'] });
    const line = await seedLine(gateway);
    const restId = `REST-${line.sim}`;
    expect(
      (
        await gateway.rest('POST', '/sim/plan/purchase/', {
          token,
          body: { mdn: line.mdn, plan_id: 'TOPUP', transaction_id: restId },
        })
      ).status,
    ).toBe(200);
    const onGraphQL = await graphqlMutation(
      gateway,
      'purchasePlan',
      { mdn: line.mdn, planId: 'TOPUP', transactionId: restId },
      token,
    );
    expect(statusesOf(onGraphQL)).toEqual({ http: 200, rest: 409 });
    expect(onGraphQL.errors?.[0]).toMatchObject({
      message: `Transaction ID ${restId} already exists`,
      extensions: { code: 'DUPLICATE_TRANSACTION' },
    });

    const graphqlId = `GQL-${line.sim}`;
    const first = await graphqlMutation(
      gateway,
      'purchasePlan',
      { mdn: line.mdn, planId: 'TOPUP', transactionId: graphqlId },
      token,
    );
    expect(first.data?.purchasePlan).toMatchObject({ status: 'SUCCESS', transactionId: graphqlId });
    const onRest = await gateway.rest('POST', '/sim/plan/purchase/', {
      token,
      body: { mdn: line.mdn, plan_id: 'TOPUP', transaction_id: graphqlId },
    });
    expect(onRest.status).toBe(409);
    expect(onRest.body).toEqual({
      status: 'failure',
      message: `Transaction ID ${graphqlId} already exists`,
      code: 'HTTP_409',
    });

    // Only the two purchases happened.
    const addOns = (await gateway.sandboxes.cores['321'].getUsage(line.mdn)).subscriptions.filter((subscription) =>
      subscription.purchaseId.startsWith('PUR'),
    );
    expect(addOns).toHaveLength(2);
  });
});
