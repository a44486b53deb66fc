// The plumbing both sandbox carrier servers share: a tiny JSON router over node:http, API-key
// checking, sandbox controls (clock, reset, faults) and fault injection. Each wire format
// supplies only its routes and how it writes an error.

import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SandboxRequest {
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  headers: IncomingHttpHeaders;
}

export interface JsonReply {
  status: number;
  body: unknown;
}

export interface SandboxRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path with `{name}` segments (the form the REST layer and the spec use), e.g. `/v1/subscribers/{msisdn}/balances`. */
  path: string;
  handle(request: SandboxRequest): Promise<JsonReply> | JsonReply;
}

/** Faults applied to carrier routes (never to /_sandbox controls). Rates are 0..1. */
export interface FaultSettings {
  latencyMs: number;
  errorRate: number;
  dropRate: number;
  garbageRate: number;
}

export const NO_FAULTS: FaultSettings = { latencyMs: 0, errorRate: 0, dropRate: 0, garbageRate: 0 };

export interface SandboxControls {
  /** Moves the sandbox clock forward (e.g. past the 30-day reconnect window). */
  advanceClock(milliseconds: number): void;
  now(): Date;
  /** Forgets every line, SIM, purchase and message; back to the seeded state. */
  reset(): void;
  /** How many activation requests reached the carrier for a SIM, and under which transaction ids (read-only). */
  activationCalls(sim: string): { requests: number; transactionIds: string[] };
}

export interface SandboxServerOptions {
  routes: SandboxRoute[];
  /** True when the request carries this carrier's credentials. */
  authenticate(headers: IncomingHttpHeaders): boolean;
  /** The wire format's answer to a request without valid credentials. */
  unauthenticated(): JsonReply;
  /** The wire format's answer for a thrown error (rejections, unknown routes, bad JSON). */
  renderError(error: unknown): JsonReply;
  controls: SandboxControls;
  faults?: FaultSettings;
  random?: () => number;
}

export interface SandboxServer {
  server: Server;
  faults: FaultSettings;
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
}

/** Thrown by routes for malformed requests; rendered by the wire format like any error. */
export class SandboxBadRequest extends Error {
  override readonly name = 'SandboxBadRequest';
}

export class SandboxNotFound extends Error {
  override readonly name = 'SandboxNotFound';
}

interface CompiledRoute extends SandboxRoute {
  /** Per path segment: the parameter's name for `{name}`, else the literal text to match. */
  segments: ({ parameter: string } | { literal: string })[];
}

/** A whole path segment `{name}` is a parameter. */
const PARAMETER = /^\{(\w+)\}$/;

function compile(route: SandboxRoute): CompiledRoute {
  const segments = route.path
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      const parameter = PARAMETER.exec(segment)?.[1];
      return parameter === undefined ? { literal: segment } : { parameter };
    });
  return { ...route, segments };
}

function match(route: CompiledRoute, method: string, segments: string[]): Record<string, string> | null {
  if (route.method !== method || route.segments.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const expected = route.segments[i]!;
    const actual = segments[i]!;
    if ('parameter' in expected) params[expected.parameter] = decodeURIComponent(actual);
    else if (expected.literal !== actual) return null;
  }
  return params;
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return undefined;
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new SandboxBadRequest('Request body is not valid JSON');
  }
}

function controlRoutes(controls: SandboxControls, server: { faults: FaultSettings }): SandboxRoute[] {
  return [
    {
      method: 'GET',
      path: '/_sandbox/clock',
      handle: () => ({ status: 200, body: { now: controls.now().toISOString() } }),
    },
    {
      method: 'POST',
      path: '/_sandbox/clock',
      handle: ({ body }) => {
        const days = Number((body as { advance_days?: unknown } | undefined)?.advance_days ?? 0);
        const seconds = Number((body as { advance_seconds?: unknown } | undefined)?.advance_seconds ?? 0);
        if (!Number.isFinite(days) || !Number.isFinite(seconds))
          throw new SandboxBadRequest('advance_days and advance_seconds must be numbers');
        controls.advanceClock(days * 86_400_000 + seconds * 1000);
        return { status: 200, body: { now: controls.now().toISOString() } };
      },
    },
    {
      method: 'POST',
      path: '/_sandbox/reset',
      handle: () => {
        controls.reset();
        return { status: 200, body: { reset: true } };
      },
    },
    { method: 'GET', path: '/_sandbox/faults', handle: () => ({ status: 200, body: faultsToWire(server.faults) }) },
    {
      method: 'GET',
      path: '/_sandbox/activations/{sim}',
      handle: ({ params }) => {
        const calls = controls.activationCalls(params.sim ?? '');
        return {
          status: 200,
          body: { sim: params.sim, requests: calls.requests, transaction_ids: calls.transactionIds },
        };
      },
    },
    {
      method: 'PUT',
      path: '/_sandbox/faults',
      handle: ({ body }) => {
        server.faults = parseFaults(body);
        return { status: 200, body: faultsToWire(server.faults) };
      },
    },
  ];
}

