// /metrics as stock dashboards and Prometheus expect it: Node's default metrics under their
// standard names, HTTP requests by route template, GraphQL operations by bounded name, carrier
// calls by carrier/operation/outcome, the gateway's own counters; scraped with METRICS_TOKEN
// only; and no label naming a line, a SIM or a user, after real traffic.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperationLabeller } from '../../src/graphql/operation-label.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { seedLine } from '../support/lines.js';

const METRICS_TOKEN = 'observability-metrics-token-0123456789';
let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway({ env: { METRICS_TOKEN } });
});
afterAll(() => gateway.close());

async function scrape(authorization?: string): Promise<{ status: number; text: string; headers: Headers }> {
  const response = await fetch(`${gateway.url}/metrics`, { headers: authorization ? { authorization } : {} });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

/** Every label value of the exposition. */
function labelValues(text: string): string[] {
  return [...text.matchAll(/[{,][a-z_]+="((?:[^"\\]|\\.)*)"/g)].map((match) => match[1]!);
}

describe('/metrics', () => {
  it('answers the metrics token only: 401 without it, with a wrong one or with a user token', async () => {
    const { token: admin } = await gateway.user({ superuser: true });
    const refused = await scrape();
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('Bearer');
    expect((await scrape(`Bearer ${admin}`)).status).toBe(401);
    expect((await scrape(`Bearer ${METRICS_TOKEN}x`)).status).toBe(401);
    expect((await scrape(`Bearer ${METRICS_TOKEN.slice(0, -1)}`)).status).toBe(401);
    expect((await scrape(`Basic ${METRICS_TOKEN}`)).status).toBe(401);
    const ok = await scrape(`Bearer ${METRICS_TOKEN}`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toContain('text/plain');
  });

  it('is absent (404) when METRICS_TOKEN is unset, whatever token is sent', async () => {
    const bare = await startTestGateway();
    try {
      const { token: admin } = await bare.user({ superuser: true });
      const response = await fetch(`${bare.url}/metrics`, { headers: { authorization: `Bearer ${admin}` } });
      expect(response.status).toBe(404);
    } finally {
      await bare.close();
    }
  });

  it("exposes Node's default metrics under their standard names", async () => {
    const { text } = await scrape(`Bearer ${METRICS_TOKEN}`);
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'process_start_time_seconds',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_version_info',
    ]) {
      expect(text).toMatch(new RegExp(`^${name}(\\{[^}]*\\})? `, 'm'));
    }
    expect(text).not.toContain('line_gateway_process_');
    expect(text).not.toContain('line_gateway_nodejs_');
  });

  it('exposes the recovery gauges of writes held back on their line, 0 when none waits', async () => {
    const { text } = await scrape(`Bearer ${METRICS_TOKEN}`);
    for (const name of ['line_gateway_recovery_waiting_writes', 'line_gateway_recovery_oldest_wait_seconds']) {
      expect(text).toMatch(new RegExp(`^# TYPE ${name} gauge$`, 'm'));
      expect(text).toMatch(new RegExp(`^${name} 0$`, 'm'));
    }
  });

  it('measures HTTP requests by route template, GraphQL operations by name, and carrier calls, with no line or user in any label', async () => {
    const { user, token } = await gateway.user({ name: 'observed-user-name' });
    const line = await seedLine(gateway);
    expect((await gateway.rest('GET', `/sim/usage/${line.mdn}`, { token })).status).toBe(200);
    expect((await gateway.rest('GET', '/sim/usage/5550001111', { token })).status).toBe(400);
    expect((await gateway.rest('GET', `/unknown/${line.mdn}`)).status).toBe(404);
    const named = await gateway.graphql(`query LineUsage($mdn: String!) { line(mdn: $mdn) { mdn } }`, {
      token,
      variables: { mdn: line.mdn },
    });
    expect(named.status).toBe(200);
    expect((await gateway.graphql('{ me { name } }', { token })).status).toBe(200);
    expect((await gateway.graphql(`query q${line.mdn} { me { name } }`, { token })).status).toBe(200);
    const { text } = await scrape(`Bearer ${METRICS_TOKEN}`);

    expect(text).toMatch(
      /^http_request_duration_seconds_count\{method="GET",route="\/sim\/usage\/\{mdn\}",status="200"\} 1$/m,
    );
    expect(text).toMatch(
      /^http_request_duration_seconds_count\{method="GET",route="\/sim\/usage\/\{mdn\}",status="400"\} 1$/m,
    );
    expect(text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="unmatched",status="404"\} 1$/m);
    expect(text).toMatch(/^http_request_duration_seconds_count\{method="POST",route="\/graphql",status="200"\} 3$/m);

    expect(text).toMatch(
      /^graphql_operation_duration_seconds_count\{operation_name="LineUsage",operation_type="query",status="200"\} 1$/m,
    );
    expect(text).toMatch(
      /^graphql_operation_duration_seconds_count\{operation_name="anonymous",operation_type="query",status="200"\} 1$/m,
    );
    // An operation named after a line is not a label.
    expect(text).toMatch(
      /^graphql_operation_duration_seconds_count\{operation_name="invalid",operation_type="query",status="200"\} 1$/m,
    );

    expect(text).toMatch(
      /^line_gateway_carrier_call_duration_seconds_count\{carrier="321",operation="usage",outcome="success"\} [12]$/m,
    );
    expect(text).toMatch(
      /^line_gateway_carrier_call_duration_seconds_count\{carrier="321",operation="usage",outcome="client_error"\} 1$/m,
    );
    expect(text).toMatch(/^line_gateway_operation_seconds_count\{operation="usage",status="200"\} 1$/m);

    const values = labelValues(text);
    expect(values.length).toBeGreaterThan(20);
    expect(values.filter((value) => /\d{10}/.test(value))).toEqual([]);
    expect(
      values.filter((value) => value.includes(user.name) || value.includes(user.id) || value.includes(line.sim)),
    ).toEqual([]);
  });
});

describe('GraphQL operation labels', () => {
  it('keeps well-formed names, refuses others, and caps how many distinct names are kept', () => {
    const label = createOperationLabeller(3);
    expect([
      label(undefined),
      label(''),
      label('Usage'),
      label('9lives'),
      label('a-b'),
      label('x'.repeat(65)),
      label('line3215550001'),
    ]).toEqual(['anonymous', 'anonymous', 'Usage', 'invalid', 'invalid', 'invalid', 'invalid']);
    expect([label('Two'), label('Three'), label('Four'), label('Usage'), label('Two')]).toEqual([
      'Two',
      'Three',
      'other',
      'Usage',
      'Two',
    ]);
  });
});
