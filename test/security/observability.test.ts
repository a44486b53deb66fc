// Regression tests for issue 10 item 4's findings: no credential in any log line, even at debug
// and even when a carrier fails; access lines and metric labels never carry an MDN; /metrics
// takes a dedicated token of at least 32 characters, never a user's; no traceparent leaves the
// gateway while tracing is off.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/lib/logger.js';
import { eventually } from '../support/eventually.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { startRecordingServer, type RecordingServer } from '../support/recording-server.js';

const API_KEY = 'carrier-321-api-key-that-must-never-be-logged';
const METRICS_TOKEN = 'security-metrics-token-0123456789abcdef';
const MDN = '3215550001';

describe('credentials and lines in what the gateway writes', () => {
  let carrier: RecordingServer;
  let gateway: TestGateway;
  const raw: string[] = [];

  beforeAll(async () => {
    carrier = await startRecordingServer(() => ({
      status: 503,
      body: { error: { code: 'DOWN', description: `key ${API_KEY}` } },
    }));
    gateway = await startTestGateway({
      env: {
        CARRIER_321_URL: carrier.url,
        CARRIER_321_API_KEY: API_KEY,
        CARRIER_RETRIES: '0',
        METRICS_TOKEN,
        LOG_LEVEL: 'debug',
      },
      logger: createLogger('debug', (line) => raw.push(line)),
    });
  });
  afterAll(async () => {
    await gateway.close();
    await carrier.close();
  });

  it('logs no token, API key or metrics token, whatever the requests carried', async () => {
    const { token } = await gateway.user();
    await gateway.rest('GET', `/sim/usage/${MDN}`, { token, headers: { 'x-request-id': 'sec-1' } });
    await gateway.rest('GET', `/sim/usage/${MDN}`, {
      headers: { authorization: 'Bearer forged.token.value', 'x-request-id': 'sec-2' },
    });
    await gateway.graphql('{ me { name } }', { token });
    await fetch(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    await fetch(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(
      await eventually(async () => raw.filter((line) => line.includes('"message":"request"')).length >= 5, 5_000),
    ).toBe(true);
    const text = raw.join('\n');
    for (const secret of [token, API_KEY, METRICS_TOKEN, 'forged.token.value']) expect(text).not.toContain(secret);
    expect(carrier.requests.every((request) => request.headers.traceparent === undefined)).toBe(true);
  });

  it('names no MDN in access lines or metric labels', async () => {
    const access = raw.filter((line) => line.includes('"message":"request"'));
    expect(access.length).toBeGreaterThanOrEqual(5);
    // The MDN itself, not any 10 digits: a request id (a UUID) may hold a run of 10 digits by chance.
    for (const line of access) expect(line).not.toContain(MDN);
    const metrics = await (
      await fetch(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text();
    const labels = [...metrics.matchAll(/[{,][a-z_]+="([^"]*)"/g)].map((match) => match[1]!);
    expect(labels).toContain('/sim/usage/{mdn}');
    expect(labels.filter((label) => /\d{10}/.test(label))).toEqual([]);
  });
});

describe('METRICS_TOKEN', () => {
  it('must be at least 32 characters', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short-token' })).toThrow(/METRICS_TOKEN/);
    expect(loadConfig({ METRICS_TOKEN: 'x'.repeat(32) }).METRICS_TOKEN).toBe('x'.repeat(32));
    expect(loadConfig({ METRICS_TOKEN: '' }).METRICS_TOKEN).toBeUndefined();
  });

  it('refuses an OTLP endpoint that is not an http(s) URL', () => {
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel:4318' }).OTEL_EXPORTER_OTLP_ENDPOINT).toBe(
      'http://otel:4318',
    );
  });
});
