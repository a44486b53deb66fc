// graphql-http's server audit (the GraphQL-over-HTTP spec's own checks) against a real gateway
// port, authenticated through the audit's fetch: every MUST passes; the SHOULDs that fail are
// listed in docs/clients.md with the reason, and pinned here so a change is noticed.

import { serverAudits } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

let gateway: TestGateway;
let token: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  ({ token } = await gateway.user());
});
afterAll(() => gateway.close());

async function audit() {
  const authorized: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  const results = [];
  for (const check of serverAudits({ url: `${gateway.url}/graphql`, fetchFn: authorized })) {
    const result = await check.fn();
    results.push({ id: check.id, name: check.name, status: result.status, reason: result.status === 'ok' ? '' : result.reason });
  }
  return results;
}

describe('graphql-http server audit', () => {
  it('passes every MUST', async () => {
    const results = await audit();
    process.stdout.write(`graphql-http audit: ${results.filter((r) => r.status === 'ok').length}/${results.length} ok\n`);
    for (const result of results.filter((r) => r.status !== 'ok')) process.stdout.write(`  ${result.status} ${result.name}: ${result.reason}\n`);
    expect(results.filter((result) => result.status === 'error')).toEqual([]);
    // The contract's deliberate choice: a request refused whole is a 4xx for application/json
    // too (docs/clients.md explains); these three SHOULDs ask for 200 there, and only these fail.
    expect(results.filter((result) => result.status === 'warn').map((result) => result.name)).toEqual([
      'SHOULD use 200 status code on document parsing failure when accepting application/json',
      'SHOULD use 200 status code on document validation failure when accepting application/json',
      'SHOULD use a status code of 200 on variable coercion failure when accepting application/json',
    ]);
    expect(results.length).toBeGreaterThan(30);
  });
});
