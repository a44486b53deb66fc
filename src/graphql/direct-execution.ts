// GraphQL's direct lane. The requests dashboards send all day — an authenticated POST of JSON
// whose document parses, validates and fits every limit, a query or a mutation, within its
// cost — are executed here with graphql-js, without Yoga's fetch layer and envelop's hook
// chain around them: those cost ~0.19 ms of CPU a request, nearly all of what GraphQL cost
// beyond REST for the same operation (docs/performance.md, "The direct lane").
//
// Everything else is handed to Yoga untouched, with the body already read: no token, a
// document that does not parse or validate or exceeds a limit, introspection, a subscription,
// persisted operations by hash, a request over the cost maximum or the caller's budget, GET,
// other content or media types. So every refusal keeps one implementation (Yoga's plugins),
// and a request comes here only when nothing in it would be refused before execution. What is
// done to an admitted request is what those plugins do, through the same functions: the cost
// budget (use-cost-budget.ts), error masking and mapping (errors.ts, use-graphql-over-http.ts),
// the operation's metrics and span (use-operation-metrics.ts). test/graphql/direct-lane.test.ts
// sends the same requests through both lanes and compares the answers byte for byte.

import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  execute,
  getOperationAST,
  parse,
  specifiedRules,
  validate,
  visit,
  BREAK,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
} from 'graphql';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import type { CostBudget } from '../budget/cost-budget.js';
import { valueNestsDeeperThan } from '../http/json-depth.js';
import type { RequestContext } from '../pipeline/request-context.js';
import { maskUnexpected } from './errors.js';
import { sha256Hex, type PersistedOperations } from './persisted-operations.js';
import { queryCost } from './query-cost.js';
import type { GraphQLServerContext } from './server-context.js';
import { chargeCost } from './use-cost-budget.js';
import type { IntrospectionMode } from './use-exposure.js';
import { speaksLegacyJson, type ResultShaper } from './use-graphql-over-http.js';
import type { OperationObserver } from './use-operation-metrics.js';
import type { RequestLimits } from './use-request-limits.js';

export interface DirectLaneOptions {
  schema: GraphQLSchema;
  limits: RequestLimits & { maxCost: number; maxJsonDepth: number };
  introspection: IntrospectionMode;
  persistedOperations: PersistedOperations;
  costBudget: CostBudget;
  shape: ResultShaper;
  observer: OperationObserver;
  /** Documents remembered (parsed and validated, or known not to be for this lane). */
  cacheSize?: number;
}

export interface DirectLane {
  /**
   * Answers the request and resolves true, or resolves false having written nothing and
   * changed nothing: the request is Yoga's. `body` is the request's body, already read.
   */
  handle(
    request: IncomingMessage,
    response: ServerResponse,
    body: Buffer,
    context: GraphQLServerContext,
  ): Promise<boolean>;
}

/** A document that passed everything Yoga checks before execution; its hash when asked for. */
interface Prepared {
  document: DocumentNode;
  hash?: string;
}

/** Longer documents are left to Yoga rather than remembered here (Yoga caches its own). */
const LONGEST_REMEMBERED = 64 * 1024;

/** Yoga's result processors for a single result, in the order it tries them: SSE, multipart, regular. */
const RESULT_PROCESSORS = [
  ['text/event-stream'],
  ['multipart/mixed'],
  ['application/graphql-response+json', 'application/json'],
];

const GRAPHQL_PARAMETERS = new Set(['query', 'variables', 'operationName', 'extensions']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A POST of `application/json` (Yoga reads `application/graphql+json` as JSON too; those are left to it). */
export function isJsonPost(request: IncomingMessage): boolean {
  if (request.method !== 'POST') return false;
  const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  return type === 'application/json';
}

/**
 * The media type Yoga's result processors would answer a single result in, read from the
 * Accept header exactly as Yoga reads it (graphql-yoga's result-processor/accept.js and
 * use-result-processor.js: the last match wins, the regular processor is tried last); null
 * when Yoga would stream it (SSE, multipart) or refuse it (406).
 */
export function regularMediaType(accept: string | undefined): string | null {
  const asked: string[] = [];
  for (const entry of (accept || '*/*').replace(/\s/g, '').toLowerCase().split(',')) {
    const [mediaType, ...params] = entry.split(';');
    const charset = params.find((param) => param.includes('charset=')) ?? 'charset=utf-8';
    if (mediaType !== undefined && charset === 'charset=utf-8') asked.push(mediaType);
  }
  asked.reverse();
  const matches = (offered: string, wanted: string) => {
    const [offeredType, offeredSub] = offered.split('/');
    const [type, sub] = wanted.split('/');
    return (type === '*' || type === offeredType) && (sub === '*' || sub === offeredSub);
  };
  let chosen: string | null = null;
  for (const processor of RESULT_PROCESSORS) {
    for (const wanted of asked) for (const offered of processor) if (matches(offered, wanted)) chosen = offered;
  }
  return chosen === 'application/graphql-response+json' || chosen === 'application/json' ? chosen : null;
}

/** True when the document asks for the schema itself (`__schema`, `__type`): exposure is Yoga's call. */
function asksForSchema(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Field(node) {
      if (node.name.value === '__schema' || node.name.value === '__type') {
        found = true;
        return BREAK;
      }
      return undefined;
    },
  });
  return found;
}

