// Balance adjustments (single and multiple) over real HTTP against the sandbox carriers, REST
// and GraphQL: superuser only (403 {detail} otherwise), the unit and amount rules (422),
// 919/920 refusals, and that a refused batch changes nothing.

import { beforeAll, describe, expect, it } from 'vitest';
import { noData } from '../../support/gateway.js';
import { expectBadInput, expectSameOutcome, graphqlMutation } from '../../support/surfaces.js';
import { seedLine, type SeededLine } from '../../support/lines.js';
import { useGateway } from '../../support/use-gateway.js';

let admin: string;

const post = (path: string, body: Record<string, unknown>, as = admin) =>
  gateway.rest('POST', path, { token: as, body });

/** The base subscription of a line and its balances by unit. */
async function subscription(line: SeededLine) {
  const usage = await gateway.sandboxes.cores['321'].getUsage(line.mdn);
  const base = usage.subscriptions[0]!;
  const balance = (uom: string) => base.balances.find((item) => item.uom === uom)!;
  return { id: base.purchaseId, balance };
}

const gateway = useGateway();
beforeAll(async () => {
  ({ token: admin } = await gateway.user({ superuser: true }));
});

describe('adjustBalance', () => {
  it('adds to a balance and moves its expiry; the same on GraphQL', async () => {
    const line = await seedLine(gateway);
    const before = await subscription(line);
    const rest = await post('/sim/balance/adjust/', {
      mdn: line.mdn,
      subscription_id: before.id,
      uom: 'EVENT',
      amount: 250,
      expiry_date: '2099-12-31',
    });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      status: 'success',
      mdn: line.mdn,
      transaction_id: expect.stringMatching(/^ADJ_BAL_[0-9A-F]{12}$/),
      message: 'Success',
    });
    const after = await subscription(line);
    expect(after.balance('EVENT').balance).toBe(before.balance('EVENT').balance + 250);
    expect(after.balance('EVENT').validTo).toBe('2099-12-31 23:59:59');

    const other = await seedLine(gateway);
    const otherSub = await subscription(other);
    const graphql = await graphqlMutation(
      gateway,
      'adjustBalance',
      { mdn: other.mdn, subscriptionId: otherSub.id, uom: 'BYTE', amount: -1_000_000 },
      admin,
    );
    expectSameOutcome({ ...rest, body: { ...rest.body, mdn: other.mdn } }, graphql, 'adjustBalance');
    expect((await subscription(other)).balance('BYTE').balance).toBe(otherSub.balance('BYTE').balance - 1_000_000);
  });

  it('takes byte amounts beyond 32 bits on both surfaces', async () => {
    const line = await seedLine(gateway);
    const sub = await subscription(line);
    const fiveGiB = 5 * 1024 ** 3;
    expect(
      (await post('/sim/balance/adjust/', { mdn: line.mdn, subscription_id: sub.id, uom: 'BYTE', amount: fiveGiB }))
        .status,
    ).toBe(200);
    const graphql = await graphqlMutation(
      gateway,
      'adjustBalance',
      { mdn: line.mdn, subscriptionId: sub.id, uom: 'BYTE', amount: fiveGiB },
      admin,
    );
    expect(graphql.errors).toBeUndefined();
    expect((await subscription(line)).balance('BYTE').balance).toBe(sub.balance('BYTE').balance + 2 * fiveGiB);
  });

  it('adjusts the voice balance (SECOND) when no unit is given', async () => {
    const line = await seedLine(gateway);
    const sub = await subscription(line);
    expect((await post('/sim/balance/adjust/', { mdn: line.mdn, subscription_id: sub.id, amount: 60 })).status).toBe(
      200,
    );
    expect((await subscription(line)).balance('SECOND').balance).toBe(sub.balance('SECOND').balance + 60);
  });

  it.each([
    ['919', 'an unknown subscription', (sub: string): Record<string, unknown> => ({ subscription_id: `${sub}X` })],
    [
      '920',
      'a deduction beyond the balance',
      (sub: string): Record<string, unknown> => ({ subscription_id: sub, uom: 'EVENT', amount: -1_000_000 }),
    ],
  ])('answers %s for %s, on both surfaces, and changes nothing', async (code, _what, changeOf) => {
    const line = await seedLine(gateway);
    const sub = await subscription(line);
    const body: Record<string, unknown> = { mdn: line.mdn, ...changeOf(sub.id) };
    const rest = await post('/sim/balance/adjust/', body);
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({
      status: 'failure',
      mdn: line.mdn,
      transaction_id: expect.stringMatching(/^ADJ_BAL_/),
      message: expect.stringMatching(new RegExp(`\\(${code}\\)$`)),
    });
    const graphql = await graphqlMutation(
      gateway,
      'adjustBalance',
      { mdn: body.mdn, subscriptionId: body.subscription_id, uom: body.uom, amount: body.amount },
      admin,
    );
    expectSameOutcome(rest, graphql, 'adjustBalance');
    expect((await subscription(line)).balance('EVENT').balance).toBe(sub.balance('EVENT').balance);
  });

  it('answers 918 for an unknown number', async () => {
    const rest = await post('/sim/balance/adjust/', { mdn: '5550001234', subscription_id: 'SUB1', amount: 1 });
    expect(rest.body.message).toMatch(/\(918\)$/);
  });

  it.each([
    [{ uom: 'MINUTE' }, 'uom', 'value_error', 'UOM must be SECOND, EVENT or BYTE'],
    [{ uom: 'second' }, 'uom', 'value_error', 'UOM must be SECOND, EVENT or BYTE'],
    [{ amount: 1.5 }, 'amount', 'value_error', 'amount must be an integer'],
    [{ amount: '10' }, 'amount', 'number_type', 'Input should be a valid number'],
    [{ expiry_date: '2099-13-01' }, 'expiry_date', 'value_error', 'expiry_date must be a valid calendar date'],
    [{ expiry_date: '2099-02-30' }, 'expiry_date', 'value_error', 'expiry_date must be a valid calendar date'],
    [{ expiry_date: '31/12/2099' }, 'expiry_date', 'value_error', 'expiry_date must be a date in YYYY-MM-DD form'],
    [{ subscription_id: undefined }, 'subscription_id', 'missing', 'Field required'],
    [{ subscription_id: '' }, 'subscription_id', 'value_error', 'subscription_id must not be empty'],
    [{ mdn: undefined }, 'mdn', 'missing', 'Field required'],
  ])('refuses %j with 422 on %s and changes nothing', async (change, field, type, msg) => {
    const { token: own } = await gateway.user({ superuser: true });
    const line = await seedLine(gateway);
    const sub = await subscription(line);
    const rest = await post(
      '/sim/balance/adjust/',
      { mdn: line.mdn, subscription_id: sub.id, amount: 10, ...change },
      own,
    );
    expect(rest.status).toBe(422);
    expect(rest.body).toEqual({ detail: [{ type, loc: ['body', field], msg }] });
    expect((await subscription(line)).balance('SECOND').balance).toBe(sub.balance('SECOND').balance);
  });

  it('refuses a fractional amount with BAD_USER_INPUT on GraphQL', async () => {
    const line = await seedLine(gateway);
    const sub = await subscription(line);
    const graphql = await graphqlMutation(
      gateway,
      'adjustBalance',
      { mdn: line.mdn, subscriptionId: sub.id, amount: 2.5 },
      admin,
    );
    expectBadInput(graphql, ['amount'], 'value_error', 'amount must be an integer');
  });
});

