// Starts the real gateway for a test: a fresh database (SQLite file, or a fresh PostgreSQL
// schema), in-process sandbox carriers, and either no port at all (requests go through
// `gateway.handle`, the same edge without a socket: the default) or a real port on 127.0.0.1
// (`listen: true`, for tests of the HTTP layer itself); plus small clients for REST and GraphQL
// and helpers to create users, plans and tokens.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { startApplication, type Application } from '../../src/app/application.js';
import type { CarrierId } from '../../src/carriers/types.js';
import { loadConfig } from '../../src/config.js';
import type { PlanInput, UserRecord } from '../../src/directory/types.js';
import type { Logger } from '../../src/lib/logger.js';
import { createGateway, type Gateway } from '../../src/server.js';
import type { SandboxCarriers } from '../../src/sandbox/start.js';
import { createPostgresSchema, type PostgresSchema } from './postgres.js';

export interface HttpAnswer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export interface GraphQLAnswer<T = Record<string, unknown>> {
  status: number;
  data: T | null;
  errors: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[] | undefined;
}

/** True when no field of the answer produced data (GraphQL nulls refused nullable root fields). */
export function noData(answer: { data?: unknown }): boolean {
  return (
    answer.data === null ||
    answer.data === undefined ||
    Object.values(answer.data as Record<string, unknown>).every((value) => value === null)
  );
}

/**
 * GraphQL over HTTP: the response's HTTP status, and the status REST would give, carried by its
 * first error as `extensions.status`. A refused field leaves data (`{ field: null }`), so the
 * response is 200; only a request refused as a whole (no data) takes the refusal's status.
 */
export function statusesOf(answer: GraphQLAnswer): { http: number; rest: unknown } {
  return { http: answer.status, rest: answer.errors?.[0]?.extensions?.status };
}

export interface TestGateway {
  /** The base URL: a real one with `listen: true`; otherwise one that only `fetch` below understands. */
  url: string;
  /** True when the gateway listens on a real port (and `url` can be given to any HTTP client). */
  listening: boolean;
  /** A request to `path` through the gateway's transport (in-process or its port); redirects are not followed. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** The gateway's in-process entry point (`gateway.handle` in src/server.ts), listening or not. */
  handle(request: Request): Promise<Response>;
  /** The connection caps applied and the connections they count (src/http/connection-limits.ts). */
  connections: Gateway['connections'];
  app: Application;
  sandboxes: SandboxCarriers;
  /** REST call; `body` is sent as JSON (a string is sent as it is). */
  rest<T = Record<string, unknown>>(
    method: string,
    path: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<HttpAnswer<T>>;
  graphql<T = Record<string, unknown>>(
    query: string,
    options?: { token?: string; variables?: Record<string, unknown> },
  ): Promise<GraphQLAnswer<T>>;
  /** A user and a token for them; plans are created when missing and authorized. */
  user(options?: {
    superuser?: boolean;
    carrier?: CarrierId;
    plans?: string[];
    name?: string;
  }): Promise<{ user: UserRecord; token: string }>;
  plan(input: PlanInput): Promise<void>;
  close(): Promise<void>;
}

export interface TestGatewayOptions {
  database?: 'sqlite' | 'postgresql';
  env?: Record<string, string>;
  /** Receives the gateway's log (default: LOG_LEVEL silent). */
  logger?: Logger;
  /** Listen on a real port instead of answering in-process (default false for startGateway). */
  listen?: boolean;
}

/** The base of in-process request URLs (never resolved: nothing listens there). */
const IN_PROCESS_URL = 'http://gateway.in-process';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

/** A gateway on a real port: the HTTP layer itself is under test, or a client library needs a URL. */
export function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  return startGateway({ listen: true, ...options });
}

/** A gateway answering in-process by default (`listen: true` for a real port). */
export async function startGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const dir = mkdtempSync(join(tmpdir(), 'line-gateway-test-'));
  let postgres: PostgresSchema | null = null;
  let databaseUrl = `file:${join(dir, 'gateway.db')}`;
  if (options.database === 'postgresql') {
    postgres = await createPostgresSchema();
    databaseUrl = postgres.url;
  }
  const env = {
    DATABASE_URL: databaseUrl,
    DATA_DIR: dir,
    JWT_SECRET: TEST_JWT_SECRET,
    LOG_LEVEL: 'silent',
    // Tests that inject carrier faults on purpose, many in a row in one gateway, test what each
    // fault does; the breaker (on by default) would turn the later ones away. Its own tests
    // (test/e2e/carrier-breaker.test.ts) switch it on.
    CARRIER_BREAKER_FAILURES: '0',
    ...options.env,
  };
  const config = loadConfig(env);
  const app = await startApplication(config, { env, logger: options.logger });
  const gateway = createGateway(app.services, { ready: () => true });
  const listening = options.listen ?? false;
  const url = listening ? await gateway.listen(0, '127.0.0.1') : IN_PROCESS_URL;
  let counter = 0;

  const send: TestGateway['fetch'] = (path, init = {}) =>
    listening
      ? fetch(url + path, { redirect: 'manual', ...init })
      : gateway.handle(new Request(url + path, { redirect: 'manual', ...init }));

  const rest: TestGateway['rest'] = async (method, path, { token, body, headers = {} } = {}) => {
    const response = await send(path, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as never };
  };

  const graphql: TestGateway['graphql'] = async (query, { token, variables } = {}) => {
    const response = await send('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    const payload = (await response.json()) as { data?: unknown; errors?: GraphQLAnswer['errors'] };
    return { status: response.status, data: (payload.data ?? null) as never, errors: payload.errors };
  };

  const plan: TestGateway['plan'] = async (input) => {
    const existing = await app.services.directory.plan(input.planId);
    if (!existing) await app.services.directory.createPlan(input);
  };

  const user: TestGateway['user'] = async ({ superuser = false, carrier, plans = [], name } = {}) => {
    const created = await app.services.directory.createUser({
      name: name ?? `user${++counter}-${randomBytes(3).toString('hex')}`,
      superuser,
      carrierPreference: carrier ?? null,
    });
    for (const planId of plans) await plan({ planId, name: planId, carrierPlanId: `SOC-${planId}` });
    if (plans.length > 0) await app.services.directory.authorize(created.name, plans);
    const { token } = await app.services.tokens.issue(created, '1h');
    return { user: created, token };
  };

  return {
    url,
    listening,
    fetch: send,
    handle: gateway.handle,
    connections: gateway.connections,
    app,
    sandboxes: app.carriers.sandboxes!,
    rest,
    graphql,
    user,
    plan,
    async close() {
      await gateway.close(1000);
      await app.close();
      await postgres?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A second gateway on the database of `first` (same JWT secret): another replica, listening on a port when `first` does. */
export function startReplica(
  first: TestGateway,
  env: Record<string, string> = {},
  options: Omit<TestGatewayOptions, 'env'> = {},
): Promise<TestGateway> {
  return startGateway({
    listen: first.listening,
    ...options,
    env: { DATABASE_URL: first.app.services.config.DATABASE_URL, ...env },
  });
}
