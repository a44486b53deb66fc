// POST /sim/plan/purchase/ and /sim/plan/cancel/ (`purchasePlan`, `cancelPurchase`):
// purchase → cancel → (949) on a second cancel, (969) past the maximum purchases, the other
// carrier codes, WFC add-ons, 401/403, validation, and the GraphQL twins.

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

const purchase = (body: Record<string, unknown>, as = token) =>
  gateway.rest('POST', '/sim/plan/purchase/', { token: as, body });
const cancel = (body: Record<string, unknown>, as = token) =>
  gateway.rest('POST', '/sim/plan/cancel/', { token: as, body });

describe('purchase and cancellation', () => {
  it('purchases, cancels, then answers (949) to a second cancel', async () => {
    const line = await seedLine(gateway);
    const bought = await purchase({ mdn: line.mdn, plan_id: 'TOPUP' });
    expect(bought.status).toBe(200);
    expect(bought.body).toEqual({
      status: 'success',
      mdn: line.mdn,
      purchase_id: expect.stringMatching(/^PUR/),
      transaction_id: expect.stringMatching(/^PURCHASE_[0-9A-F]{12}$/),
      message: 'Success',
    });
    const purchaseId = String(bought.body.purchase_id);
    const subscriptions = (await gateway.sandboxes.cores['321'].getUsage(line.mdn)).subscriptions;
    expect(subscriptions.map((subscription) => subscription.purchaseId)).toContain(purchaseId);

    const cancelled = await cancel({ mdn: line.mdn, purchase_id: purchaseId });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({
      status: 'success',
      mdn: line.mdn,
      purchase_id: purchaseId,
      transaction_id: expect.stringMatching(/^CANCEL_[0-9A-F]{12}$/),
      message: 'Success',
    });

    const again = await cancel({ mdn: line.mdn, purchase_id: purchaseId });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      status: 'failure',
      mdn: line.mdn,
      purchase_id: purchaseId,
      transaction_id: expect.stringMatching(/^CANCEL_/),
      message: 'No active subscription found (949)',
    });
  });

  it('does the same on GraphQL', async () => {
    const line = await seedLine(gateway);
    const bought = await graphqlMutation(gateway, 'purchasePlan', { mdn: line.mdn, planId: 'INTL' }, token);
    expect(bought.errors).toBeUndefined();
    expect(bought.data?.purchasePlan).toMatchObject({
      status: 'SUCCESS',
      mdn: line.mdn,
      purchaseId: expect.stringMatching(/^PUR/),
      warning: null,
    });
    const purchaseId = bought.data!.purchasePlan!.purchaseId;
    const cancelled = await graphqlMutation(gateway, 'cancelPurchase', { mdn: line.mdn, purchaseId }, token);
    expect(cancelled.data?.cancelPurchase).toMatchObject({
      status: 'SUCCESS',
      purchaseId,
      transactionId: expect.stringMatching(/^CANCEL_/),
    });
    const again = await graphqlMutation(gateway, 'cancelPurchase', { mdn: line.mdn, purchaseId }, token);
    expect(again.errors).toBeUndefined();
    expect(again.data?.cancelPurchase).toMatchObject({
      status: 'FAILURE',
      purchaseId,
      message: 'No active subscription found (949)',
    });
  });

  it('answers (969) past the maximum number of active purchases, and again allows one after a cancel', async () => {
    const line = await seedLine(gateway);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const bought = await purchase({ mdn: line.mdn, plan_id: 'TOPUP' });
      expect(bought.status).toBe(200);
      ids.push(String(bought.body.purchase_id));
    }
    const refused = await purchase({ mdn: line.mdn, plan_id: 'TOPUP' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      status: 'failure',
      mdn: line.mdn,
      transaction_id: expect.stringMatching(/^PURCHASE_/),
      message: 'Maximum purchases limit exceeded (969)',
    });
    const graphql = await graphqlMutation(gateway, 'purchasePlan', { mdn: line.mdn, planId: 'TOPUP' }, token);
    expect(graphql.data?.purchasePlan).toMatchObject({
      status: 'FAILURE',
      message: 'Maximum purchases limit exceeded (969)',
    });
    expect((await cancel({ mdn: line.mdn, purchase_id: ids[0] })).status).toBe(200);
    expect((await purchase({ mdn: line.mdn, plan_id: 'TOPUP' })).status).toBe(200);
  });

  it('purchases on the plan’s carrier (carrier_b)', async () => {
    const line = await seedLine(gateway, { carrier: 'carrier_b' });
    const bought = await purchase({ mdn: line.mdn, plan_id: 'BTOPUP' });
    expect(bought.status).toBe(200);
    expect(bought.body).toMatchObject({ status: 'success', mdn: line.mdn });
    // Cancellation routes by the line, which the registry places on carrier_b.
    const cancelled = await cancel({ mdn: line.mdn, purchase_id: bought.body.purchase_id });
    expect(cancelled.status).toBe(200);
  });
});

