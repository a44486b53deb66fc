// Builds the gateway's HTTP server: GraphQL (Yoga, with GraphiQL served from the installed
// package) at /graphql, the REST compatibility routes, /healthz; listening is main.ts's job.

import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createYoga, maskError } from 'graphql-yoga';
import { exposedGraphQLError } from './graphql/errors.js';
import { buildSchema } from './graphql/schema.js';
import { useInputErrorCodes } from './graphql/use-input-error-codes.js';
import { usePartialSuccessStatus } from './graphql/use-partial-success-status.js';
import { useUnexpectedErrorLog } from './graphql/use-unexpected-error-log.js';
import { createApiDocs } from './http/api-docs.js';
import { sendJson } from './http/json.js';
import { operations } from './operations/index.js';
import { ForbiddenError, InternalError, isGatewayError, UnauthenticatedError } from './pipeline/errors.js';
import { createRequestContext, type RequestContext } from './pipeline/request-context.js';
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

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

export function createGateway(services: Services, options: { ready: () => boolean }): Gateway {
  const routes = compileRoutes(operations);
  const apiDocs = createApiDocs(operations);
  // GraphiQL comes inlined from the installed package (~9 MB, no CDN): loaded on first use only.
  let graphiqlHtml: Promise<string> | undefined;
  const graphiql = () =>
    (graphiqlHtml ??= import('@graphql-yoga/render-graphiql').then(({ renderGraphiQL }) =>
      renderGraphiQL({ title: 'line-gateway', defaultQuery: '{\n  me {\n    name\n    authorizedPlans { planId name }\n  }\n}\n' }),
    ));
  const yoga = createYoga<{ req: IncomingMessage; requestId: string }, RequestContext>({
    schema: buildSchema(),
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: { title: 'line-gateway', shouldPersistHeaders: true },
    renderGraphiQL: graphiql,
    logging: false,
    plugins: [useInputErrorCodes(), usePartialSuccessStatus(), useUnexpectedErrorLog(services.logger)],
    context: ({ request, requestId }) => createRequestContext(services, requestId, request.headers.get('authorization')),
    maskedErrors: {
      // Unexpected errors were logged with the request id by useUnexpectedErrorLog.
      maskError: (error, message, isDev) => exposedGraphQLError(error) ?? maskError(error, message, isDev),
    },
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
      if (url.pathname === '/graphql') return void (await yoga.handle(request, response, { req: request, requestId }));
      if (url.pathname === '/healthz' && request.method === 'GET') return healthz(response);
      if (url.pathname === '/metrics' && request.method === 'GET') return await metrics(request, response, requestId);
      if (await apiDocs.handle(request, response, url.pathname)) return;
      const context = () => createRequestContext(services, requestId, request.headers.authorization ?? null);
      if (await handleRest(routes, request, response, url, context)) return;
      sendJson(response, 404, { detail: 'Not Found' });
    } catch (error) {
      writeError(response, error, requestId);
    }
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
    const known = isGatewayError(error) ? error : new InternalError(requestId);
    if (!isGatewayError(error)) services.logger.error('unexpected error', { requestId, error: String(error), stack: (error as Error | undefined)?.stack });
    if (response.headersSent) return void response.destroy();
    sendJson(response, known.status, known.restBody(), known.headers());
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
