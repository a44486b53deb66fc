// GraphQL's direct lane. The requests dashboards send all day — an authenticated POST of JSON
// whose document (sent, or listed and named by its hash) parses, validates and fits every
// limit, a query or a mutation, within its cost — are executed here with graphql-js, without
// Yoga's fetch layer and envelop's hook chain around them: those cost ~0.19 ms of CPU a
// request, nearly all of what GraphQL cost beyond REST for the same operation
// (docs/performance.md, "The direct lane").
//
// Everything else is handed to Yoga untouched, with the body already read (and its parse, when
// the lane parsed it: a body is parsed once, request-params.ts's JsonBody): no token, a
// document that does not parse or validate or exceeds a limit, introspection, a subscription,
// a hash that is not listed, a request over the cost maximum or the caller's budget, GET,
// other content or media types. So every refusal keeps one implementation (Yoga's plugins),
// and a request comes here only when nothing in it would be refused before execution. What is
// done to an admitted request is what those plugins do, through the same functions: the cost
// budget (use-cost-budget.ts), error masking and mapping (errors.ts, use-graphql-over-http.ts),
// the operation's metrics and span (use-operation-metrics.ts). test/graphql/direct-lane.test.ts
// sends the same requests through both lanes and compares the answers byte for byte.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { getOperationAST, type ExecutionResult, type GraphQLError, type GraphQLSchema } from 'graphql';
import type { CostBudget } from '../budget/cost-budget.js';
import type { UserRecord } from '../directory/types.js';
import type { AccessRecord } from '../http/access-log.js';
import { merged } from '../lib/merged.js';
import type { RequestContext } from '../pipeline/request-context.js';
import type { SettingsValues } from '../settings/definitions.js';
import { createCompiledExecution } from './compiled-execution.js';
import { maskUnexpected } from './errors.js';
import { sha256Hex, type PersistedOperations } from './persisted-operations.js';
import { createPreparedDocuments, type PreparedDocument } from './prepared-documents.js';
import type { JsonBody } from './request-params.js';
import { queryCost } from './query-cost.js';
import { acceptedMediaTypes } from './result-media-type.js';
import type { GraphQLServerContext } from './server-context.js';
import { chargeCost } from './use-cost-budget.js';
import type { IntrospectionMode } from './use-exposure.js';
import type { ResultShaper } from './use-graphql-over-http.js';
import type { OperationObserver } from './use-operation-metrics.js';
import type { RequestLimits } from './use-request-limits.js';

export interface DirectLaneOptions {
  schema: GraphQLSchema;
  limits: RequestLimits & { maxCost: number };
  introspection: IntrospectionMode;
  persistedOperations: PersistedOperations;
  costBudget: CostBudget;
  shape: ResultShaper;
  observer: OperationObserver;
}

export interface DirectLane {
  /**
   * Answers the request and resolves true, or resolves false having written nothing and
   * changed nothing: the request is Yoga's. `body` is the request's body, already read; its
   * parameters, once parsed here, are Yoga's too (the body is parsed once per request).
   */
  handle(
    request: IncomingMessage,
    response: ServerResponse,
    body: JsonBody,
    context: GraphQLServerContext,
  ): Promise<boolean>;
}

/** A request's GraphQL parameters, as the lane runs them. */
interface Parameters {
  /** The document's text: the one sent, or the allow-list's for a persisted query's hash. */
  query: string;
  /** True when the document came from the allow-list by its hash (always allowed to be sent). */
  listed: boolean;
  variables: Record<string, unknown>;
  operationName: string | undefined;
}

