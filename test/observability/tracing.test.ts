// OpenTelemetry tracing: off by default (no traceparent ever reaches a carrier); on, a REST or
// GraphQL request that carries a W3C traceparent gets a server span in the client's trace,
// every carrier call a client span under it, and the carrier receives a traceparent in that
// same trace. Spans are caught with the SDK's in-memory exporter (startTracing's test seam);
// the OTLP/HTTP export itself is checked against a recording collector.

import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracing, type Tracing } from '../../src/lib/tracing.js';
import { eventually } from '../support/eventually.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { startRecordingServer, type RecordingServer } from '../support/recording-server.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${CLIENT_SPAN_ID}-01`;
const MDN = '3215550001';
/** Carrier 321 refusing every call (a known answer: REST 400), so each request makes one call. */
const REFUSAL = { status: 404, body: { error: { code: 'NOT_FOUND', description: 'No such subscriber' } } };

async function carrierGateway(carrier: RecordingServer): Promise<TestGateway> {
  return startTestGateway({
    env: { CARRIER_321_URL: carrier.url, CARRIER_321_API_KEY: 'key-321', CARRIER_RETRIES: '0' },
  });
}

describe('with tracing off (the default)', () => {
  it('sends no traceparent to the carrier, even when the client sent one', async () => {
    const carrier = await startRecordingServer(() => REFUSAL);
    const gateway = await carrierGateway(carrier);
    try {
      const { token } = await gateway.user();
      expect(
        (await gateway.rest('GET', `/sim/usage/${MDN}`, { token, headers: { traceparent: TRACEPARENT } })).status,
      ).toBe(400);
      expect(carrier.requests).toHaveLength(1);
      expect(carrier.requests[0]!.headers.traceparent).toBeUndefined();
    } finally {
      await gateway.close();
      await carrier.close();
    }
  });
});

describe('with tracing on', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  let carrier: RecordingServer;
  let gateway: TestGateway;
  let token: string;

  beforeAll(async () => {
    tracing = await startTracing({ spanProcessor: new SimpleSpanProcessor(exporter) });
    carrier = await startRecordingServer(() => REFUSAL);
    gateway = await carrierGateway(carrier);
    ({ token } = await gateway.user());
  });
  afterAll(async () => {
    await gateway.close();
    await carrier.close();
    await tracing.shutdown();
  });

  const spans = () => exporter.getFinishedSpans();
  const serverSpanOf = (route: string) =>
    spans().find((span) => span.kind === SpanKind.SERVER && span.attributes['http.route'] === route);

  it("continues the client's trace in a server span, with a carrier-call child span and a traceparent to the carrier", async () => {
    exporter.reset();
    carrier.requests.length = 0;
    expect(
      (await gateway.rest('GET', `/sim/usage/${MDN}`, { token, headers: { traceparent: TRACEPARENT } })).status,
    ).toBe(400);
    expect(await eventually(async () => serverSpanOf('/sim/usage/{mdn}') !== undefined, 5_000)).toBe(true);
    const server = serverSpanOf('/sim/usage/{mdn}')!;
    expect(server.spanContext().traceId).toBe(TRACE_ID);
    expect(server.parentSpanContext?.spanId).toBe(CLIENT_SPAN_ID);
    expect(server.name).toBe('GET /sim/usage/{mdn}');
    expect(server.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/sim/usage/{mdn}',
      'http.response.status_code': 400,
    });

    const calls = spans().filter((span) => span.kind === SpanKind.CLIENT);
    expect(calls).toHaveLength(1);
    const call = calls[0]!;
    expect(call.spanContext().traceId).toBe(TRACE_ID);
    expect(call.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    expect(call.attributes).toMatchObject({ carrier: '321', 'carrier.operation': 'usage', outcome: 'client_error' });

    expect(carrier.requests).toHaveLength(1);
    expect(carrier.requests[0]!.headers.traceparent).toBe(`00-${TRACE_ID}-${call.spanContext().spanId}-01`);
    // No span names or attributes carry the MDN.
    expect(JSON.stringify(spans().map((span) => [span.name, span.attributes]))).not.toContain(MDN);
  });

  it('starts a new trace when the client sent none, or an invalid traceparent', async () => {
    exporter.reset();
    carrier.requests.length = 0;
    await gateway.rest('GET', `/sim/usage/${MDN}`, { token, headers: { traceparent: '00-not-a-trace-01' } });
    expect(await eventually(async () => serverSpanOf('/sim/usage/{mdn}') !== undefined, 5_000)).toBe(true);
    const server = serverSpanOf('/sim/usage/{mdn}')!;
    expect(server.parentSpanContext).toBeUndefined();
    expect(carrier.requests[0]!.headers.traceparent).toContain(server.spanContext().traceId);
  });

  it('puts a GraphQL operation span between the request and its carrier calls', async () => {
    exporter.reset();
    const response = await fetch(`${gateway.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, traceparent: TRACEPARENT },
      body: JSON.stringify({
        query: 'query Usage($mdn: String!) { usage(mdn: $mdn) { customerId } }',
        variables: { mdn: MDN },
      }),
    });
    await response.text();
    expect(await eventually(async () => serverSpanOf('/graphql') !== undefined, 5_000)).toBe(true);
    const server = serverSpanOf('/graphql')!;
    const operation = spans().find((span) => span.name === 'graphql query Usage') as ReadableSpan;
    expect(operation).toBeDefined();
    expect(operation.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    expect(operation.attributes).toMatchObject({
      'graphql.operation.name': 'Usage',
      'graphql.operation.type': 'query',
    });
    const call = spans().find((span) => span.kind === SpanKind.CLIENT);
    expect(call?.parentSpanContext?.spanId).toBe(operation.spanContext().spanId);
    expect(server.spanContext().traceId).toBe(TRACE_ID);
  });
});

describe('with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('exports spans as OTLP/HTTP to <endpoint>/v1/traces under service line-gateway', async () => {
    const collector = await startRecordingServer(() => ({ status: 200, body: {} }));
    const memory = new InMemorySpanExporter();
    const tracing = await startTracing({
      endpoint: `${collector.url}/`,
      spanProcessor: new SimpleSpanProcessor(memory),
    });
    const gateway = await startTestGateway();
    try {
      await gateway.rest('GET', '/livez', { headers: { traceparent: TRACEPARENT } });
      // The span ends with the access record (on close); shutting down flushes the batch.
      expect(await eventually(async () => memory.getFinishedSpans().length > 0, 5_000)).toBe(true);
      await tracing.shutdown();
      expect(collector.requests).toHaveLength(1);
      const exported = collector.requests[0]!;
      expect(exported.method).toBe('POST');
      expect(exported.url).toBe('/v1/traces');
      const text = JSON.stringify(exported.body);
      expect(text).toContain(TRACE_ID);
      expect(text).toContain('line-gateway');
      expect(text).toContain('GET /livez');
    } finally {
      await gateway.close();
      await collector.close();
    }
  });
});
