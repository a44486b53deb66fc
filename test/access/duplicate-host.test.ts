// Two Host headers in one request (real HTTP: two header lines) are answered 400 on every path,
// as RFC 9112 (3.2) asks: a proxy in front may route by one and this process read the other.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { sendRawHeaders } from '../support/raw-headers.js';

let gateway: TestGateway;
let token: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  ({ token } = await gateway.user());
});
afterAll(() => gateway.close());

/** Sends the flat header list as it is, with the user's token; the status and body. */
const send = (path: string, headers: string[], body?: string) =>
  sendRawHeaders(
    `${gateway.url}${path}`,
    [...headers, 'authorization', `Bearer ${token}`, ...(body ? ['content-type', 'application/json'] : [])],
    body,
  );

const me = JSON.stringify({ query: '{ me { name } }' });

it('answers 400 to two Host headers on REST, GraphQL and the probes, whatever their case or values', async () => {
  const own = new URL(gateway.url).host;
  for (const hosts of [
    ['host', own, 'host', 'evil.example'],
    ['Host', 'evil.example', 'HOST', own],
    ['host', own, 'host', own],
  ]) {
    for (const [path, body] of [['/sim/usage/3215550001'], ['/graphql', me], ['/livez']] as const) {
      const answer = await send(path, hosts, body);
      expect(answer.status, `${path} with ${hosts.join(' ')}`).toBe(400);
      expect(JSON.parse(answer.text)).toEqual({ detail: 'Bad Request' });
    }
  }
});

it('answers one Host header as before (the control case)', async () => {
  const answer = await send('/graphql', ['host', new URL(gateway.url).host], me);
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.text)).toMatchObject({ data: { me: { name: expect.any(String) } } });
  expect((await send('/livez', ['Host', new URL(gateway.url).host])).status).toBe(200);
});
