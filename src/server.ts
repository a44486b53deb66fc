// Builds the gateway's HTTP server: GraphQL at /graphql (graphql/edge.ts: the direct lane and
// Yoga, GraphiQL's page compressed and cacheable), the REST compatibility routes, /livez and
// /readyz (alias /healthz), behind one edge for both surfaces (src/http/: connection caps, body
// limit, content codings, CORS, compression, timeouts, access records); listening is main.ts's job.

import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGraphQLEdge, type GraphQLServices } from './graphql/edge.js';
import type { GraphQLServerContext } from './graphql/server-context.js';
import { sendJson, type BodyLimits } from './http/json.js';
import { childLogger, type Logger } from './lib/logger.js';
import { quote } from './lib/quote.js';
import { serverSpan } from './lib/tracing.js';
import { recordAccess, UNMATCHED_ROUTE, type AccessRecord } from './http/access-log.js';
import { BodyTooLargeError, declaresTooLarge, discardUnread, tooLargeHeaders } from './http/body-limit.js';
import { createCors } from './http/cors.js';
import {
  UnsupportedContentEncodingError,
  unencodedOnlyHeaders,
  unsupportedContentCoding,
} from './http/content-encoding.js';
import { graphQLRefusal, sendGraphQLRefusal } from './http/graphql-request.js';
import { createReadiness } from './http/health.js';
import { inProcessHandler } from './http/in-process.js';
import { applyIdleTimeout, serverOptions } from './http/timeouts.js';
import { applyConnectionLimits, connectionCaps, type ConnectionLimits } from './http/connection-limits.js';
import { createApiDocs } from './rest/api-docs.js';
import { createMetricsEndpoint } from './http/metrics-endpoint.js';
import { compressResponse } from './http/compression.js';
import { operations } from './operations/index.js';
import { createRequestContext, type RequestContext } from './pipeline/request-context.js';
import { logRefusal, writeRestError } from './rest/error-response.js';
import { handleRest } from './rest/handler.js';
import { compileRoutes } from './rest/routes.js';

/** What the server runs on: the pipeline's services and the GraphQL edge's own. */
export type GatewayServices = GraphQLServices;

export interface Gateway {
  server: Server;
  /** The connection caps applied (per client address, in all) and what the per-client cap counts. */
  connections: ConnectionLimits;
  /** Answers a request in-process through the same edge, without a port (the server need not listen). */
  handle(request: Request): Promise<Response>;
  /** Listens and resolves with the base URL. */
  listen(port: number, host: string): Promise<string>;
  /**
   * Stops accepting, completes every open subscription at once, lets in-flight requests finish
   * (up to graceMs), then closes.
   */
  close(graceMs?: number): Promise<void>;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** The path of a request target; null when it is not origin-form (`/…`) or absolute-form. */
function parseTarget(target: string): URL | null {
  try {
    // Origin-form is resolved against a fixed base: `//host/path` must stay a path, not a host.
    return target.startsWith('/') ? new URL(`http://gateway.invalid${target}`) : new URL(target);
  } catch {
    return null;
  }
}

/**
 * A request target whose path a URL parser would rewrite before routing: a dot segment (also
 * percent-encoded: `%2e%2e`) or a backslash. Refused (404) instead of resolved, so that a rule
 * a proxy in front applies to the raw path (`/sim/...` allowed, `/settings` blocked) holds here.
 */
function rewritesPath(target: string): boolean {
  const path = target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').split(/[?#]/, 1)[0]!;
  return path.includes('\\') || /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i.test(path);
}

/**
 * More than one Host header: RFC 9112 (3.2) has a server answer 400, since the proxies in front
 * and this process may each pick a different one. Node keeps the first and drops the others.
 */
function hasDuplicateHost(rawHeaders: string[]): boolean {
  let seen = 0;
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const name = rawHeaders[index]!;
    if (name.length === 4 && name.toLowerCase() === 'host' && ++seen > 1) return true;
  }
  return false;
}

