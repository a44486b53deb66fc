// Bearer-token authentication over real HTTP: every way a token can be missing or wrong is
// refused with 401 `{detail}` and `WWW-Authenticate: Bearer` on REST, and UNAUTHENTICATED
// (HTTP 401) on GraphQL; introspection and GraphiQL need no token.

import { generateKeyPairSync } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_JWT_SECRET, noData } from '../support/gateway.js';
import { errorOf } from '../support/surfaces.js';
import { jtiOf, signToken, unsignedToken } from '../support/tokens.js';
import { useGateway } from '../support/use-gateway.js';

let admin: string;

const gateway = useGateway();
beforeAll(async () => {
  ({ token: admin } = await gateway.user({ superuser: true }));
});

/** Asserts both surfaces refuse `authorization` with 401 and, when given, the detail. */
async function expectRefused(authorization: string | undefined, detail?: string | RegExp): Promise<void> {
  const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
  const rest = await gateway.rest('GET', '/sim/usage/3215550001', { headers });
  expect(rest.status).toBe(401);
  expect(rest.headers.get('www-authenticate')).toBe('Bearer');
  expect(Object.keys(rest.body)).toEqual(['detail']);
  expect(typeof rest.body.detail).toBe('string');
  if (detail !== undefined) expect(rest.body.detail).toMatch(detail);

  const response = await gateway.fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query: '{ me { name } }' }),
  });
  const payload = (await response.json()) as {
    data?: unknown;
    errors?: { message: string; extensions?: Record<string, unknown> }[];
  };
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toBe('Bearer');
  expect(noData(payload)).toBe(true);
  expect(payload.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  expect(payload.errors?.[0]?.message).toBe(rest.body.detail);
}

describe('a request without a usable token', () => {
  it('is refused when no token is sent', () => expectRefused(undefined, 'Not authenticated'));

  it.each([
    ['Bearer alone', 'Bearer'],
    ['Bearer and a space', 'Bearer '],
    ['Basic credentials', `Basic ${Buffer.from('alice:secret').toString('base64')}`],
    ['garbage', 'garbage'],
    ['a bearer that is not a JWT', 'Bearer not-a-jwt'],
    ['two tokens', 'Bearer a.b.c d.e.f'],
  ])('is refused for a malformed header: %s', (_name, header) => expectRefused(header, /credentials|authenticated/));
});

describe('a token the gateway did not issue as it is', () => {
  it('is refused when expired (a real jti whose exp has passed)', async () => {
    const { user, token } = await gateway.user();
    const expired = signToken({ sub: user.id, jti: jtiOf(token), exp: Math.floor(Date.now() / 1000) - 60 });
    await expectRefused(`Bearer ${expired}`, 'Token has expired');
  });

  it('is refused when signed with another secret', async () => {
    const { user, token } = await gateway.user();
    await expectRefused(
      `Bearer ${signToken({ sub: user.id, jti: jtiOf(token) }, { secret: 'another-secret-that-is-long-enough-0123456789' })}`,
      'Invalid authentication credentials',
    );
  });

  it('is refused unsigned (alg none), even with the claims of a real token', async () => {
    const { user, token } = await gateway.user();
    await expectRefused(
      `Bearer ${unsignedToken({ sub: user.id, jti: jtiOf(token) })}`,
      'Invalid authentication credentials',
    );
  });

  it('is refused when signed with RS256', async () => {
    const { user, token } = await gateway.user();
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await expectRefused(
      `Bearer ${signToken({ sub: user.id, jti: jtiOf(token) }, { algorithm: 'RS256', key: privateKey })}`,
      'Invalid authentication credentials',
    );
  });

  it('is refused when signed with the right secret but another HMAC algorithm (HS512)', async () => {
    const { user, token } = await gateway.user();
    await expectRefused(
      `Bearer ${signToken({ sub: user.id, jti: jtiOf(token) }, { algorithm: 'HS512', secret: TEST_JWT_SECRET })}`,
      'Invalid authentication credentials',
    );
  });

  it('is refused when its jti was never issued', async () => {
    const { user } = await gateway.user();
    await expectRefused(
      `Bearer ${signToken({ sub: user.id })}`,
      'Token is unknown: its id (jti) was not issued by this gateway',
    );
  });

  it("is refused when its jti belongs to another user's token", async () => {
    const { user } = await gateway.user();
    const { token: other } = await gateway.user();
    await expectRefused(
      `Bearer ${signToken({ sub: user.id, jti: jtiOf(other) })}`,
      'Invalid authentication credentials',
    );
  });

  it('is accepted when hand-signed exactly as the gateway signs (the control case)', async () => {
    const { user, token } = await gateway.user();
    const copy = signToken({ sub: user.id, jti: jtiOf(token) });
    const rest = await gateway.rest('GET', '/sim/usage/5550001111', { token: copy });
    expect(rest.status).toBe(400);
  });
});

