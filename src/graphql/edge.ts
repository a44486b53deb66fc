// The GraphQL edge at /graphql: GraphiQL's page, the direct lane (direct-execution.ts) and Yoga
// with the gateway's plugins, on one schema and one operation observer. server.ts sends
// /graphql requests here once the shared edge (CORS, body limit, access record) has run.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { createYoga } from 'graphql-yoga';
import { applyAcceptQuality } from './accept-quality.js';
import type { CostBudget } from '../budget/cost-budget.js';
import { createGraphiQLPage } from '../http/graphiql-page.js';
import { readBoundedBody } from '../http/body-limit.js';
import {
  handBodyToYoga,
  prepareGraphQLRequest,
  sendGraphQLRefusal,
  type GraphQLRefusal,
} from '../http/graphql-request.js';
import type { BodyLimits } from '../http/json.js';
import { quote } from '../lib/quote.js';
import type { RequestContext } from '../pipeline/request-context.js';
import type { Services } from '../pipeline/services.js';
import { createDirectLane, isJsonPost } from './direct-execution.js';
import { maskUnexpected } from './errors.js';
import type { PersistedOperations } from './persisted-operations.js';
import { JsonBody } from './request-params.js';
import { buildSchema } from './schema.js';
import type { GraphQLServerContext } from './server-context.js';
import { useCostBudget } from './use-cost-budget.js';
import { useExposure, type HiddenSchemaRequests } from './use-exposure.js';
import { useGraphiQLAbsent } from './use-graphiql-absent.js';
import { createResultShaper, useGraphQLOverHttp } from './use-graphql-over-http.js';
import { useNotAcceptable } from './use-not-acceptable.js';
import { createOperationObserver, useOperationMetrics } from './use-operation-metrics.js';
import { usePersistedOperations } from './use-persisted-operations.js';
import { useQueryCost } from './use-query-cost.js';
import { useRequestLimits } from './use-request-limits.js';
import { useRequestParams } from './use-request-params.js';
import { useSubscriptions } from './use-subscriptions.js';
import { useUnsupportedMediaType } from './use-unsupported-media-type.js';
import { useWholeRequestAuth } from './use-whole-request-auth.js';

/** What the GraphQL edge runs on: the pipeline's services and its own. */
export interface GraphQLServices extends Services {
  /** The allow-list of persisted GraphQL operations (hash → document), read at start-up. */
  persistedOperations: PersistedOperations;
  /** Per-user GraphQL cost buckets (points = carrier calls). */
  costBudget: CostBudget;
}

export interface GraphQLEdge {
  /** Answers a request to /graphql; refusals of the edge itself (body too large…) are thrown. */
  handle(request: IncomingMessage, response: ServerResponse, context: GraphQLServerContext): Promise<void>;
}

/** The methods /graphql serves (HEAD only for GraphiQL's page, which is no GraphQL request). */
const GRAPHQL_METHODS = 'GET, POST';

const methodNotAllowed = (method = ''): GraphQLRefusal => ({
  status: 405,
  code: 'METHOD_NOT_ALLOWED',
  message: `Method ${JSON.stringify(quote(method, 16))} is not allowed on /graphql: send a GET or a POST`,
  headers: { allow: GRAPHQL_METHODS },
});

/** GraphiQL's headers pane starts with this template: where the token goes. */
const GRAPHIQL_HEADERS = '{"Authorization": "Bearer <token>"}';

/**
 * `draining`: aborted when the replica starts to drain (server.ts close()); every open
 * subscription then completes at once, so its client reconnects to another replica.
 */