/** Paths answered by a fixed handler: their path is their route label. */
const FIXED_ROUTES = new Set([
  '/graphql',
  '/livez',
  '/readyz',
  '/healthz',
  '/metrics',
  '/openapi.json',
  '/docs',
  '/docs/',
]);

/** One request as the edge sees it: its id, its logger (carrying the id) and its access record. */
interface Edge {
  requestId: string;
  log: Logger;
  record: AccessRecord;
}

export function createGateway(services: GatewayServices, options: { ready: () => boolean }): Gateway {
  const { config } = services;
  const metrics = createMetricsEndpoint(config.METRICS_TOKEN, services.metrics.registry);
  const routes = compileRoutes(operations);
  const apiDocs = createApiDocs(operations);
  const limits: BodyLimits = { maxBytes: config.MAX_BODY_BYTES, maxDepth: config.MAX_JSON_DEPTH };
  const cors = createCors({
    origins: config.CORS_ORIGINS,
    methods: [...new Set(['GET', 'POST', ...routes.map((route) => route.method)])],
  });
  const readiness = createReadiness({
    started: options.ready,
    queryDatabase: () => services.db.$queryRawUnsafe('SELECT 1'),
    pingRedis: services.redis ? () => services.redis!.ping() : null,
    carriers: services.carriers,
    cacheMs: config.READINESS_CACHE_MS,
    timeoutMs: config.READINESS_TIMEOUT_MS,
  });
  // Aborted by close(): open subscriptions complete instead of holding the drain to its deadline.
  const draining = new AbortController();
  // Every open subscription listens (and stops listening when it ends): many are not a leak.
  setMaxListeners(0, draining.signal);
  const graphqlEdge = createGraphQLEdge(services, limits, draining.signal);

  const inFlight = new Set<ServerResponse>();
  const server = createServer(serverOptions(config), (request, response) => {
    inFlight.add(response);
    const requestId = requestIdOf(request);
    // Every line about this request carries its id; the route is learned while answering.
    const log = childLogger(services.logger, { requestId });
    const record: AccessRecord = { route: UNMATCHED_ROUTE };
    const span = serverSpan(request.method ?? 'GET', request.headers);
    response.once('close', () => inFlight.delete(response));
    recordAccess(request, response, record, log, services.metrics, (status) => span.end(record.route, status));
    response.setHeader('x-request-id', requestId);
    compressResponse(request, response);
    span.run(() => void handle(request, response, { requestId, log, record }));
  });
  applyIdleTimeout(server, config);
  const connections = applyConnectionLimits(server, connectionCaps(config), services);

  async function handle(request: IncomingMessage, response: ServerResponse, edge: Edge): Promise<void> {
    const { requestId, log, record } = edge;
    const url = parseTarget(request.url ?? '/');
    if (!url || hasDuplicateHost(request.rawHeaders)) return sendJson(response, 400, { detail: 'Bad Request' });
    const notFound = () => {
      // Digit runs are masked: an unknown path may still carry an MDN or ICCID, which no log line names.
      logRefusal(
        { logger: log, requestId },
        404,
        'NOT_FOUND',
        `No route ${quote(url.pathname.replace(/\d{4,}/g, '#'), 128)}`,
      );
      sendJson(response, 404, { detail: 'Not Found' });
    };
    if (rewritesPath(request.url ?? '/')) return notFound();
    const graphql = url.pathname === '/graphql';
    try {
      if (cors.handle(request, response)) return;
      if (declaresTooLarge(request, limits.maxBytes)) throw new BodyTooLargeError();
      const coding = unsupportedContentCoding(request);
      if (coding !== null) throw new UnsupportedContentEncodingError(coding);
      if (FIXED_ROUTES.has(url.pathname)) record.route = url.pathname;
      else if (url.pathname.startsWith('/docs/assets/')) record.route = '/docs/assets/{file}';
      if (graphql) return await graphqlEdge.handle(request, response, graphqlContext(request, edge));
      // HEAD too (some load balancers probe with it): node sends the head without the body.
      const probe = request.method === 'GET' || request.method === 'HEAD';
      if (url.pathname === '/livez' && probe) return sendJson(response, 200, { status: 'ok' });
      if ((url.pathname === '/readyz' || url.pathname === '/healthz') && probe) return await ready(response);
      if (url.pathname === '/metrics' && request.method === 'GET') return await metrics(request, response);
      if (await apiDocs.handle(request, response, url.pathname)) return;
      const context = () => requestContextOf(request, edge);
      if (await handleRest(routes, request, response, url, context, { logger: log, requestId }, limits, record)) return;
      notFound();
    } catch (error) {
      // Read what a too large body still sends first, so that its client reads the 413.
      if (error instanceof BodyTooLargeError) await discardUnread(request);
      // The client went away (or a timeout cut it off) while its body was read: nobody to answer.
      if (request.socket?.destroyed ?? true) return void response.destroy();
      const refusal = graphql ? graphQLRefusal(error) : null;
      if (refusal && !response.headersSent) return sendGraphQLRefusal(response, refusal);
      if (error instanceof BodyTooLargeError && !response.headersSent)
        return sendJson(response, 413, { detail: error.message }, tooLargeHeaders);
      if (error instanceof UnsupportedContentEncodingError && !response.headersSent)
        return sendJson(response, 415, { detail: error.message }, unencodedOnlyHeaders);
      writeRestError(response, error, { logger: log, requestId });
    }
  }

  /** The request's Authorization header, or every one of them when it has several (refused). */
  function authorizationOf(request: IncomingMessage): string | string[] | null {
    const { rawHeaders } = request;
    let found: string[] | null = null;
    for (let index = 0; index < rawHeaders.length; index += 2) {
      const name = rawHeaders[index]!;
      if (name.length === 13 && name.toLowerCase() === 'authorization') (found ??= []).push(rawHeaders[index + 1]!);
    }
    return found && found.length === 1 ? found[0]! : found;
  }

  /** The request's context; the caller's id goes on the access record once known. */
  async function requestContextOf(
    request: IncomingMessage,
    edge: Edge,
    carrierCallLimit?: number,
  ): Promise<RequestContext> {
    // Read by the `lines` fan-out before each carrier call (graphql/line-answers.ts): no listener a request.
    const clientGone = () => request.socket?.destroyed ?? false;
    const authorization = authorizationOf(request);
    const context = await createRequestContext(services, edge.requestId, authorization, carrierCallLimit, clientGone);
    if (context.user) edge.record.userId = context.user.id;
    return context;
  }

  function graphqlContext(request: IncomingMessage, edge: Edge): GraphQLServerContext {
    let context: Promise<RequestContext> | undefined;
    // No carrier call until the request's price is paid (use-cost-budget.ts sets the limit to it).
    const requestContext = () => (context ??= requestContextOf(request, edge, 0));
    return { req: request, requestId: edge.requestId, access: edge.record, requestContext };
  }

  async function ready(response: ServerResponse): Promise<void> {
    const report = await readiness.check();
    sendJson(response, report.status === 'unavailable' ? 503 : 200, report, { 'cache-control': 'no-store' });
  }

  return {
    server,
    connections,
    handle: inProcessHandler(server),
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const address = server.address() as AddressInfo;
          resolve(`http://${host.includes(':') ? `[${host}]` : host}:${address.port}`);
        });
      }),
    close: (graceMs = 10_000) =>
      new Promise((resolve) => {
        server.close(() => resolve());
        connections.close();
        // A stream never ends of itself: each open one sends its `complete` event and ends now,
        // so its client reconnects elsewhere at once, and its connection closes once idle.
        draining.abort();
        server.closeIdleConnections();
        // Requests still running after the grace period are cut off.
        const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
        deadline.unref();
        const poll = setInterval(() => {
          server.closeIdleConnections();
          if (inFlight.size === 0) clearInterval(poll);
        }, 50);
        poll.unref();
      }),
  };
}
