// Two Authorization headers in one request (real HTTP: two header lines) are refused on both
// surfaces, whichever comes first: a proxy in front may read the other one, and the gateway must
// not guess who is calling.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { sendRawHeaders } from '../support/raw-headers.js';

let gateway: TestGateway;
let alice: string;
let bob: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  [{ token: alice }, { token: bob }] = [await gateway.user(), await gateway.user()];
});
afterAll(() => gateway.close());

/** Sends `authorizations` as that many header lines; the status and body. */
const send = (path: string, authorizations: string[], body?: string) =>
  sendRawHeaders(
    `${gateway.url}${path}`,
    [
      'host',
      new URL(gateway.url).host,
      ...authorizations.flatMap((value) => ['authorization', value]),
      ...(body ? ['content-type', 'application/json'] : []),
    ],
    body,
  );

it('refuses two Authorization headers on REST and GraphQL, in either order', async () => {
  for (const pair of [
    [`Bearer ${alice}`, `Bearer ${bob}`],
    [`Bearer ${bob}`, `Bearer ${alice}`],
    [`Bearer ${alice}`, `Bearer ${alice}`],
  ]) {
    const rest = await send('/sim/usage/3215550001', pair);
    expect(rest.status).toBe(401);
    expect(JSON.parse(rest.text)).toEqual({
      detail: 'Invalid authentication credentials: more than one Authorization header',
    });
    const graphql = await send('/graphql', pair, JSON.stringify({ query: '{ me { name } }' }));
    expect(graphql.status).toBe(401);
    expect(graphql.text).toContain('more than one Authorization header');
  }
});

it('answers one Authorization header as before (the control case)', async () => {
  const graphql = await send('/graphql', [`Bearer ${alice}`], JSON.stringify({ query: '{ me { name } }' }));
  expect(graphql.status).toBe(200);
  expect(JSON.parse(graphql.text)).toMatchObject({ data: { me: { name: expect.any(String) } } });
});
