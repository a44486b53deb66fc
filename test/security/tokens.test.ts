// Tokens signed with the gateway's secret are still refused unless they carry an expiry and
// the id (jti) of a token the gateway issued and has not revoked: on REST and on GraphQL.

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jtiOf, signToken } from '../support/tokens.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

async function refusedOnBothSurfaces(token: string, message: string): Promise<void> {
  const rest = await gateway.rest('GET', '/sim/usage/5550001111', { token });
  expect(rest.status).toBe(401);
  expect(rest.body).toEqual({ detail: message });
  const graphql = await gateway.graphql('{ me { name } }', { token });
  expect(graphql.data?.me ?? null).toBeNull();
  expect(graphql.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  expect(graphql.errors?.[0]?.message).toBe(message);
}

describe('a token signed with the secret', () => {
  it('is refused without exp, even with the jti of a live token', async () => {
    const { user, token } = await gateway.user();
    await refusedOnBothSurfaces(signToken({ sub: user.id, jti: jtiOf(token), exp: null }), 'Token has no expiry (exp)');
  });

  it('is refused with a jti the gateway never issued', async () => {
    const { user } = await gateway.user();
    await refusedOnBothSurfaces(
      signToken({ sub: user.id, jti: randomUUID() }),
      'Token is unknown: its id (jti) was not issued by this gateway',
    );
  });

  it('is accepted with exp and the jti of a live token (the control case)', async () => {
    const { user, token } = await gateway.user();
    const copy = signToken({ sub: user.id, jti: jtiOf(token) });
    expect((await gateway.graphql('{ me { name } }', { token: copy })).errors).toBeUndefined();
  });
});