function faultsToWire(faults: FaultSettings): Record<string, number> {
  return {
    latency_ms: faults.latencyMs,
    error_rate: faults.errorRate,
    drop_rate: faults.dropRate,
    garbage_rate: faults.garbageRate,
  };
}

function parseFaults(body: unknown): FaultSettings {
  const raw = (body ?? {}) as Record<string, unknown>;
  const read = (key: string, max: number): number => {
    const value = raw[key] ?? 0;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > max) {
      throw new SandboxBadRequest(`${key} must be a number between 0 and ${max}`);
    }
    return value;
  };
  return {
    latencyMs: read('latency_ms', 600_000),
    errorRate: read('error_rate', 1),
    dropRate: read('drop_rate', 1),
    garbageRate: read('garbage_rate', 1),
  };
}

export function createSandboxServer(options: SandboxServerOptions): SandboxServer {
  const random = options.random ?? Math.random;
  const state: { faults: FaultSettings } = { faults: { ...(options.faults ?? NO_FAULTS) } };
  const controls = controlRoutes(options.controls, state).map(compile);
  const routes = options.routes.map(compile);

  const server = createServer((request, response) => {
    const send = (reply: JsonReply): void => {
      const payload = JSON.stringify(reply.body ?? null);
      response.writeHead(reply.status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(payload),
      });
      response.end(payload);
    };

    void (async () => {
      const url = new URL(request.url ?? '/', 'http://sandbox.invalid');
      const segments = url.pathname.split('/').filter(Boolean);
      const method = request.method ?? 'GET';
      const isControl = segments[0] === '_sandbox';
      try {
        const body = await readBody(request);
        if (!isControl && !options.authenticate(request.headers)) return send(options.unauthenticated());
        for (const route of isControl ? controls : routes) {
          const params = match(route, method, segments);
          if (!params) continue;
          if (!isControl) {
            const faults = state.faults;
            // Unref'd: a closed sandbox does not stay up for the latency of the requests it was holding.
            if (faults.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, faults.latencyMs).unref());
            if (random() < faults.dropRate) return request.socket.destroy();
            if (random() < faults.errorRate) return send({ status: 503, body: { injected: 'fault' } });
            if (random() < faults.garbageRate) {
              response.writeHead(200, { 'content-type': 'application/json' });
              return response.end('{"truncated": ');
            }
          }
          return send(await route.handle({ params, query: url.searchParams, body, headers: request.headers }));
        }
        throw new SandboxNotFound(`No route for ${method} ${url.pathname}`);
      } catch (error) {
        send(options.renderError(error));
      }
    })();
  });
  server.keepAliveTimeout = 30_000;

  return {
    server,
    get faults() {
      return state.faults;
    },
    set faults(value: FaultSettings) {
      state.faults = value;
    },
    listen(port = 0, host = '127.0.0.1') {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const address = server.address() as AddressInfo;
          resolve(`http://${host.includes(':') ? `[${host}]` : host}:${address.port}`);
        });
      });
    },
    close() {
      return new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}

/** Fault settings from the environment (`SANDBOX_FAULT_*`), for staging and tests. */
export function faultsFromEnvironment(env: NodeJS.ProcessEnv = process.env): FaultSettings {
  return parseFaults({
    latency_ms: env.SANDBOX_FAULT_LATENCY_MS === undefined ? 0 : Number(env.SANDBOX_FAULT_LATENCY_MS),
    error_rate: env.SANDBOX_FAULT_ERROR_RATE === undefined ? 0 : Number(env.SANDBOX_FAULT_ERROR_RATE),
    drop_rate: env.SANDBOX_FAULT_DROP_RATE === undefined ? 0 : Number(env.SANDBOX_FAULT_DROP_RATE),
    garbage_rate: env.SANDBOX_FAULT_GARBAGE_RATE === undefined ? 0 : Number(env.SANDBOX_FAULT_GARBAGE_RATE),
  });
}
