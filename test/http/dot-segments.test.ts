// A request path that a URL parser would rewrite before routing (dot segments, also
// percent-encoded, and backslashes) is answered 404 as it was sent, never resolved to another
// route: a proxy rule on the raw path (`/settings` blocked, `/sim/` allowed) holds behind it.
// Real HTTP: fetch clients resolve dot segments themselves before sending.

import { request } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

let gateway: TestGateway;
let admin: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  ({ token: admin } = await gateway.user({ superuser: true }));
});
afterAll(() => gateway.close());

/** GET of `path` exactly as written; the status. */
function get(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(gateway.url);
    const outgoing = request({ hostname, port, path, headers: { authorization: `Bearer ${admin}` } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode!));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

it.each([
  '/sim/%2e%2e/settings/',
  '/sim/%2E%2E/settings/',
  '/sim/.%2e/settings/',
  '/sim/../settings/',
  '/sim/./usage/3215550001',
  '/x\\..\\settings\\',
  '/settings\\',
  '/a/b/%2e%2e/%2e%2e/docs',
  '/x/%2e%2e/openapi.json',
  '/x/%2e%2e/graphql',
  '/x/%2e%2e/metrics',
  '/x/..',
])('answers %s 404, not the route it resolves to', async (path) => {
  expect(await get(path)).toBe(404);
});

it('still answers the paths themselves, and dots inside a segment', async () => {
  expect(await get('/settings/')).toBe(200);
  expect(await get('/openapi.json')).toBe(200);
  // A dot within a segment is no dot segment: an ordinary unknown MDN (422), not a 404.
  expect(await get('/sim/usage/321.555.0001')).toBe(422);
});