export function createGraphQLEdge(
  services: GraphQLServices,
  limits: BodyLimits,
  draining: AbortSignal = new AbortController().signal,
): GraphQLEdge {
  const { config } = services;
  const graphiqlPage =
    config.GRAPHIQL === 'on'
      ? createGraphiQLPage({
          title: 'line-gateway',
          defaultQuery: '{\n  me {\n    name\n    authorizedPlans { planId name }\n  }\n}\n',
          headers: GRAPHIQL_HEADERS,
          shouldPersistHeaders: false,
        })
      : null;
  const hiddenSchema: HiddenSchemaRequests = new WeakSet();
  const schema = buildSchema();
  const requestLimits = {
    maxTokens: config.GRAPHQL_MAX_TOKENS,
    maxDepth: config.GRAPHQL_MAX_DEPTH,
    maxAliases: config.GRAPHQL_MAX_ALIASES,
    maxDirectives: config.GRAPHQL_MAX_DIRECTIVES,
  };
  // One observer for both lanes: the bound on operation-name labels counts each name once.
  const operationObserver = createOperationObserver(services.metrics);
  const directLane =
    config.GRAPHQL_DIRECT_LANE === 'on'
      ? createDirectLane({
          schema,
          limits: { ...requestLimits, maxCost: config.GRAPHQL_MAX_COST },
          introspection: config.INTROSPECTION,
          persistedOperations: services.persistedOperations,
          costBudget: services.costBudget,
          shape: createResultShaper(services.logger),
          observer: operationObserver,
        })
      : null;
  const yoga = createYoga<GraphQLServerContext, RequestContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    // The page itself is served (compressed, cacheable) by graphiql-page.ts before Yoga sees the request.
    graphiql: graphiqlPage !== null,
    ...(graphiqlPage && { renderGraphiQL: graphiqlPage.render }),
    logging: false,
    // CORS is answered for both surfaces by src/http/cors.ts; no file uploads are offered.
    cors: false,
    multipart: false,
    // The edge holds /graphql to the body limit before Yoga sees it (a declared length over it is
    // refused, a body is read bounded here or by prepareGraphQLRequest). Yoga's own check
    // would pipe every body through a TransformStream: ~15 % of the CPU of a small query, for nothing.
    maxRequestBodySize: false,
    // Order matters: the parsers that scan JSON before parsing it, then the caller, known before
    // parsing (an anonymous request's parser is replaced by its refusal: nothing is read), then
    // the shape limits, then the cost, then the one error mapping.
    plugins: [
      useRequestParams(config.MAX_JSON_DEPTH),
      config.GRAPHIQL === 'off' && useGraphiQLAbsent(),
      useExposure(config.INTROSPECTION, hiddenSchema),
      useWholeRequestAuth(config.INTROSPECTION),
      useUnsupportedMediaType(),
      ...usePersistedOperations(services.persistedOperations),
      useRequestLimits(requestLimits),
      useQueryCost({ maxCost: config.GRAPHQL_MAX_COST }),
      useCostBudget(services.costBudget),
      useGraphQLOverHttp(services.logger, hiddenSchema),
      // After the 415 (a body it cannot read is refused first) and the result mapping (its
      // refusal of a subscription leaves mapped); before useSubscriptions, which it stops.
      useNotAcceptable(),
      useSubscriptions(services.logger, draining),
      useOperationMetrics(operationObserver),
    ],
    context: ({ requestContext }) => requestContext(),
    // Known errors pass unchanged; unexpected ones are masked here and logged with the request
    // id by useGraphQLOverHttp.
    maskedErrors: { maskError: maskUnexpected },
  });

  return {
    async handle(request, response, context) {
      applyAcceptQuality(request);
      if (graphiqlPage && (await graphiqlPage.handle(request, response))) return;
      // Yoga would answer any other method (a PUT of JSON, a plain OPTIONS, DELETE, TRACE, a HEAD
      // not for the page) 415 "Unsupported Content-Type", sending clients after the wrong fix.
      // CORS preflights never get here: the edge's CORS layer answers them.
      if (request.method !== 'GET' && request.method !== 'POST')
        return sendGraphQLRefusal(response, methodNotAllowed(request.method));
      if (directLane && isJsonPost(request)) {
        // Read here, bounded, before deciding whose request it is; parsed (once, for both lanes)
        // only when a lane needs its parameters, so never without a valid token (unless
        // INTROSPECTION=public).
        const bytes = await readBoundedBody(request, limits.maxBytes);
        const body = new JsonBody(bytes, config.MAX_JSON_DEPTH);
        if (await directLane.handle(request, response, body, context)) return;
        context.body = body;
        handBodyToYoga(request, bytes);
      } else {
        await prepareGraphQLRequest(request, limits);
      }
      context.access.lane = 'yoga';
      await yoga.handle(request, response, context);
    },
  };
}
