// The one way adapters talk HTTP: ky over a shared keep-alive undici Agent per carrier, with
// timeouts, safe retries, and every transport failure turned into a CarrierFault that names
// no URL, header or credential. Each call is timed (line_gateway_carrier_call_duration_seconds)
// and, with tracing on, is a client span whose trace context travels in `traceparent`.

import ky, { HTTPError, TimeoutError, type KyInstance } from 'ky';
import { Agent } from 'undici';
import { inSpan, tracingEnabled } from '../lib/tracing.js';
import type { CarrierCallScope } from './call-scope.js';
import { agentFetch, CarrierAnswer, type CallWire, type WireOptions } from './agent-fetch.js';
import { AnswerTooLargeError } from './text-request.js';
import { CarrierFault, type CarrierFaultKind } from './errors.js';
import { CircuitBreaker, type BreakerHooks, type BreakerSettings } from './circuit-breaker.js';
import type { CarrierId } from './types.js';

export interface CarrierHttpOptions {
  carrier: CarrierId;
  baseUrl: string;
  /** Sent on every request; values are secrets and are never logged. */
  headers: Record<string, string>;
  timeoutMs: number;
  /** Retries for reads and for writes the carrier de-duplicates by transaction id. */
  retries: number;
  /** Calls refused at once while the carrier is not answering (circuit-breaker.ts); none when unset. */
  breaker?: BreakerSettings;
  /** Told when the breaker opens or closes (the log, the metrics). */
  onBreakerChange?: BreakerHooks['onChange'];
  /** The breaker's trial: the carrier's readiness probe (a fresh request each time). */
  breakerTrial?: () => CarrierHttpRequest;
}

export interface CarrierHttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path below the base URL, without a leading slash. */
  path: string;
  json?: unknown;
  searchParams?: Record<string, string | undefined>;
  /**
   * Whether repeating the request cannot do harm: true for reads, and for writes that carry
   * a transaction id the carrier de-duplicates on. Defaults to true for GET only.
   */
  idempotent?: boolean;
  /** True when the request changes nothing at the carrier (default: GET only). */
  readOnly?: boolean;
  /** Per-request headers (e.g. an idempotency key). */
  headers?: Record<string, string>;
  /** A readiness probe: it passes the breaker by and is not counted by it (it says what the carrier answers now). */
  probe?: boolean;
}

export interface CarrierHttpResponse {
  status: number;
  /** Parsed JSON body (undefined for an empty body). */
  body: unknown;
}

export interface CarrierHttpClient {
  send(request: CarrierHttpRequest): Promise<CarrierHttpResponse>;
  /** The same connection, its calls counted under `scope` (the gateway operation they serve). */
  scoped(scope: CarrierCallScope): CarrierHttpClient;
  close(): Promise<void>;
}

const CONNECT_FAILURES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function wireOf(options: object): CallWire | undefined {
  return 'carrierWire' in options ? (options as WireOptions).carrierWire : undefined;
}

const RETRIED_METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The trace context a call sends when tracing is off: none. */
const NO_TRACE: Record<string, string> = Object.freeze({});

/** ky's beforeRetry hook, shared by every call: the call's own state travels in its options. */
function noteAttempt({ options, error }: { options: object; error: Error }): void {
  const wire = wireOf(options);
  if (wire && !isConnectFailure(error)) wire.maybeDelivered = true;
}

/**
 * ky's two instances for one carrier's calls: `retrying` for calls that may be repeated (the
 * retry policy, all methods, one shared `beforeRetry` hook), `once` for the rest. One instance per
 * kind of call, so that a call passes ky only its method and its wire: ky deep-merges an
 * instance's defaults with a call's options (hooks, retry) on every call.
 */