describe('adjustBalances', () => {
  it('applies every adjustment; the same on GraphQL', async () => {
    const line = await seedLine(gateway);
    const sub = await subscription(line);
    const rest = await post('/sim/balance/adjust-multiple/', {
      mdn: line.mdn,
      adjustments: [
        { subscription_id: sub.id, uom: 'SECOND', amount: 600 },
        { subscription_id: sub.id, uom: 'EVENT', amount: -10 },
      ],
    });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      status: 'success',
      mdn: line.mdn,
      transaction_id: expect.stringMatching(/^ADJ_MULTI_BAL_[0-9A-F]{12}$/),
      message: 'Success',
    });
    const after = await subscription(line);
    expect(after.balance('SECOND').balance).toBe(sub.balance('SECOND').balance + 600);
    expect(after.balance('EVENT').balance).toBe(sub.balance('EVENT').balance - 10);

    const other = await seedLine(gateway);
    const otherSub = await subscription(other);
    const graphql = await graphqlMutation(
      gateway,
      'adjustBalances',
      { mdn: other.mdn, adjustments: [{ subscriptionId: otherSub.id, uom: 'BYTE', amount: 1024 }] },
      admin,
    );
    expectSameOutcome({ ...rest, body: { ...rest.body, mdn: other.mdn } }, graphql, 'adjustBalances');
  });

  it('applies nothing when one adjustment is refused (920), on both surfaces', async () => {
    const line = await seedLine(gateway);
    const sub = await subscription(line);
    const adjustments = [
      { subscriptionId: sub.id, uom: 'SECOND', amount: 600 },
      { subscriptionId: sub.id, uom: 'EVENT', amount: -1_000_000 },
    ];
    const rest = await post('/sim/balance/adjust-multiple/', {
      mdn: line.mdn,
      adjustments: adjustments.map(({ subscriptionId, ...rest }) => ({ subscription_id: subscriptionId, ...rest })),
    });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({
      status: 'failure',
      mdn: line.mdn,
      transaction_id: expect.stringMatching(/^ADJ_MULTI_BAL_/),
      message: expect.stringMatching(/\(920\)$/),
    });
    expectSameOutcome(
      rest,
      await graphqlMutation(gateway, 'adjustBalances', { mdn: line.mdn, adjustments }, admin),
      'adjustBalances',
    );
    expect((await subscription(line)).balance('SECOND').balance).toBe(sub.balance('SECOND').balance);
  });

  it.each([
    [{ adjustments: [] }, ['adjustments'], 'value_error', 'adjustments must not be empty'],
    [{ adjustments: undefined }, ['adjustments'], 'missing', 'Field required'],
    [{ adjustments: [{ subscription_id: 'S', amount: 1 }] }, ['adjustments', 0, 'uom'], 'missing', 'Field required'],
    [
      { adjustments: [{ subscription_id: 'S', uom: 'SECOND' }] },
      ['adjustments', 0, 'amount'],
      'missing',
      'Field required',
    ],
    [
      { adjustments: [{ uom: 'SECOND', amount: 1 }] },
      ['adjustments', 0, 'subscription_id'],
      'missing',
      'Field required',
    ],
    [
      {
        adjustments: [
          { subscription_id: 'S', uom: 'SECOND', amount: 1 },
          { subscription_id: 'S', uom: 'KB', amount: 1 },
        ],
      },
      ['adjustments', 1, 'uom'],
      'value_error',
      'UOM must be SECOND, EVENT or BYTE',
    ],
    [
      { adjustments: [{ subscription_id: 'S', uom: 'BYTE', amount: 0.5 }] },
      ['adjustments', 0, 'amount'],
      'value_error',
      'amount must be an integer',
    ],
    [
      { adjustments: Array.from({ length: 101 }, () => ({ subscription_id: 'S', uom: 'BYTE', amount: 1 })) },
      ['adjustments'],
      'value_error',
      'adjustments must have at most 100 items',
    ],
  ])('refuses %j with 422 at %j', async (change, loc, type, msg) => {
    const { token: own } = await gateway.user({ superuser: true });
    const rest = await post('/sim/balance/adjust-multiple/', { mdn: '3215550001', ...change }, own);
    expect(rest.status).toBe(422);
    expect(rest.body).toEqual({ detail: [{ type, loc: ['body', ...loc], msg }] });
  });

  it('refuses a bad unit inside the list with BAD_USER_INPUT on GraphQL', async () => {
    const graphql = await graphqlMutation(
      gateway,
      'adjustBalances',
      { mdn: '3215550001', adjustments: [{ subscriptionId: 'S', uom: 'BYTE', amount: 0.5 }] },
      admin,
    );
    expectBadInput(graphql, ['adjustments', 0, 'amount'], 'value_error', 'amount must be an integer');
  });
});

