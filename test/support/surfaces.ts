// Calling both surfaces and asserting that they agree: a mutation on GraphQL with the REST
// call's input, a GraphQL answer in the REST form (and back), and the expectations that a
// REST answer and its GraphQL twin carry the same outcome, the same refusal or the same 422.

import { expect } from 'vitest';
import { convertKeys, toCamel, toSnake } from '../../src/lib/case.js';
import { operations } from '../../src/operations/index.js';
import { noData, type GraphQLAnswer, type HttpAnswer, type TestGateway } from './gateway.js';
import { graphqlForm } from './graphql-form.js';

/** Every member of the operation result envelope (OperationResult). */
export const RESULT_FIELDS = 'status mdn newMdn sim customerId purchaseId transactionId message warning wfcStatus';

const pascal = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Calls the mutation `field` on GraphQL with one `input` object (camelCase), selecting `selection` of its result. */
export function graphqlMutation<Field extends string>(
  gateway: TestGateway,
  field: Field,
  input: Record<string, unknown>,
  token?: string,
  selection = RESULT_FIELDS,
): Promise<GraphQLAnswer<Record<Field, Record<string, unknown>>>> {
  return gateway.graphql(`mutation ($input: ${pascal(field)}Input!) { ${field}(input: $input) { ${selection} } }`, {
    token,
    variables: { input },
  });
}

/** A REST body or input (snake_case keys, deeply) in GraphQL's camelCase. */
export const camelInput = (body: Record<string, unknown>) => convertKeys(body, toCamel) as Record<string, unknown>;

/** A GraphQL input (camelCase keys, deeply) in REST's snake_case. */
export const snakeInput = (input: Record<string, unknown>) => convertKeys(input, toSnake) as Record<string, unknown>;

/** A GraphQL result envelope in the REST form: snake_case, lower-case status, no null members. */
export function asRestBody(result: Record<string, unknown> | undefined | null): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(result ?? {})) {
    if (value === null) continue;
    body[toSnake(key)] = key === 'status' && typeof value === 'string' ? value.toLowerCase() : value;
  }
  return body;
}

/** Drops members a GraphQL selection answers null but REST leaves out. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, member]) => member !== null && member !== undefined)
      .map(([key, member]) => [key, withoutNulls(member)]),
  );
}

/** The GraphQL answer carries the same data as the REST body, in the schema's vocabulary (graphql-form.ts); nulls aside. */
export function expectTwin(restBody: unknown, graphqlData: unknown): void {
  expect(withoutNulls(graphqlData)).toEqual(withoutNulls(graphqlForm(restBody)));
}

/** The GraphQL field `field` carries exactly what the REST answer carried. */
export function expectSameAnswer(rest: HttpAnswer, graphql: GraphQLAnswer, field: string): void {
  expect(graphql.errors).toBeUndefined();
  expect(graphql.data?.[field]).toEqual(graphqlForm(rest.body));
}

/** The GraphQL envelope `field` is the REST answer, apart from the transaction id (each call has its own). */
export function expectSameOutcome(rest: HttpAnswer, graphql: GraphQLAnswer, field: string): void {
  expect(graphql.errors).toBeUndefined();
  const body = asRestBody(graphql.data?.[field] as Record<string, unknown>);
  const { transaction_id: restId, ...restRest } = rest.body as Record<string, unknown>;
  const { transaction_id: graphqlId, ...graphqlRest } = body;
  expect(typeof restId).toBe('string');
  expect(typeof graphqlId).toBe('string');
  expect(graphqlRest).toEqual(restRest);
}

/** The first GraphQL error's code and message. */
export function errorOf(answer: GraphQLAnswer): { code: unknown; message: string | undefined } {
  const error = answer.errors?.[0];
  return { code: error?.extensions?.code, message: error?.message };
}

/**
 * A GraphQL refusal with this code and the status REST gives (`extensions.status`). Over HTTP
 * (GraphQL over HTTP), a request without a valid token is refused whole (401, no data); any
 * other refusal is one field's, in a 200 response that carries data.
 */
export function expectGraphQLError(graphql: GraphQLAnswer, code: string, status: number): void {
  expect(graphql.errors?.[0]?.extensions).toMatchObject({ code, status });
  if (status === 401) expect(graphql).toMatchObject({ status: 401, data: null });
  else expect(graphql.status).toBe(200);
}

/**
 * Where GraphQL locates a member of a root field's input: under the `input` argument of a
 * mutation of the operation table, else at the field's own argument (`usage(mdn:)` → `["mdn"]`).
 */
function graphqlLoc(graphql: GraphQLAnswer, path: (string | number)[]): (string | number)[] {
  const field = graphql.errors?.[0]?.path?.[0];
  const mutation = operations.some((operation) => operation.name === field && operation.kind === 'mutation');
  return mutation ? ['input', ...path] : path;
}

/** A GraphQL validation refusal with the issue at the member `path` (among others). */
export function expectBadInput(graphql: GraphQLAnswer, path: (string | number)[], type: string, msg?: string): void {
  expect(noData(graphql)).toBe(true);
  const error = graphql.errors?.[0];
  expect(error?.extensions?.code).toBe('BAD_USER_INPUT');
  const issues = error?.extensions?.issues as { type: string; loc: (string | number)[]; msg: string }[];
  const loc = graphqlLoc(graphql, path);
  expect(issues).toContainEqual(msg === undefined ? expect.objectContaining({ type, loc }) : { type, loc, msg });
}

/**
 * The 422 on REST with exactly this issue, and BAD_USER_INPUT with the same one issue on
 * GraphQL: at the GraphQL path of the member, its message naming the member as GraphQL does
 * (REST `zip_code must be 5 digits`, GraphQL `zipCode must be 5 digits`).
 */
export function expectInvalid(
  rest: HttpAnswer,
  graphql: GraphQLAnswer | undefined,
  issue: { type: string; loc: (string | number)[]; msg?: string },
): void {
  expect(rest.status).toBe(422);
  const detail = (rest.body as { detail: unknown[] }).detail;
  expect(detail).toEqual([
    issue.msg === undefined ? expect.objectContaining({ type: issue.type, loc: issue.loc }) : issue,
  ]);
  if (!graphql) return;
  expectGraphQLError(graphql, 'BAD_USER_INPUT', 422);
  const [, ...path] = issue.loc;
  const camelPath = path.map((part) => (typeof part === 'string' ? toCamel(part) : part));
  const snakeNames = new Set(path.filter((part): part is string => typeof part === 'string' && part.includes('_')));
  const msg = issue.msg?.replace(/\w+/g, (word) => (snakeNames.has(word) ? toCamel(word) : word));
  expect(graphql.errors?.[0]?.extensions?.issues).toEqual([
    { ...issue, loc: graphqlLoc(graphql, camelPath), ...(msg === undefined ? {} : { msg }) },
  ]);
}

/** The 422 detail list of a REST answer. */
export type Detail = { detail: { loc: (string | number)[]; type: string; msg: string }[] };