const GRAPHQL_PARAMETERS = new Set(['query', 'variables', 'operationName', 'extensions']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A POST of `application/json` (Yoga reads `application/graphql+json` as JSON too; those are left to it). */
export function isJsonPost(request: IncomingMessage): boolean {
  if (request.method !== 'POST') return false;
  const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  return type === 'application/json';
}

/** What Yoga's result processor does last: the internal `extensions.http` is not sent. */
function withoutInternals(result: ExecutionResult): ExecutionResult {
  if (!result.errors?.length && !result.extensions?.http) return result;
  const { http: _http, ...extensions } = result.extensions ?? {};
  return { ...result, extensions: Object.keys(extensions).length ? extensions : undefined };
}

export function createDirectLane(options: DirectLaneOptions): DirectLane {
  const { schema, limits, costBudget, shape, observer } = options;
  const mediaTypes = acceptedMediaTypes();
  const documents = createPreparedDocuments({ schema, limits });
  const executor = createCompiledExecution(schema);

  /** The operation's price, worked out once per document when it reads no variable. */
  function costOf(document: PreparedDocument, variables: Record<string, unknown>, operationName?: string): number {
    const key = operationName ?? '';
    const known = document.constantCosts?.get(key);
    if (known !== undefined) return known;
    const reads = { variables: false };
    const cost = queryCost(schema, document.document, variables, operationName, reads);
    if (!reads.variables) (document.constantCosts ??= new Map()).set(key, cost);
    return cost;
  }

  /** With `persisted_operations_only`, a non-superuser's document must be one of the allow-list. */
  function allowedToSend(
    document: PreparedDocument,
    text: string,
    user: UserRecord,
    settings: SettingsValues,
  ): boolean {
    if (user.superuser || !settings.persisted_operations_only) return true;
    document.hash ??= sha256Hex(text);
    return options.persistedOperations.has(document.hash);
  }

  /**
   * The request's parameters when the lane may take them: a JSON object of Yoga's four
   * parameters, of the right types, with a document, or without one and the sha256 of a listed
   * persisted operation (Apollo's persisted-query shape, read as Yoga's persisted-operations
   * plugin reads it: a document given wins over a hash). A body nested deeper than
   * MAX_JSON_DEPTH, with an object of too many keys, or not JSON is refused by JsonBody (before
   * or by JSON.parse), and is Yoga's to answer.
   */
  function parametersOf(body: JsonBody): Parameters | null {
    let params: unknown;
    try {
      params = body.params();
    } catch {
      return null;
    }
    if (!isObject(params)) return null;
    for (const key in params) if (params[key] != null && !GRAPHQL_PARAMETERS.has(key)) return null;
    const { query, variables, operationName, extensions } = params;
    if (query != null && typeof query !== 'string') return null;
    if (variables != null && !isObject(variables)) return null;
    if (extensions != null && !isObject(extensions)) return null;
    if (operationName != null && typeof operationName !== 'string') return null;
    // Literals, not a spread of the common members: see lib/merged.ts.
    const given = variables ?? {};
    const named = operationName ?? undefined;
    if (query) return { query, listed: false, variables: given, operationName: named };
    const listed = listedDocument(extensions);
    return listed === undefined ? null : { query: listed, listed: true, variables: given, operationName: named };
  }

  /** The allow-list's document named by `extensions.persistedQuery` (version 1); undefined for any other. */
  function listedDocument(extensions: Record<string, unknown> | null | undefined): string | undefined {
    const persisted = extensions?.persistedQuery;
    if (!isObject(persisted) || persisted.version !== 1 || typeof persisted.sha256Hash !== 'string') return undefined;
    return options.persistedOperations.get(persisted.sha256Hash);
  }

  /**
   * Runs the request when nothing would refuse it before execution (else null: Yoga's); its
   * cost is taken before and settled after, as useCostBudget does.
   */
  async function run(
    params: Parameters,
    context: RequestContext,
    user: UserRecord,
    access: AccessRecord,
  ): Promise<ExecutionResult | null> {
    const document = documents.get(params.query);
    if (!document) return null;
    if (!params.listed) {
      const { settings } = context.services;
      const values = settings.cachedValues() ?? (await settings.values());
      if (!allowedToSend(document, params.query, user, values)) return null;
    }
    const { variables, operationName } = params;
    const operation = getOperationAST(document.document, operationName);
    if (!operation || operation.operation === 'subscription') return null;
    const cost = costOf(document, variables, operationName);
    if (cost > limits.maxCost) return null;
    // Taken now or not at all: a refusal leaves the bucket as it was, and Yoga answers it.
    const charge = await chargeCost(costBudget, user.id, cost);
    if (!charge.granted) return null;
    const before = context.carrierCalls;
    // Paid for: the request may make that many carrier calls (none until now), as useCostBudget says.
    context.carrierCallLimit = before + cost;
    let executed: ExecutionResult;
    try {
      // The caller's context is the resolvers' context (Yoga's adds the request and its
      // parameters to it, which no resolver reads).
      const observed = observer.begin(document.document, operationName, access);
      executed = await observed(() => executor.execute(document, operationName, context, variables));
    } catch (error) {
      executed = { errors: [error as GraphQLError] };
    }
    const masked = executed.errors?.length
      ? { ...executed, errors: executed.errors.map((error) => maskUnexpected(error) as GraphQLError) }
      : executed;
    return charge.settle(masked, context.carrierCalls - before);
  }

  return {
    async handle(request, response, body, serverContext) {
      const accept = request.headers.accept;
      const mediaType = mediaTypes.of(accept);
      if (!mediaType) return false;
      const startedAt = performance.now();
      // The caller first, from the headers: an anonymous request is Yoga's (401) before its body
      // is parsed. A caller that cannot be looked up is Yoga's too, answered from the same
      // failure (the context is built once per request and shared).
      let context: RequestContext;
      try {
        context = await serverContext.requestContext();
      } catch {
        return false;
      }
      if (!context.user) return false;
      const params = parametersOf(body);
      if (!params) return false;
      let executed: ExecutionResult;
      try {
        const ran = await run(params, context, context.user, serverContext.access);
        if (!ran) return false;
        executed = ran;
      } catch (error) {
        // The settings or the budget could not be read: answered as Yoga answers a failing
        // plugin, 500 "Unexpected error." (and logged).
        executed = { errors: [maskUnexpected(error) as GraphQLError] };
      }
      const hideSuggestions = options.introspection === 'off';
      const result = shape(executed, serverContext.requestId, hideSuggestions, mediaType === 'application/json');
      observer.end(serverContext.access, result, startedAt);

      const http = result.extensions?.http as { status?: number; headers?: Record<string, string> } | undefined;
      const payload = JSON.stringify(withoutInternals(result));
      serverContext.access.lane = 'direct';
      response.writeHead(
        http?.status ?? 200,
        merged(merged({ 'content-type': `${mediaType}; charset=utf-8` }, http?.headers ?? {}), {
          'content-length': Buffer.byteLength(payload),
        }),
      );
      response.end(payload);
      return true;
    },
  };
}
