// POST /sim/billing-code/change/ (`changeBillingCode`, superuser only): success on both
// surfaces, 403 `{detail}` / FORBIDDEN for others, 401, carrier codes and validation.

import { beforeAll, describe, expect, it } from 'vitest';
import { statusesOf } from '../../support/gateway.js';
import { disconnectSeeded, seedLine } from '../../support/lines.js';
import { graphqlMutation, type Detail } from '../../support/surfaces.js';
import { useGateway } from '../../support/use-gateway.js';

let admin: string;

const gateway = useGateway();
beforeAll(async () => {
  ({ token: admin } = await gateway.user({ superuser: true }));
});

const changeCode = (body: Record<string, unknown>, token?: string) =>
  gateway.rest('POST', '/sim/billing-code/change/', { token, body });

describe('a superuser', () => {
  it('changes the billing code on REST with a generated CHG_BILL_ id', async () => {
    const line = await seedLine(gateway);
    const answer = await changeCode({ mdn: line.mdn, billing_code: 'WHOLESALE7' }, admin);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 'success',
      mdn: line.mdn,
      transaction_id: expect.stringMatching(/^CHG_BILL_[0-9A-F]{12}$/),
      message: 'Success',
    });
  });

  it('changes it on GraphQL, also for a line on carrier_b', async () => {
    const line = await seedLine(gateway, { carrier: 'carrier_b' });
    const answer = await graphqlMutation(
      gateway,
      'changeBillingCode',
      { mdn: line.mdn, billingCode: 'BC777', transactionId: `GQL-BC-${line.sim}` },
      admin,
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.changeBillingCode).toMatchObject({
      status: 'SUCCESS',
      mdn: line.mdn,
      transactionId: `GQL-BC-${line.sim}`,
      message: 'Success',
    });
  });

  it.each([
    { code: '918', mdn: async () => '3215550000' },
    { code: '909', mdn: async () => '9095550000' },
    {
      code: '915',
      mdn: async () => {
        const line = await seedLine(gateway);
        await disconnectSeeded(gateway, line);
        return line.mdn;
      },
    },
  ])('gets the carrier refusal ($code) as the failure envelope', async ({ code, mdn }) => {
    const number = await mdn();
    const answer = await changeCode({ mdn: number, billing_code: 'BC1' }, admin);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      status: 'failure',
      mdn: number,
      transaction_id: expect.stringMatching(/^CHG_BILL_/),
      message: expect.stringMatching(new RegExp(`\\(${code}\\)$`)),
    });
    const graphql = await graphqlMutation(gateway, 'changeBillingCode', { mdn: number, billingCode: 'BC1' }, admin);
    expect(graphql.data?.changeBillingCode).toMatchObject({
      status: 'FAILURE',
      message: expect.stringMatching(new RegExp(`\\(${code}\\)$`)),
    });
  });

  it.each([
    { change: { billing_code: undefined }, loc: ['body', 'billing_code'], type: 'missing' },
    { change: { billing_code: ' ' }, loc: ['body', 'billing_code'], type: 'value_error' },
    { change: { billing_code: 'X'.repeat(51) }, loc: ['body', 'billing_code'], type: 'value_error' },
    { change: { mdn: undefined }, loc: ['body', 'mdn'], type: 'missing' },
    { change: { mdn: '32155500011' }, loc: ['body', 'mdn'], type: 'value_error' },
  ])('gets 422 at $loc', async ({ change, loc, type }) => {
    const answer = await gateway.rest<Detail>('POST', '/sim/billing-code/change/', {
      token: admin,
      body: { mdn: '3215550001', billing_code: 'BC1', ...change },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.detail).toEqual([expect.objectContaining({ loc, type })]);
  });
});

describe('anyone else', () => {
  it('gets 403 with `{detail}` on REST and FORBIDDEN on GraphQL, and changes nothing', async () => {
    const line = await seedLine(gateway);
    const { token } = await gateway.user({ plans: ['BASIC'] });
    const id = `BC-NOPE-${line.sim}`;
    const rest = await changeCode({ mdn: line.mdn, billing_code: 'BC9', transaction_id: id }, token);
    expect(rest.status).toBe(403);
    expect(rest.body).toEqual({ detail: "The user doesn't have enough privileges" });
    const graphql = await graphqlMutation(gateway, 'changeBillingCode', { mdn: line.mdn, billingCode: 'BC9' }, token);
    expect(statusesOf(graphql)).toEqual({ http: 200, rest: 403 });
    expect(graphql.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    // The refused request reserved nothing: a superuser may still use its transaction id.
    expect((await changeCode({ mdn: line.mdn, billing_code: 'BC9', transaction_id: id }, admin)).status).toBe(200);
  });

  it('gets 401 without a token', async () => {
    const answer = await changeCode({ mdn: '3215550001', billing_code: 'BC1' });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ detail: 'Not authenticated' });
  });
});
