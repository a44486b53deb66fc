// Where a GraphQL validation refusal says the bad input is, and how it names it: `loc` (and the
// message's prefix) is the path of the argument the caller sent — a field's own argument
// (`usage(mdn:)` → `["mdn"]`, `lines(mdns:)` → `["mdns",1]`) or a member of a mutation's
// `input` (`["input","adjustments",1,"subscriptionId"]`) — and the message names input members
// as GraphQL does (`zipCode must be 5 digits`). REST keeps its exact 422 bodies.

import { describe, expect, it } from 'vitest';
import { useGateway } from '../support/use-gateway.js';

const gateway = useGateway();

interface Issue {
  type: string;
  loc: (string | number)[];
  msg: string;
}

/** The one refusal of a GraphQL answer: its message, path and issues. */
async function refusalOf(query: string, variables?: Record<string, unknown>, superuser = false) {
  const { token } = await gateway.user({ superuser });
  const answer = await gateway.graphql(query, { token, variables });
  expect(answer.status).toBe(200);
  expect(answer.errors).toHaveLength(1);
  const [error] = answer.errors!;
  expect(error!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', status: 422 });
  return { message: error!.message, path: error!.path, issues: error!.extensions!.issues as Issue[] };
}

describe("a field's own arguments", () => {
  it.each([
    ['{ usage(mdn: "12") { status } }', 'mdn: mdn must be exactly 10 digits', ['mdn'], 'mdn must be exactly 10 digits'],
    ['{ line(mdn: "12") { mdn } }', 'mdn: mdn must be exactly 10 digits', ['mdn'], 'mdn must be exactly 10 digits'],
    [
      '{ lines(mdns: ["3215550002", "12"]) { mdn } }',
      'mdns.1: mdn must be exactly 10 digits',
      ['mdns', 1],
      'mdn must be exactly 10 digits',
    ],
    [
      '{ coverage(zipCode: "303") { status } }',
      'zipCode: zipCode must be 5 digits',
      ['zipCode'],
      'zipCode must be 5 digits',
    ],
    [
      '{ esimProfile(sim: "8901-0000") { status } }',
      'sim: sim must be alphanumeric, at most 25 characters',
      ['sim'],
      'sim must be alphanumeric, at most 25 characters',
    ],
  ])('%s', async (query, message, loc, msg) => {
    const refusal = await refusalOf(query);
    expect(refusal).toEqual({ message, path: [expect.any(String)], issues: [{ type: 'value_error', loc, msg }] });
  });

  it('a field of a line: `history(first:)` at its own argument', async () => {
    const refusal = await refusalOf('{ line(mdn: "3215550001") { history(first: 0) { edges { cursor } } } }');
    expect(refusal.issues).toEqual([expect.objectContaining({ type: 'value_error', loc: ['first'] })]);
    expect(refusal.path).toEqual(['line', 'history']);
  });

  it("a subscription's: `lineEvents(mdns:)` refused in the stream's one event", async () => {
    const { token } = await gateway.user();
    const response = await gateway.fetch('/graphql', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'subscription { lineEvents(mdns: ["12"]) { id } }' }),
    });
    const text = await response.text();
    const data = text
      .split('\n')
      .filter((line) => line.startsWith('data: ') && line.length > 'data: '.length)
      .map((line) => JSON.parse(line.slice('data: '.length)) as { errors?: { extensions: { issues: Issue[] } }[] });
    expect(data[0]?.errors?.[0]?.extensions.issues).toEqual([
      { type: 'value_error', loc: ['mdns', 0], msg: 'mdn must be exactly 10 digits' },
    ]);
  });
});

describe("a mutation's `input`", () => {
  it('locates a member under `input` and names it in camelCase, nested or not', async () => {
    const adjustments = [
      { subscriptionId: 'S1', uom: 'SECOND', amount: 10 },
      { subscriptionId: ' ', uom: 'SECOND', amount: 10 },
    ];
    const refusal = await refusalOf(
      'mutation ($input: AdjustBalancesInput!) { adjustBalances(input: $input) { status } }',
      { input: { mdn: '3215550001', adjustments } },
      true,
    );
    expect(refusal.message).toBe('adjustments.1.subscriptionId: subscriptionId must not be empty');
    expect(refusal.issues).toEqual([
      {
        type: 'value_error',
        loc: ['input', 'adjustments', 1, 'subscriptionId'],
        msg: 'subscriptionId must not be empty',
      },
    ]);
  });

  it('names every input member in camelCase, not only the refused one', async () => {
    const refusal = await refusalOf('mutation ($input: ActivateSimInput!) { activateSim(input: $input) { status } }', {
      input: {
        sim: '89010000000000000001',
        planId: 'BASIC',
        zipCode: '30301',
        isEsim: 'Y',
        address1: '1 Main St',
        city: 'Atlanta',
        state: 'GA',
      },
    });
    expect(refusal.issues).toEqual([
      { type: 'value_error', loc: ['input', 'email'], msg: 'email is required when isEsim is Y' },
    ]);
  });
});

describe('REST, for the same inputs', () => {
  it('keeps its exact 422 bodies: snake_case locations and messages', async () => {
    const { token } = await gateway.user({ superuser: true });
    const coverage = await gateway.rest('GET', '/sim/coverage/303', { token });
    expect(coverage).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'value_error', loc: ['path', 'zip_code'], msg: 'zip_code must be 5 digits' }] },
    });
    const adjusted = await gateway.rest('POST', '/sim/balance/adjust-multiple/', {
      token,
      body: { mdn: '3215550001', adjustments: [{ subscription_id: ' ', uom: 'SECOND', amount: 10 }] },
    });
    expect(adjusted).toMatchObject({
      status: 422,
      body: {
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'adjustments', 0, 'subscription_id'],
            msg: 'subscription_id must not be empty',
          },
        ],
      },
    });
  });
});
