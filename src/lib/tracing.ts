// OpenTelemetry tracing, off unless OTEL_EXPORTER_OTLP_ENDPOINT is set: then the SDK is loaded
// (W3C trace context, AsyncLocalStorage context, OTLP/HTTP export, service `line-gateway`) and
// the helpers below make spans. Off, the SDK is never imported and every helper returns at
// once: no span objects, no context switching, and nothing injected into carrier requests.

import type { IncomingHttpHeaders } from 'node:http';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
} from '@opentelemetry/api';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';

export const SERVICE_NAME = 'line-gateway';
let enabled = false;

export interface Tracing {
  /** Exports what is buffered and switches tracing off again. */
  shutdown(): Promise<void>;
}

/**
 * Starts tracing for this process: spans go to `endpoint` (OTLP/HTTP, `/v1/traces` appended)
 * or, for tests, to the given span processor.
 */
export async function startTracing(options: { endpoint?: string; spanProcessor?: SpanProcessor }): Promise<Tracing> {
  const [{ NodeTracerProvider }, { BatchSpanProcessor }, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/resources'),
  ]);
  const processors: SpanProcessor[] = [];
  if (options.spanProcessor) processors.push(options.spanProcessor);
  if (options.endpoint) {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    let base = options.endpoint;
    while (base.endsWith('/')) base = base.slice(0, -1);
    processors.push(new BatchSpanProcessor(new OTLPTraceExporter({ url: `${base}/v1/traces` })));
  }
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': SERVICE_NAME }),
    spanProcessors: processors,
  });
  provider.register();
  enabled = true;
  return {
    async shutdown() {
      enabled = false;
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

const tracer = () => trace.getTracer(SERVICE_NAME);

/** Whether spans are recorded (TRACING on): callers skip building a span's name and attributes when not. */
export const tracingEnabled = (): boolean => enabled;

export interface ServerSpan {
  /** Runs the request's handling inside the span's context. */
  run<T>(work: () => T): T;
  end(route: string, status: number): void;
}

const NO_SERVER_SPAN: ServerSpan = { run: (work) => work(), end: () => undefined };

/** The span of one HTTP request, continuing the client's trace when it sent a `traceparent`. */
export function serverSpan(method: string, headers: IncomingHttpHeaders): ServerSpan {
  if (!enabled) return NO_SERVER_SPAN;
  const parent = propagation.extract(ROOT_CONTEXT, headers);
  const span = tracer().startSpan(
    method,
    { kind: SpanKind.SERVER, attributes: { 'http.request.method': method } },
    parent,
  );
  const active = trace.setSpan(parent, span);
  return {
    run: (work) => context.with(active, work),
    end(route, status) {
      span.updateName(`${method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': status });
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
  };
}

/**
 * Runs `work` in a span of its own (a GraphQL operation, a carrier call); `headers` receives
 * the trace context to send on, when `inject` is asked for. `outcome` names how it ended.
 */
export async function inSpan<T>(
  name: string,
  kind: 'internal' | 'client',
  attributes: Attributes,
  work: (headers: Record<string, string>) => Promise<T>,
  outcome: (result: { value?: T; error?: unknown }) => { label: string; failed: boolean },
): Promise<T> {
  if (!enabled) return work({});
  return tracer().startActiveSpan(
    name,
    { kind: kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL, attributes },
    async (span: Span) => {
      const headers: Record<string, string> = {};
      propagation.inject(context.active(), headers);
      try {
        const value = await work(headers);
        close(span, outcome({ value }));
        return value;
      } catch (error) {
        close(span, outcome({ error }));
        throw error;
      }
    },
  );
}

function close(span: Span, { label, failed }: { label: string; failed: boolean }): void {
  span.setAttribute('outcome', label);
  if (failed) span.setStatus({ code: SpanStatusCode.ERROR, message: label });
  span.end();
}
