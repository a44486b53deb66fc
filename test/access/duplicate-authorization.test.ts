// Two Authorization headers in one request (real HTTP: two header lines) are refused on both
// surfaces, whichever comes first: a proxy in front may read the other one, and the gateway must
// not guess who is calling.

import { request } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

let gateway: TestGateway;
let alice: string;
let bob: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  [{ token: alice }, { token: bob }] = [await gateway.user(), await gateway.user()];
});
afterAll(() => gateway.close());

/** Sends `authorizations` as that many header lines; the status and body. */
function send(path: string, authorizations: string[], body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      `${gateway.url}${path}`,
      {
        method: body ? 'POST' : 'GET',
        // Flat raw headers (then node adds no Host of its own): one line per Authorization value.
        headers: [
          'host',
          new URL(gateway.url).host,
          ...authorizations.flatMap((value) => ['authorization', value]),
          ...(body ? ['content-type', 'application/json'] : []),
        ],
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, text }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

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
