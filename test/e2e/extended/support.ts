// Shared by the extended-operation tests: seeding lines straight into a sandbox carrier, and
// checking that a GraphQL answer is the REST answer of the same call.

import { expect } from 'vitest';
import { toCamel } from '../../../src/lib/case.js';
import type { GraphQLAnswer, HttpAnswer } from '../../support/gateway.js';
import { graphqlForm } from '../../support/graphql-form.js';

import type { CarrierId } from '../../../src/carriers/types.js';
import type { TestGateway } from '../../support/gateway.js';
import { disconnectSeeded, seedLine as seedRegisteredLine, type SeededLine } from '../../support/lines.js';

export { freshSim } from '../../support/lines.js';

/** A line activated on a sandbox carrier that the gateway's registry does not know (routing falls back to the user and the default). */
export function seedLine(gateway: TestGateway, options: { carrier?: CarrierId; carrierPlanId?: string } = {}): Promise<SeededLine> {
  return seedRegisteredLine(gateway, { ...options, register: false });
}

/** A line disconnected on carrier 321 (every extended line operation then answers 915). */
export async function disconnectedLine(gateway: TestGateway): Promise<SeededLine> {
  const line = await seedLine(gateway);
  await disconnectSeeded(gateway, line);
  return line;
}

/** The GraphQL twin of a REST answer (test/support/graphql-form.ts). */
export function asGraphQL(body: unknown): Record<string, unknown> {
  return graphqlForm(body);
}

/** Expects the GraphQL field `field` to carry what the REST answer carried. */
export function expectSameAnswer(rest: HttpAnswer, graphql: GraphQLAnswer, field: string): void {
  expect(graphql.errors).toBeUndefined();
  expect(graphql.data?.[field]).toEqual(asGraphQL(rest.body));
}

/**
 * Expects a GraphQL refusal with this code and the status REST gives (`extensions.status`). Over
 * HTTP (GraphQL over HTTP), a request without a valid token is refused whole (401, no data); any
 * other refusal is one field's, in a 200 response that carries data.
 */
export function expectGraphQLError(graphql: GraphQLAnswer, code: string, status: number): void {
  expect(graphql.errors?.[0]?.extensions).toMatchObject({ code, status });
  if (status === 401) expect(graphql).toMatchObject({ status: 401, data: null });
  else expect(graphql.status).toBe(200);
}

/** Expects the 422 on REST with exactly this issue, and BAD_USER_INPUT with the same issue (loc under `input`) on GraphQL. */
export function expectInvalid(rest: HttpAnswer, graphql: GraphQLAnswer | undefined, issue: { type: string; loc: (string | number)[]; msg?: string }): void {
  expect(rest.status).toBe(422);
  const detail = (rest.body as { detail: unknown[] }).detail;
  expect(detail).toEqual([issue.msg === undefined ? expect.objectContaining({ type: issue.type, loc: issue.loc }) : issue]);
  if (!graphql) return;
  expectGraphQLError(graphql, 'BAD_USER_INPUT', 422);
  const [, ...path] = issue.loc;
  const camelPath = path.map((part) => (typeof part === 'string' ? toCamel(part) : part));
  expect(graphql.errors?.[0]?.extensions?.issues).toEqual([{ ...issue, loc: ['input', ...camelPath] }]);
}
