// Helpers for the features and lifecycle end-to-end tests: lines seeded straight into a
// sandbox carrier (and recorded in the gateway's line registry), and one mutation called on
// both surfaces so that REST and GraphQL answers can be compared.

import { expect } from 'vitest';
import type { GraphQLAnswer, HttpAnswer, TestGateway } from '../../support/gateway.js';
import { noData } from '../../support/gateway.js';

export { freshSim, seedLine, type SeededLine } from '../../support/lines.js';

export const RESULT_FIELDS = 'status mdn newMdn sim customerId purchaseId transactionId message warning wfcStatus';

const pascal = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const toSnake = (key: string) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** Calls the mutation `field` on GraphQL with one `input` object (camelCase). */
export async function graphqlMutation(gateway: TestGateway, field: string, input: Record<string, unknown>, token?: string): Promise<GraphQLAnswer> {
  return gateway.graphql(`mutation ($input: ${pascal(field)}Input!) { ${field}(input: $input) { ${RESULT_FIELDS} } }`, {
    token,
    variables: { input },
  });
}

/** A GraphQL result envelope in the REST form: snake_case, lower-case status, no null members. */
export function asRestBody(result: Record<string, unknown> | undefined | null): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(result ?? {})) {
    if (value === null) continue;
    body[toSnake(key)] = key === 'status' && typeof value === 'string' ? value.toLowerCase() : value;
  }
  return body;
}

/** The REST input (snake_case) of a camelCase GraphQL input. */
export function snakeInput(input: Record<string, unknown>): Record<string, unknown> {
  const convert = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(convert)
      : typeof value === 'object' && value !== null
        ? Object.fromEntries(Object.entries(value).map(([key, member]) => [toSnake(key), convert(member)]))
        : value;
  return convert(input) as Record<string, unknown>;
}

/** Expects the GraphQL answer to be the REST answer, apart from the transaction id. */
export function expectSameOutcome(rest: HttpAnswer, graphql: GraphQLAnswer, field: string): void {
  expect(graphql.errors).toBeUndefined();
  const body = asRestBody(graphql.data?.[field] as Record<string, unknown>);
  const { transaction_id: restId, ...restRest } = rest.body as Record<string, unknown>;
  const { transaction_id: graphqlId, ...graphqlRest } = body;
  expect(typeof restId).toBe('string');
  expect(typeof graphqlId).toBe('string');
  expect(graphqlRest).toEqual(restRest);
}

/** Expects a GraphQL validation refusal with the issue at `input.<path>`. */
export function expectBadInput(graphql: GraphQLAnswer, path: (string | number)[], type: string, msg?: string): void {
  expect(noData(graphql)).toBe(true);
  const error = graphql.errors?.[0];
  expect(error?.extensions?.code).toBe('BAD_USER_INPUT');
  const issues = error?.extensions?.issues as { type: string; loc: (string | number)[]; msg: string }[];
  expect(issues).toContainEqual(msg === undefined ? expect.objectContaining({ type, loc: ['input', ...path] }) : { type, loc: ['input', ...path], msg });
}