describe('carrier refusals', () => {
  it.each([
    { code: '906', body: async () => ({ mdn: (await seedLine(gateway)).mdn, plan_id: 'BAD' }) },
    { code: '918', body: async () => ({ mdn: '3215550000', plan_id: 'TOPUP' }) },
    { code: '909', body: async () => ({ mdn: '9095550000', plan_id: 'TOPUP' }) },
    {
      code: '915',
      body: async () => {
        const line = await seedLine(gateway);
        await disconnectSeeded(gateway, line);
        return { mdn: line.mdn, plan_id: 'TOPUP' };
      },
    },
  ])('purchase ($code)', async ({ code, body }) => {
    const answer = await purchase(await body());
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      status: 'failure',
      message: expect.stringMatching(new RegExp(`\\(${code}\\)$`)),
    });
  });

  it.each([
    { code: '949', body: async () => ({ mdn: (await seedLine(gateway)).mdn, purchase_id: 'PUR99999999' }) },
    { code: '918', body: async () => ({ mdn: '3215550000', purchase_id: 'PUR00000001' }) },
    { code: '909', body: async () => ({ mdn: '9095550000', purchase_id: 'PUR00000001' }) },
  ])('cancel ($code), naming the purchase', async ({ code, body }) => {
    const sent = await body();
    const answer = await cancel(sent);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      status: 'failure',
      mdn: sent.mdn,
      purchase_id: sent.purchase_id,
      message: expect.stringMatching(new RegExp(`\\(${code}\\)$`)),
    });
  });
});

describe('Wi-Fi Calling add-ons', () => {
  it('buys a WFC plan with a valid E911 address (no warning)', async () => {
    const line = await seedLine(gateway);
    const answer = await purchase({
      mdn: line.mdn,
      plan_id: 'WFC',
      address1: '1 Main St',
      city: 'Atlanta',
      state: 'GA',
      zip_code: '30301',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).not.toHaveProperty('warning');
  });

  it('answers the warning variant when WFC cannot be added (carrier_b reports the WFC outcome)', async () => {
    const line = await seedLine(gateway, { carrier: 'carrier_b' });
    const answer = await purchase({
      mdn: line.mdn,
      plan_id: 'BWFC',
      address1: 'INVALID',
      city: 'Atlanta',
      state: 'GA',
      zip_code: '30301',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      status: 'success',
      purchase_id: expect.any(String),
      wfc_status: false,
      warning: expect.stringMatching(/\(GENS-0090\)$/),
    });
  });
});

describe('access and validation', () => {
  it('answers 401 without a token', async () => {
    const bought = await gateway.rest('POST', '/sim/plan/purchase/', { body: { mdn: '3215550001', plan_id: 'TOPUP' } });
    expect(bought.status).toBe(401);
    expect(bought.body).toEqual({ detail: 'Not authenticated' });
    expect(
      (await gateway.rest('POST', '/sim/plan/cancel/', { body: { mdn: '3215550001', purchase_id: 'PUR1' } })).status,
    ).toBe(401);
    expect(
      (await graphqlMutation(gateway, 'cancelPurchase', { mdn: '3215550001', purchaseId: 'PUR1' }, '')).errors?.[0]
        ?.extensions?.code,
    ).toBe('UNAUTHENTICATED');
  });

  it('answers 403 with the spec body to an unauthorized plan on purchase', async () => {
    const line = await seedLine(gateway);
    const { token: basicOnly } = await gateway.user({ plans: ['BASIC'] });
    const refused = await purchase({ mdn: line.mdn, plan_id: 'TOPUP' }, basicOnly);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      status: 'failure',
      message: 'Plan TOPUP is not authorized for this user',
      code: 'HTTP_403',
    });
    const graphql = await graphqlMutation(gateway, 'purchasePlan', { mdn: line.mdn, planId: 'TOPUP' }, basicOnly);
    expect(graphql.errors?.[0]?.extensions?.code).toBe('PLAN_NOT_AUTHORIZED');
  });

  it.each([
    { path: '/sim/plan/purchase/', change: { mdn: undefined }, loc: ['body', 'mdn'], type: 'missing' },
    { path: '/sim/plan/purchase/', change: { mdn: '321555000A' }, loc: ['body', 'mdn'], type: 'value_error' },
    { path: '/sim/plan/purchase/', change: { plan_id: undefined }, loc: ['body', 'plan_id'], type: 'missing' },
    { path: '/sim/plan/purchase/', change: { state: 'G' }, loc: ['body', 'state'], type: 'value_error' },
    { path: '/sim/plan/purchase/', change: { zip_code: '3030' }, loc: ['body', 'zip_code'], type: 'value_error' },
    { path: '/sim/plan/cancel/', change: { purchase_id: undefined }, loc: ['body', 'purchase_id'], type: 'missing' },
    { path: '/sim/plan/cancel/', change: { purchase_id: '  ' }, loc: ['body', 'purchase_id'], type: 'value_error' },
    { path: '/sim/plan/cancel/', change: { mdn: undefined }, loc: ['body', 'mdn'], type: 'missing' },
  ])('$path: 422 at $loc', async ({ path, change, loc, type }) => {
    const body = { mdn: '3215550001', plan_id: 'TOPUP', purchase_id: 'PUR00000001', ...change };
    const answer = await gateway.rest<Detail>('POST', path, { token, body });
    expect(answer.status).toBe(422);
    expect(answer.body.detail).toEqual([expect.objectContaining({ loc, type })]);
  });

  it('gives BAD_USER_INPUT on GraphQL', async () => {
    const answer = await graphqlMutation(gateway, 'purchasePlan', { mdn: '123', planId: 'TOPUP' }, token);
    expect(answer.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      issues: [{ loc: ['input', 'mdn'], type: 'value_error' }],
    });
  });
});
