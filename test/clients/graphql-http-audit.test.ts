// graphql-http's server audit (the GraphQL-over-HTTP spec's own checks) against a real gateway
// port, authenticated through the audit's fetch: every MUST and every SHOULD passes.

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
    results.push({
      id: check.id,
      name: check.name,
      status: result.status,
      reason: result.status === 'ok' ? '' : result.reason,
    });
  }
  return results;
}

describe('graphql-http server audit', () => {
  it('passes every MUST', async () => {
    const results = await audit();
    process.stdout.write(
      `graphql-http audit: ${results.filter((r) => r.status === 'ok').length}/${results.length} ok\n`,
    );
    for (const result of results.filter((r) => r.status !== 'ok'))
      process.stdout.write(`  ${result.status} ${result.name}: ${result.reason}\n`);
    expect(results.filter((result) => result.status === 'error')).toEqual([]);
    // Every SHOULD too: a client accepting only application/json gets its request errors as 200
    // (docs/clients.md), every other client the 4xx of a request refused as a whole.
    expect(results.filter((result) => result.status === 'warn')).toEqual([]);
    expect(results.length).toBeGreaterThan(30);
  });
});