/** What Yoga's result processor does last: the internal `extensions.http` is not sent. */
function withoutInternals(result: ExecutionResult): ExecutionResult {
  if (!result.errors?.length && !result.extensions?.http) return result;
  const { http: _http, ...extensions } = result.extensions ?? {};
  return { ...result, extensions: Object.keys(extensions).length ? extensions : undefined };
}

export function createDirectLane(options: DirectLaneOptions): DirectLane {
  const { schema, limits, costBudget, shape, observer } = options;
  const cacheSize = options.cacheSize ?? 1000;
  const rules = [
    ...specifiedRules,
    maxDepthRule({ n: limits.maxDepth }),
    maxAliasesRule({ n: limits.maxAliases }),
    maxDirectivesRule({ n: limits.maxDirectives }),
  ];
  // Documents by text: prepared, or null when Yoga must answer them (refused, or introspection).
  const documents = new Map<string, Prepared | null>();

  function prepared(text: string): Prepared | null {
    const known = documents.get(text);
    if (known !== undefined) return known;
    if (text.length > LONGEST_REMEMBERED) return null;
    let entry: Prepared | null = null;
    try {
      const document = parse(text, { maxTokens: limits.maxTokens });
      if (validate(schema, document, rules).length === 0 && !asksForSchema(document)) entry = { document };
    } catch {
      entry = null; // a syntax error or the token limit: Yoga answers it
    }
    if (documents.size >= cacheSize) documents.delete(documents.keys().next().value!);
    documents.set(text, entry);
    return entry;
  }

  /** With `persisted_operations_only`, a non-superuser's document must be one of the allow-list. */
  async function allowedToSend(document: Prepared, text: string, context: RequestContext): Promise<boolean> {
    if (context.user?.superuser || !(await context.services.settings.values()).persisted_operations_only) return true;
    document.hash ??= sha256Hex(text);
    return options.persistedOperations.has(document.hash);
  }

  return {
    async handle(request, response, body, serverContext) {
      const mediaType = regularMediaType(request.headers.accept);
      if (!mediaType) return false;
      let params: unknown;
      try {
        params = JSON.parse(body.toString('utf8'));
      } catch {
        return false;
      }
      if (!isObject(params)) return false;
      for (const key in params) if (params[key] != null && !GRAPHQL_PARAMETERS.has(key)) return false;
      const { query, variables, operationName, extensions } = params;
      if (typeof query !== 'string') return false;
      if (variables != null && !isObject(variables)) return false;
      if (extensions != null && (!isObject(extensions) || extensions.persistedQuery != null)) return false;
      if (operationName != null && typeof operationName !== 'string') return false;
      if (valueNestsDeeperThan(variables, limits.maxJsonDepth) || valueNestsDeeperThan(extensions, limits.maxJsonDepth))
        return false;

      let requestContext: RequestContext;
      try {
        requestContext = await serverContext.requestContext();
      } catch {
        return false; // the caller could not be looked up: Yoga answers it (500), from the same failure
      }
      const user = requestContext.user;
      if (!user) return false;
      const document = prepared(query);
      if (!document || !(await allowedToSend(document, query, requestContext))) return false;
      const operation = getOperationAST(document.document, operationName);
      if (!operation || operation.operation === 'subscription') return false;
      const variableValues = variables ?? {};
      const cost = queryCost(schema, document.document, variableValues, operationName);
      if (cost > limits.maxCost) return false;
      // Taken now or not at all: a refusal leaves the bucket as it was, and Yoga answers it.
      const charge = await chargeCost(costBudget, user.id, cost);
      if (!charge.granted) return false;

      const startedAt = performance.now();
      // What Yoga's resolvers see: the server's context, the request's parameters and the caller's context.
      const contextValue: RequestContext & Record<string, unknown> = {
        ...serverContext,
        params: { query, variables, operationName, extensions },
        ...requestContext,
      };
      const run = observer.begin(document.document, operationName, serverContext.access);
      const executed = await run(
        () =>
          execute({
            schema,
            document: document.document,
            contextValue,
            variableValues,
            operationName,
          }) as Promise<ExecutionResult> | ExecutionResult,
      );
      const masked = executed.errors?.length
        ? { ...executed, errors: executed.errors.map((error) => maskUnexpected(error) as never) }
        : executed;
      const settled = await charge.settle(masked, contextValue.carrierCalls);
      const hideSuggestions = options.introspection === 'off';
      const result = shape(settled, serverContext.requestId, hideSuggestions, speaksLegacyJson(request.headers.accept));
      observer.end(serverContext.access, result, startedAt);

      const http = result.extensions?.http as { status?: number; headers?: Record<string, string> } | undefined;
      const payload = JSON.stringify(withoutInternals(result));
      serverContext.access.lane = 'direct';
      response.writeHead(http?.status ?? 200, {
        'content-type': `${mediaType}; charset=utf-8`,
        ...http?.headers,
        'content-length': Buffer.byteLength(payload),
      });
      response.end(payload);
      return true;
    },
  };
}
