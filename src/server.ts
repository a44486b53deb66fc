// Builds the gateway's HTTP server: GraphQL (Yoga, with GraphiQL served from the installed
// package) at /graphql, the REST compatibility routes, /healthz; listening is main.ts's job.

import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createYoga } from 'graphql-yoga';
import { maskUnexpected } from './graphql/errors.js';
import { buildSchema } from './graphql/schema.js';
import type { GraphQLServerContext } from './graphql/server-context.js';
import { useExposure, type HiddenSchemaRequests } from './graphql/use-exposure.js';
import { useGraphiQLAbsent } from './graphql/use-graphiql-absent.js';
import { useGraphQLOverHttp } from './graphql/use-graphql-over-http.js';
import { useQueryCost } from './graphql/use-query-cost.js';
import { useRequestLimits } from './graphql/use-request-limits.js';
import { useWholeRequestAuth } from './graphql/use-whole-request-auth.js';
import { sendJson } from './http/json.js';
import { quote } from './lib/quote.js';
import { operations } from './operations/index.js';
import { ForbiddenError, UnauthenticatedError } from './pipeline/errors.js';
import { createRequestContext, type RequestContext } from './pipeline/request-context.js';
import { logRefusal, writeRestError } from './rest/error-response.js';
import { handleRest } from './rest/handler.js';
import { compileRoutes } from './rest/routes.js';
import type { Services } from './services.js';

export interface Gateway {
  server: Server;
  /** Listens and resolves with the base URL. */
  listen(port: number, host: string): Promise<string>;
  /** Stops accepting, lets in-flight requests finish (up to graceMs), then closes. */
  close(graceMs?: number): Promise<void>;
}

/** GraphiQL's headers pane starts with this template: where the token goes. */
const GRAPHIQL_HEADERS = '{"Authorization": "Bearer <token>"}';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

export function createGateway(services: Services, options: { ready: () => boolean }): Gateway {
  const routes = compileRoutes(operations);
  const { config } = services;
  // GraphiQL comes inlined from the installed package (~9 MB, no CDN): rendered on first use
  // only, with the options below. The token is typed into its headers pane and never stored.
  let graphiqlHtml: Promise<string> | undefined;
  const graphiql = (options: object) =>
    (graphiqlHtml ??= import('@graphql-yoga/render-graphiql').then(({ renderGraphiQL }) => renderGraphiQL(options)));
  const hiddenSchema: HiddenSchemaRequests = new WeakSet();
  const yoga = createYoga<GraphQLServerContext, RequestContext>({
    schema: buildSchema(),
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql:
      config.GRAPHIQL === 'on'
        ? {
            title: 'line-gateway',
            defaultQuery: '{\n  me {\n    name\n    authorizedPlans { planId name }\n  }\n}\n',
            headers: GRAPHIQL_HEADERS,
            shouldPersistHeaders: false,
          }
        : false,
    renderGraphiQL: graphiql,
    logging: false,
    // Order matters: the caller is known before parsing (an anonymous request is refused
    // without one), then the shape limits, then the cost, then the one error mapping.
    plugins: [
      config.GRAPHIQL === 'off' && useGraphiQLAbsent(),
      useExposure(config.INTROSPECTION, hiddenSchema),
      useWholeRequestAuth(config.INTROSPECTION),
      useRequestLimits({
        maxTokens: config.GRAPHQL_MAX_TOKENS,
        maxDepth: config.GRAPHQL_MAX_DEPTH,
        maxAliases: config.GRAPHQL_MAX_ALIASES,
        maxDirectives: config.GRAPHQL_MAX_DIRECTIVES,
      }),
      useQueryCost({ maxCost: config.GRAPHQL_MAX_COST }),
      useGraphQLOverHttp(services.logger, hiddenSchema),
    ],
    context: ({ requestContext }) => requestContext(),
    // Known errors pass unchanged; unexpected ones are masked here and logged with the request
    // id by useGraphQLOverHttp.
    maskedErrors: { maskError: maskUnexpected },
  });

  const inFlight = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    inFlight.add(response);
    const requestId = requestIdOf(request);
    const started = performance.now();
    response.on('close', () => {
      inFlight.delete(response);
      // An access log at debug level: method, path, status and time; never headers or bodies.
      services.logger.debug('request', {
        requestId,
        method: request.method,
        path: (request.url ?? '/').split('?')[0],
        status: response.statusCode,
        ms: Math.round(performance.now() - started),
      });
    });
    response.setHeader('x-request-id', requestId);
    void handle(request, response, requestId);
  });
  server.keepAliveTimeout = 5_000;

  async function handle(request: IncomingMessage, response: ServerResponse, requestId: string): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://gateway.invalid');
    try {
      if (url.pathname === '/graphql') return void (await yoga.handle(request, response, graphqlContext(request, requestId)));
      if (url.pathname === '/healthz' && request.method === 'GET') return healthz(response);
      if (url.pathname === '/metrics' && request.method === 'GET') return await metrics(request, response, requestId);
      const context = () => createRequestContext(services, requestId, request.headers.authorization ?? null);
      if (await handleRest(routes, request, response, url, context, { logger: services.logger, requestId })) return;
      logRefusal({ logger: services.logger, requestId }, 404, 'NOT_FOUND', `No route ${quote(url.pathname, 128)}`);
      sendJson(response, 404, { detail: 'Not Found' });
    } catch (error) {
      writeError(response, error, requestId);
    }
  }

  function graphqlContext(request: IncomingMessage, requestId: string): GraphQLServerContext {
    let context: Promise<RequestContext> | undefined;
    const requestContext = () => (context ??= createRequestContext(services, requestId, request.headers.authorization ?? null));
    return { req: request, requestId, requestContext };
  }

  function healthz(response: ServerResponse): void {
    const carriersConfigured = services.carriers.allConfigured();
    const ok = options.ready() && carriersConfigured;
    sendJson(response, ok ? 200 : 503, { status: ok ? 'ok' : 'unavailable', database: options.ready() ? 'migrated' : 'starting', carriers: carriersConfigured ? 'configured' : 'missing credentials' });
  }

  /** Prometheus exposition, for a superuser token (scrapers send it as a bearer token). */
  async function metrics(request: IncomingMessage, response: ServerResponse, requestId: string): Promise<void> {
    const { user, authFailure } = await createRequestContext(services, requestId, request.headers.authorization ?? null);
    if (!user) throw new UnauthenticatedError(authFailure);
    if (!user.superuser) throw new ForbiddenError();
    const body = await services.metrics.registry.metrics();
    response.writeHead(200, { 'content-type': services.metrics.registry.contentType });
    response.end(body);
  }

  function writeError(response: ServerResponse, error: unknown, requestId: string): void {
    writeRestError(response, error, { logger: services.logger, requestId });
  }

  return {
    server,
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