export function carrierKy(
  options: Pick<CarrierHttpOptions, 'baseUrl' | 'timeoutMs' | 'retries'>,
  fetch: typeof globalThis.fetch,
): { once: KyInstance; retrying: KyInstance } {
  const common = {
    prefixUrl: options.baseUrl,
    timeout: options.timeoutMs,
    // HTTP errors are thrown so that ky retries 502/503/504; the answer is then read from the error.
    throwHttpErrors: true,
    fetch,
  };
  return {
    once: ky.create({ ...common, retry: { limit: 0 } }),
    retrying: ky.create({
      ...common,
      retry: {
        limit: options.retries,
        // Only idempotent calls come through this instance, whatever their method.
        methods: RETRIED_METHODS,
        statusCodes: [502, 503, 504],
        retryOnTimeout: true,
        backoffLimit: 200,
      },
      hooks: { beforeRetry: [noteAttempt] },
    }),
  };
}

/** One carrier's keep-alive connection pool: 64 connections kept 10 s, each opened within the call timeout. */
export const carrierAgent = (timeoutMs: number): Agent =>
  new Agent({ keepAliveTimeout: 10_000, connections: 64, connect: { timeout: timeoutMs } });

export function createCarrierHttpClient(options: CarrierHttpOptions): CarrierHttpClient {
  const agent = carrierAgent(options.timeoutMs);
  const base = new URL(options.baseUrl);
  const basePath = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
  const baseHeaders = lowerCased(options.headers);
  const baseHeaderList = Object.entries(baseHeaders).flat();
  const { once, retrying } = carrierKy(options, agentFetch(agent, base.origin));
  const { breaker: breakerSettings, breakerTrial } = options;
  const breaker =
    breakerSettings && breakerSettings.failures > 0 && breakerTrial
      ? new CircuitBreaker(breakerSettings, {
          // The probe alone, sent once: any answer below 500 in its wire format says the carrier is back.
          trial: () => sendOnce(breakerTrial(), NO_TRACE).then((answer) => answer.status < 500),
          onChange: options.onBreakerChange,
        })
      : undefined;

  function wireHeaders(request: CarrierHttpRequest, trace: Record<string, string>): string[] {
    if (!request.headers && request.json === undefined && !trace.traceparent) return baseHeaderList;
    // Assigned, not spread: see lib/merged.ts (headers a carrier call adds after a spread cost ~0.6 µs each).
    const headers = Object.assign({}, baseHeaders, lowerCased(request.headers), lowerCased(trace));
    if (request.json !== undefined) headers['content-type'] ??= 'application/json';
    return Object.entries(headers).flat();
  }

  async function send(request: CarrierHttpRequest, scope: CarrierCallScope | undefined): Promise<CarrierHttpResponse> {
    const operation = scope?.operation ?? 'probe';
    const admission = breaker && !request.probe ? breaker.admit() : undefined;
    if (admission?.kind === 'refused')
      throw new CarrierFault(options.carrier, 'circuit_open', true, admission.retryInMs);
    const started = performance.now();
    let response: CarrierHttpResponse | undefined;
    let failure: unknown;
    try {
      // Without tracing, no span's name, attributes or callbacks are built for the call.
      response = tracingEnabled() ? await sendInSpan(request, operation) : await sendOnce(request, NO_TRACE);
      return response;
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      scope?.metrics.carrierCalls.observe(
        { carrier: options.carrier, operation, outcome: callOutcome(response, failure) },
        (performance.now() - started) / 1000,
      );
      if (admission) breaker!.settle(admission, carrierDown(response, failure));
    }
  }

  function sendInSpan(request: CarrierHttpRequest, operation: string): Promise<CarrierHttpResponse> {
    // The path is not recorded: carrier 321's paths hold MDNs.
    const attributes = {
      carrier: options.carrier,
      'carrier.operation': operation,
      'http.request.method': request.method,
    };
    return inSpan(
      `carrier ${options.carrier} ${operation}`,
      'client',
      attributes,
      (trace) => sendOnce(request, trace),
      ({ value, error }) => {
        const label = callOutcome(value, error);
        return { label, failed: label !== 'success' && label !== 'client_error' };
      },
    );
  }

  async function sendOnce(request: CarrierHttpRequest, trace: Record<string, string>): Promise<CarrierHttpResponse> {
    const idempotent = request.idempotent ?? request.method === 'GET';
    // Whether the caller can be sure nothing happened when no answer arrives.
    const readOnly = request.readOnly ?? request.method === 'GET';
    const query = queryString(request.searchParams);
    const target = query ? `${request.path}?${query}` : request.path;
    const wire: CallWire = {
      method: request.method,
      path: basePath + target,
      headers: wireHeaders(request, trace),
      body: request.json === undefined ? undefined : JSON.stringify(request.json),
      maybeDelivered: false,
    };
    const callOptions: WireOptions & { method: string } = { method: request.method, carrierWire: wire };
    let response: unknown;
    try {
      response = await (idempotent ? retrying : once)(target, callOptions);
    } catch (error) {
      if (!(error instanceof HTTPError)) throw toFault(options.carrier, error, readOnly, wire.maybeDelivered);
      response = error.response;
    }
    // Our fetch answers only CarrierAnswers, which ky hands back as they are.
    if (!(response instanceof CarrierAnswer))
      throw new TypeError('a carrier call answered something else than its fetch');
    const { text } = response;
    if (text.trim() === '') return { status: response.status, body: undefined };
    try {
      return { status: response.status, body: JSON.parse(text) as unknown };
    } catch {
      throw new CarrierFault(options.carrier, response.status >= 500 ? 'server_error' : 'bad_response', readOnly);
    }
  }

  // A client without a scope (readiness probes) is counted nowhere and labelled `probe` in spans.
  const close = () => {
    breaker?.stop();
    return agent.close();
  };
  const clientFor = (scope: CarrierCallScope | undefined): CarrierHttpClient => ({
    send: (request) => send(request, scope),
    scoped: clientFor,
    close,
  });
  return clientFor(undefined);
}

