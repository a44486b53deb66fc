// GraphQL over HTTP, as Apollo Client, urql and graphql-request expect it: a response with
// data is 200 whatever its errors; a request refused as a whole before execution (no valid
// token, parse/validation/variable errors, a limit or the cost maximum) has no data and the
// status of its error (401, 400…) with its headers (WWW-Authenticate, Retry-After). Every error
// leaves here, mapped once (errors.ts), with `extensions.code` and `extensions.status`; client
// refusals, whole or of fields, are logged at info (warn for 401, 403, 429 and the limits),
// unexpected errors at error with their stack.

import type { ExecutionResult, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from '../lib/logger.js';
import { mapError } from './errors.js';
import { regularMediaType } from './result-media-type.js';
import type { GraphQLServerContext } from './server-context.js';
import type { HiddenSchemaRequests } from './use-exposure.js';

/**
 * Whether the result goes out as `application/json`, the spec's legacy media type, for which a
 * GraphQL request error (parse, validation, variable coercion, a limit) SHOULD be answered 200:
 * a client that accepts `application/json` but not `application/graphql-response+json`, and
 * one with no Accept header or a wildcard (answered `application/json`, as the spec asks). Modern
 * clients (Apollo, urql, graphql-request) prefer `application/graphql-response+json` and get the
 * 4xx. A body that is not a GraphQL request stays 400, and HTTP-level refusals (401, 403, 413,
 * 429) keep their status, for every client. The status follows the media type the answer
 * carries, so the two never disagree.
 */
export function answersLegacyJson(acceptHeader: string | null | undefined): boolean {
  return regularMediaType(acceptHeader ?? undefined) === 'application/json';
}

/**
 * GraphQL request errors: the document does not parse, validate or fit a limit, names no
 * operation it holds (Yoga's OPERATION_RESOLUTION_FAILURE), or its variables do not coerce.
 */
const REQUEST_ERROR_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'OPERATION_RESOLUTION_FAILURE',
  'BAD_USER_INPUT',
  'QUERY_TOO_LARGE',
  'QUERY_TOO_DEEP',
  'TOO_MANY_ALIASES',
  'TOO_MANY_DIRECTIVES',
  'QUERY_TOO_COSTLY',
]);

/** Refusals that look like probing or abuse rather than a client's honest mistake. */
const WARN_CODES = new Set([
  'QUERY_TOO_LARGE',
  'QUERY_TOO_DEEP',
  'TOO_MANY_ALIASES',
  'TOO_MANY_DIRECTIVES',
  'QUERY_TOO_COSTLY',
  'THROTTLED',
]);

/** Statuses that may mean an attack (bad credentials, privilege probing, flooding), as REST logs them. */
const WARN_STATUSES = new Set([401, 403, 429]);

/** Shapes a single result as it leaves (statuses, headers, mapped errors, refusals logged). */
export type ResultShaper = (
  result: ExecutionResult,
  requestId: string,
  hideSuggestions: boolean,
  legacyJson: boolean,
) => ExecutionResult;

/** The one shaping of results, shared by this plugin and the direct lane (direct-execution.ts). */
export function createResultShaper(logger: Logger): ResultShaper {
  return function shape(result, requestId, hideSuggestions, legacyJson) {
    if (!result.errors?.length) return result;
    const mapped = result.errors.map((error) => mapError(error, hideSuggestions));
    for (const { client, unexpected } of mapped) {
      if (unexpected) logger.error('unexpected error', { requestId, path: client.path?.join('.'), err: unexpected });
    }
    const refused = result.data === null || result.data === undefined;
    const first = mapped[0]!.client.extensions;
    if (refused && first.status < 500) {
      const fields = { requestId, status: first.status, code: first.code, errors: mapped.length };
      if (WARN_CODES.has(first.code) || WARN_STATUSES.has(first.status)) logger.warn('graphql request refused', fields);
      else logger.info('graphql request refused', fields);
    } else if (!refused) {
      // Fields refused in an answer that has data: logged as REST logs a refused request.
      const refusals = mapped.filter(({ client }) => client.extensions.status < 500);
      if (refusals.length > 0) {
        const codes = [...new Set(refusals.map(({ client }) => client.extensions.code))];
        const fields = { requestId, codes, errors: refusals.length };
        if (refusals.some(({ client }) => WARN_STATUSES.has(client.extensions.status)))
          logger.warn('graphql fields refused', fields);
        else logger.info('graphql fields refused', fields);
      }
    }
    // Headers set earlier (the cost budget's RateLimit headers) are kept.
    const earlier = (result.extensions?.http as { headers?: Record<string, string> } | undefined)?.headers ?? {};
    const http = refused
      ? {
          status: legacyJson && REQUEST_ERROR_CODES.has(first.code) ? 200 : first.status,
          headers: Object.assign({ ...earlier }, ...mapped.map((error) => error.headers)) as Record<string, string>,
        }
      : { status: 200, headers: earlier };
    // Plain objects, not GraphQLErrors: Yoga serializes them as they are instead of rebuilding
    // each one (which would rescan the query text for every error's location).
    const errors = mapped.map((error) => error.client) as unknown as GraphQLError[];
    return { ...result, errors, extensions: { ...result.extensions, http } };
  };
}

export function useGraphQLOverHttp(
  logger: Logger,
  hidden: HiddenSchemaRequests,
): Plugin<Record<string, never>, GraphQLServerContext> {
  const shape = createResultShaper(logger);
  return {
    onResultProcess({ request, result, setResult, serverContext }) {
      if (Symbol.asyncIterator in result) return; // no subscriptions or streams here
      const hideSuggestions = hidden.has(request);
      const legacyJson = answersLegacyJson(request.headers.get('accept'));
      const one = (single: ExecutionResult) => shape(single, serverContext.requestId, hideSuggestions, legacyJson);
      setResult(Array.isArray(result) ? result.map(one) : one(result));
    },
  };
}
