// POST /sim/plan/change/ and `changePlan`: success, (916) to the active plan, the other
// carrier codes, the WFC warning variant, 401/403, validation, and the GraphQL twin.

import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ALL_PLANS, createPlans } from '../../support/plans.js';
import { disconnectSeeded, seedLine } from '../../support/lines.js';
import { graphqlMutation, type Detail } from '../../support/surfaces.js';
import { useGateway } from '../../support/use-gateway.js';

let token: string;

const gateway = useGateway();
beforeAll(async () => {
  await createPlans(gateway);
});
beforeEach(async () => {
  ({ token } = await gateway.user({ plans: ALL_PLANS }));
});

const change = (body: Record<string, unknown>, as = token) =>
  gateway.rest('POST', '/sim/plan/change/', { token: as, body });

describe('success', () => {
  it('changes the plan on REST with a generated PLAN_CHANGE_ id', async () => {
    const line = await seedLine(gateway);
    const answer = await change({ mdn: line.mdn, new_plan_id: 'PREMIUM', sim: line.sim });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 'success',
      mdn: line.mdn,
      transaction_id: expect.stringMatching(/^PLAN_CHANGE_[0-9A-F]{12}$/),
      message: 'Success',
    });
    expect((await gateway.sandboxes.cores['321'].getUsage(line.mdn)).planName).toBe('Unlimited Talk & Text 10GB');
  });

  it('changes the plan on GraphQL', async () => {
    const line = await seedLine(gateway);
    const answer = await graphqlMutation(
      gateway,
      'changePlan',
      { mdn: line.mdn, newPlanId: 'PREMIUM', transactionId: `GQL-PC-${line.sim}` },
      token,
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.changePlan).toMatchObject({
      status: 'SUCCESS',
      mdn: line.mdn,
      transactionId: `GQL-PC-${line.sim}`,
      message: 'Success',
      warning: null,
    });
  });
});

describe('carrier refusals', () => {
  it('(916) when the plan is already active, on REST and GraphQL', async () => {
    const line = await seedLine(gateway);
    const rest = await change({ mdn: line.mdn, new_plan_id: 'BASIC' });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({
      status: 'failure',
      mdn: line.mdn,
      transaction_id: expect.stringMatching(/^PLAN_CHANGE_/),
      message: 'Plan code already active on the MDN (916)',
    });
    const graphql = await graphqlMutation(gateway, 'changePlan', { mdn: line.mdn, newPlanId: 'BASIC' }, token);
    expect(graphql.data?.changePlan).toMatchObject({
      status: 'FAILURE',
      message: 'Plan code already active on the MDN (916)',
    });
  });

  it.each([
    { code: '906', body: async () => ({ mdn: (await seedLine(gateway)).mdn, new_plan_id: 'BAD' }) },
    { code: '918', body: async () => ({ mdn: '3215550000', new_plan_id: 'PREMIUM' }) },
    {
      code: '918',
      body: async () => ({ mdn: (await seedLine(gateway)).mdn, new_plan_id: 'PREMIUM', sim: '8901999999999999999' }),
    },
    { code: '909', body: async () => ({ mdn: '9095550000', new_plan_id: 'PREMIUM' }) },
    {
      code: '915',
      body: async () => {
        const line = await seedLine(gateway);
        await disconnectSeeded(gateway, line);
        return { mdn: line.mdn, new_plan_id: 'PREMIUM' };
      },
    },
  ])('($code)', async ({ code, body }) => {
    const answer = await change(await body());
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      status: 'failure',
      message: expect.stringMatching(new RegExp(`\\(${code}\\)$`)),
    });
  });
});

describe('Wi-Fi Calling plans', () => {
  const address = { address1: '1 Main St', city: 'Atlanta', state: 'GA', zip_code: '30301' };

  it('adds WFC with a valid E911 address', async () => {
    const line = await seedLine(gateway);
    const answer = await change({ mdn: line.mdn, new_plan_id: 'WFC', ...address });
    expect(answer.status).toBe(200);
    expect(answer.body).not.toHaveProperty('warning');
    expect((await gateway.sandboxes.cores['321'].getServiceProfile(line.mdn)).e911Address).toMatchObject({
      address1: '1 Main St',
    });
  });

  it('answers the warning variant on an invalid E911 address (GENS-0090), on REST and GraphQL', async () => {
    const line = await seedLine(gateway);
    const rest = await change({ mdn: line.mdn, new_plan_id: 'WFC', ...address, address1: '9 Invalid Way' });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({
      status: 'success',
      mdn: line.mdn,
      wfc_status: false,
      warning: expect.stringMatching(/\(GENS-0090\)$/),
    });
    expect((await gateway.sandboxes.cores['321'].getUsage(line.mdn)).planName).toBe('Unlimited with Wi-Fi Calling');
    const other = await seedLine(gateway);
    const graphql = await graphqlMutation(
      gateway,
      'changePlan',
      { mdn: other.mdn, newPlanId: 'WFC', address1: 'INVALID', city: 'Atlanta', state: 'GA', zipCode: '30301' },
      token,
    );
    expect(graphql.data?.changePlan).toMatchObject({
      status: 'SUCCESS',
      wfcStatus: false,
      warning: expect.stringMatching(/GENS-0090/),
    });
  });

  it('answers the warning variant when a WFC plan comes without an address', async () => {
    const line = await seedLine(gateway);
    const answer = await change({ mdn: line.mdn, new_plan_id: 'WFC' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      status: 'success',
      wfc_status: false,
      warning: expect.stringMatching(/no address supplied/),
    });
  });
});

describe('access and validation', () => {
  it('answers 401 without a token and 403 with the spec body to an unauthorized plan', async () => {
    const line = await seedLine(gateway);
    const anonymous = await gateway.rest('POST', '/sim/plan/change/', {
      body: { mdn: line.mdn, new_plan_id: 'PREMIUM' },
    });
    expect(anonymous.status).toBe(401);
    const { token: basicOnly } = await gateway.user({ plans: ['BASIC'] });
    const refused = await change({ mdn: line.mdn, new_plan_id: 'PREMIUM' }, basicOnly);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      status: 'failure',
      message: 'Plan PREMIUM is not authorized for this user',
      code: 'HTTP_403',
    });
    const graphql = await graphqlMutation(gateway, 'changePlan', { mdn: line.mdn, newPlanId: 'PREMIUM' }, basicOnly);
    expect(graphql.errors?.[0]?.extensions?.code).toBe('PLAN_NOT_AUTHORIZED');
  });

  it.each([
    { change: { mdn: undefined }, loc: ['body', 'mdn'], type: 'missing' },
    { change: { mdn: '12345' }, loc: ['body', 'mdn'], type: 'value_error' },
    { change: { new_plan_id: undefined }, loc: ['body', 'new_plan_id'], type: 'missing' },
    { change: { sim: 'not-an-iccid!' }, loc: ['body', 'sim'], type: 'value_error' },
    { change: { state: 'Georgia' }, loc: ['body', 'state'], type: 'value_error' },
    { change: { zip_code: '30301-1234' }, loc: ['body', 'zip_code'], type: 'value_error' },
    { change: { address1: '' }, loc: ['body', 'address1'], type: 'value_error' },
  ])('422 at $loc', async ({ change: fields, loc, type }) => {
    const answer = await gateway.rest<Detail>('POST', '/sim/plan/change/', {
      token,
      body: { mdn: '3215550001', new_plan_id: 'PREMIUM', ...fields },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.detail).toEqual([expect.objectContaining({ loc, type })]);
  });
});