/** The query string as ky would build it (URLSearchParams), undefined values left out. */
function queryString(params: Record<string, string | undefined> | undefined): string {
  if (!params) return '';
  const defined = Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return defined.length === 0 ? '' : new URLSearchParams(defined).toString();
}

function lowerCased(headers: Record<string, string> | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  if (headers) for (const [name, value] of Object.entries(headers)) result[name.toLowerCase()] = value;
  return result;
}

const DOWN_FAULTS = new Set<CarrierFaultKind>(['timeout', 'unreachable', 'server_error']);

/** Whether a call's end says the carrier is not answering (what the breaker counts). */
function carrierDown(response: CarrierHttpResponse | undefined, error: unknown): boolean {
  if (response) return response.status >= 500;
  return error instanceof CarrierFault && DOWN_FAULTS.has(error.kind);
}

/** How a call ended, as a label: the answer's class, or the fault's kind. */
function callOutcome(response: CarrierHttpResponse | undefined, error: unknown): string {
  if (error instanceof CarrierFault) return error.kind;
  if (error !== undefined || !response) return 'error';
  return response.status < 400 ? 'success' : response.status < 500 ? 'client_error' : 'server_error';
}

function isConnectFailure(error: unknown): boolean {
  const code = causeCode(error);
  return code !== undefined && CONNECT_FAILURES.has(code);
}

function toFault(carrier: CarrierId, error: unknown, readOnly: boolean, maybeDelivered: boolean): CarrierFault {
  if (error instanceof TimeoutError) return new CarrierFault(carrier, 'timeout', readOnly);
  if (error instanceof AnswerTooLargeError) return new CarrierFault(carrier, 'bad_response', readOnly);
  // A refused connection never carried the request, so nothing happened, unless an earlier
  // attempt of the same request may have got through before it.
  if (isConnectFailure(error)) return new CarrierFault(carrier, 'unreachable', readOnly || !maybeDelivered);
  return new CarrierFault(carrier, 'unreachable', readOnly);
}