describe('access', () => {
  it.each([
    ['adjustBalance', '/sim/balance/adjust/', { mdn: '3215550001', subscriptionId: 'SUB1', amount: 1 }],
    [
      'adjustBalances',
      '/sim/balance/adjust-multiple/',
      { mdn: '3215550001', adjustments: [{ subscriptionId: 'SUB1', uom: 'SECOND', amount: 1 }] },
    ],
  ])('%s: 403 {detail} for a non-superuser (before validation), 401 without a token', async (field, path, input) => {
    const { token } = await gateway.user();
    const line = await seedLine(gateway);
    const sub = await subscription(line);
    const body =
      field === 'adjustBalance'
        ? { mdn: line.mdn, subscription_id: sub.id, amount: 1 }
        : { mdn: line.mdn, adjustments: [{ subscription_id: sub.id, uom: 'SECOND', amount: 1 }] };
    const rest = await gateway.rest('POST', path, { token, body });
    expect(rest.status).toBe(403);
    expect(rest.body).toEqual({ detail: "The user doesn't have enough privileges" });
    expect((await gateway.rest('POST', path, { token, body: { mdn: 'bad' } })).status).toBe(403);
    expect((await subscription(line)).balance('SECOND').balance).toBe(sub.balance('SECOND').balance);
    const graphql = await graphqlMutation(gateway, field, input, token);
    expect(noData(graphql)).toBe(true);
    expect(graphql.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await gateway.rest('POST', path, { body })).status).toBe(401);
  });
});
