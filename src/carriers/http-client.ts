// The one way adapters talk HTTP: ky over a shared keep-alive undici Agent per carrier, with
// timeouts, safe retries, and every transport failure turned into a CarrierFault that names
// no URL, header or credential. Each call is timed (line_gateway_carrier_call_duration_seconds)
// and, with tracing on, is a client span whose trace context travels in `traceparent`.

import ky, { HTTPError, TimeoutError, type KyInstance } from 'ky';
import { Agent, type Dispatcher } from 'undici';
import { inSpan } from '../lib/tracing.js';
import { currentCarrierCallScope } from './call-scope.js';
import { CarrierFault } from './errors.js';
import type { CarrierId } from './types.js';

export interface CarrierHttpOptions {
  carrier: CarrierId;
  baseUrl: string;
  /** Sent on every request; values are secrets and are never logged. */
  headers: Record<string, string>;
  timeoutMs: number;
  /** Retries for reads and for writes the carrier de-duplicates by transaction id. */
  retries: number;
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
}

export interface CarrierHttpResponse {
  status: number;
  /** Parsed JSON body (undefined for an empty body). */
  body: unknown;
}

export interface CarrierHttpClient {
  send(request: CarrierHttpRequest): Promise<CarrierHttpResponse>;
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

export function createCarrierHttpClient(options: CarrierHttpOptions): CarrierHttpClient {
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: 64, connect: { timeout: options.timeoutMs } });
  const client: KyInstance = ky.create({
    prefixUrl: options.baseUrl,
    headers: options.headers,
    timeout: options.timeoutMs,
    // HTTP errors are thrown so that ky retries 502/503/504; the answer is then read from the error.
    throwHttpErrors: true,
    retry: { limit: 0 },
    fetch: agentFetch(agent),
  });

  async function send(request: CarrierHttpRequest): Promise<CarrierHttpResponse> {
    const scope = currentCarrierCallScope();
    const operation = scope?.operation ?? 'probe';
    const started = performance.now();
    const observe = (label: string) =>
      scope?.metrics.carrierCalls.observe(
        { carrier: options.carrier, operation, outcome: label },
        (performance.now() - started) / 1000,
      );
    // The path is not recorded: carrier 321's paths hold MDNs.
    const attributes = {
      carrier: options.carrier,
      'carrier.operation': operation,
      'http.request.method': request.method,
    };
    const spanOutcome = ({ value, error }: { value?: CarrierHttpResponse; error?: unknown }) => {
      const label = callOutcome(value, error);
      return { label, failed: label !== 'success' && label !== 'client_error' };
    };
    try {
      const response = await inSpan(
        `carrier ${options.carrier} ${operation}`,
        'client',
        attributes,
        (trace) => sendOnce(request, trace),
        spanOutcome,
      );
      observe(callOutcome(response, undefined));
      return response;
    } catch (error) {
      observe(callOutcome(undefined, error));
      throw error;
    }
  }

  async function sendOnce(request: CarrierHttpRequest, trace: Record<string, string>): Promise<CarrierHttpResponse> {
    const idempotent = request.idempotent ?? request.method === 'GET';
    // Whether the caller can be sure nothing happened when no answer arrives.
    const readOnly = request.readOnly ?? request.method === 'GET';
    const searchParams = request.searchParams
      ? Object.fromEntries(
          Object.entries(request.searchParams).filter((entry): entry is [string, string] => entry[1] !== undefined),
        )
      : undefined;
    let response: Response;
    // Whether an earlier attempt may have reached the carrier (anything but a refused connection).
    let maybeDelivered = false;
    try {
      response = await client(request.path, {
        method: request.method,
        json: request.json,
        searchParams,
        // An explicit `headers: undefined` would drop the instance's credential headers.
        ...(request.headers || trace.traceparent ? { headers: { ...request.headers, ...trace } } : {}),
        retry: idempotent
          ? {
              limit: options.retries,
              methods: [request.method.toLowerCase()],
              statusCodes: [502, 503, 504],
              retryOnTimeout: true,
              backoffLimit: 200,
            }
          : { limit: 0 },
        hooks: { beforeRetry: [({ error }) => void (maybeDelivered ||= !isConnectFailure(error))] },
      });
    } catch (error) {
      if (!(error instanceof HTTPError)) throw toFault(options.carrier, error, readOnly, maybeDelivered);
      response = error.response;
    }
    let text: string;
    try {
      text = await response.text();
    } catch {
      throw new CarrierFault(options.carrier, 'bad_response', readOnly);
    }
    if (text.trim() === '') return { status: response.status, body: undefined };
    try {
      return { status: response.status, body: JSON.parse(text) as unknown };
    } catch {
      throw new CarrierFault(options.carrier, response.status >= 500 ? 'server_error' : 'bad_response', readOnly);
    }
  }

  return { send, close: () => agent.close() };
}

/** Statuses whose response has no body by definition (a Response may not be given one). */
const BODYLESS = new Set([101, 103, 204, 205, 304]);

/**
 * ky's `fetch`, served by `undici.request` on one keep-alive Agent: none of fetch's WHATWG
 * stream machinery per call (measured: `request` does about a third less work per call than
 * undici's `fetch`). ky hands over a global Request and reads a global Response; carrier bodies
 * are small JSON documents, read whole on both sides. A transport failure rejects with undici's
 * error, whose `code` (ECONNREFUSED, UND_ERR_CONNECT_TIMEOUT…) the fault mapping reads.
 */
function agentFetch(agent: Agent): typeof globalThis.fetch {
  return (async (input: Request) => {
    const url = new URL(input.url);
    const answer = await agent.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: input.method as Dispatcher.HttpMethod,
      headers: [...input.headers].flat(),
      body: input.body ? await input.text() : undefined,
      signal: input.signal,
    });
    const text = await answer.body.text();
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (Array.isArray(value)) for (const each of value) headers.append(name, each);
      else if (value !== undefined) headers.append(name, value);
    }
    const body = BODYLESS.has(answer.statusCode) || text === '' ? null : text;
    return new Response(body, { status: answer.statusCode, headers });
  }) as unknown as typeof globalThis.fetch;
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
  // A refused connection never carried the request, so nothing happened, unless an earlier
  // attempt of the same request may have got through before it.
  if (isConnectFailure(error)) return new CarrierFault(carrier, 'unreachable', readOnly || !maybeDelivered);
  return new CarrierFault(carrier, 'unreachable', readOnly);
}