describe('a token issued by the gateway and later withdrawn', () => {
  it('is refused once expired (issued with a 1 s lifetime)', async () => {
    const { user } = await gateway.user();
    const { token } = await gateway.app.services.tokens.issue(user, '1s');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await expectRefused(`Bearer ${token}`, 'Token has expired');
  });

  it('is refused once expired even after it was accepted (its verified signature is remembered only until exp)', async () => {
    const { user } = await gateway.user();
    // 2 s: `exp` is whole seconds after a truncated `iat`, so at least 1 s remains for the first use.
    const { token } = await gateway.app.services.tokens.issue(user, '2s');
    const before = await gateway.rest('GET', '/sim/usage/5550001111', { token });
    expect(before.status).not.toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    await expectRefused(`Bearer ${token}`, 'Token has expired');
  });

  it('is refused after services.tokens.revoke', async () => {
    const { token } = await gateway.user();
    await gateway.app.services.tokens.revoke(token);
    await expectRefused(`Bearer ${token}`, 'Token has been revoked');
  });

  it('is refused at once after the revokeToken mutation, even when it was just used', async () => {
    const { token } = await gateway.user();
    expect((await gateway.graphql('{ me { name } }', { token })).errors).toBeUndefined();
    const revoked = await gateway.graphql<{ revokeToken: { id: string } }>(
      'mutation ($token: String!) { revokeToken(input: { token: $token }) { id } }',
      {
        token: admin,
        variables: { token: jtiOf(token) },
      },
    );
    expect(revoked.errors).toBeUndefined();
    expect(revoked.data?.revokeToken.id).toBe(jtiOf(token));
    await expectRefused(`Bearer ${token}`, 'Token has been revoked');
  });

  it('is refused once its user is deactivated (updateUser active: false)', async () => {
    const { user, token } = await gateway.user();
    expect((await gateway.graphql('{ me { name } }', { token })).errors).toBeUndefined();
    const update = await gateway.graphql(
      'mutation ($name: String!) { updateUser(input: { name: $name, active: false }) { active } }',
      {
        token: admin,
        variables: { name: user.name },
      },
    );
    expect(update.errors).toBeUndefined();
    expect(update.data).toEqual({ updateUser: { active: false } });
    await expectRefused(`Bearer ${token}`, 'User is deactivated');
    // And no new token can be issued for them.
    const issue = await gateway.graphql('mutation ($user: String!) { issueToken(input: { user: $user }) { token } }', {
      token: admin,
      variables: { user: user.name },
    });
    expect(errorOf(issue).message).toMatch(/deactivated/);
  });
});

describe('what needs no token', () => {
  it('refuses introspection without a token by default (INTROSPECTION=authenticated), and answers it with one', async () => {
    const query = '{ __schema { queryType { name } mutationType { name } } }';
    const anonymous = await gateway.graphql(query);
    expect(anonymous).toMatchObject({ status: 401, data: null });
    expect(errorOf(anonymous).code).toBe('UNAUTHENTICATED');
    const { token } = await gateway.user();
    const answer = await gateway.graphql(query, { token });
    expect(answer.status).toBe(200);
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({ __schema: { queryType: { name: 'Query' }, mutationType: { name: 'Mutation' } } });
  });

  it('serves GraphiQL without a token and without any CDN', async () => {
    const response = await gateway.fetch('/graphql', { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    const html = await response.text();
    expect(html).toMatch(/graphiql/i);
    // The page inlines GraphiQL (its bundle contains the letters "cdn" in entity tables), so
    // look at what it would fetch: no URL on a CDN, and no script or stylesheet from elsewhere.
    const hosts = [...html.matchAll(/https?:\/\/([a-z0-9.-]+)/gi)].map((match) => match[1]!);
    expect(hosts.filter((host) => /unpkg|jsdelivr|cdn/i.test(host))).toEqual([]);
    expect(html).not.toMatch(/<script[^>]+src=["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/<link[^>]+href=["']?(https?:)?\/\//i);
  });

  it('answers /healthz without a token', async () => {
    const health = await gateway.rest('GET', '/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({
      status: 'ok',
      checks: { database: 'ok', redis: 'not configured', carriers: { '321': 'ok', carrier_b: 'ok' } },
    });
  });

  it('refuses a real query sent with introspection as a whole: 401, no data', async () => {
    const answer = await gateway.graphql('{ __typename me { name } }');
    expect(answer).toMatchObject({ status: 401, data: null });
    expect(errorOf(answer).code).toBe('UNAUTHENTICATED');
  });
});
