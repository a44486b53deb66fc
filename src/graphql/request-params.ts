// A GraphQL request's parameters, read the way Yoga's request parsers read them (a JSON body, a
// form body or a GET query string), but each text parsed at most once and only after one cheap
// pass over it: JSON nested deeper than MAX_JSON_DEPTH, or an object of more than
// MAX_JSON_KEYS keys, is refused (400 BAD_REQUEST) before JSON.parse ever sees it. Parsing a
// body nested 499,000 deep cost ~0.2 s of the event loop before anything could measure the
// value; 60,000 keys in one object cost ~0.1 s to parse, and 3 s more when they sit in an input
// object (graphql-js quotes the whole object in each of up to 50 coercion errors). The refusals
// are Yoga's own for a body that is not JSON or not an object, the gateway's for the rest.

import { createGraphQLError, type GraphQLParams } from 'graphql-yoga';
import { JsonTooDeepError, JsonTooManyKeysError, MAX_JSON_KEYS, jsonOverLimits } from '../http/json-depth.js';

export { MAX_JSON_KEYS } from '../http/json-depth.js';

const badRequest = (message: string, extensions: Record<string, unknown> = {}) =>
  createGraphQLError(message, { extensions: { http: { status: 400 }, code: 'BAD_REQUEST', ...extensions } });

/** Refuses `text` (400) when it nests deeper than `maxDepth` or an object in it has too many keys. */
function refuseOverLimits(text: string, maxDepth: number, reportedDepth: number): void {
  const over = jsonOverLimits(text, maxDepth, MAX_JSON_KEYS);
  if (over === 'depth') throw badRequest(new JsonTooDeepError(reportedDepth).message);
  if (over === 'keys') throw badRequest(new JsonTooManyKeysError(MAX_JSON_KEYS).message);
}

/**
 * The parameters of a JSON body (`application/json`, `application/graphql+json`), refused as
 * Yoga's JSON parser refuses them (invalid JSON, not an object). MAX_JSON_DEPTH counts within
 * `variables` and `extensions`, as for a GET, so the body itself may nest one level more.
 */
export function paramsOfJsonText(text: string, maxDepth: number): GraphQLParams | GraphQLParams[] {
  refuseOverLimits(text, maxDepth + 1, maxDepth);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    // Yoga's answer; mapError (errors.ts) keeps `originalError` from the client.
    const { name, message } = error as Error;
    throw badRequest('POST body sent invalid JSON.', {
      http: { spec: true, status: 400 },
      originalError: { name, message },
    });
  }
  if (body === null || body === undefined) throw badRequest(`POST body is expected to be object but received ${body}`);
  if (typeof body !== 'object') throw badRequest(`POST body is expected to be object but received ${typeof body}`);
  // Checked further by Yoga (useCheckGraphQLQueryParams) or the direct lane, as Yoga's parser leaves it.
  return body as GraphQLParams | GraphQLParams[];
}

/** `variables` or `extensions` of a query string or form body: scanned, then parsed once. */
function jsonParameter(search: URLSearchParams, name: 'variables' | 'extensions', maxDepth: number): unknown {
  const text = search.get(name) || undefined;
  if (text === undefined) return undefined;
  refuseOverLimits(text, maxDepth, maxDepth);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Yoga's own parser lets the SyntaxError through, answered 500.
    throw badRequest(`The ${name} parameter is not valid JSON`);
  }
}

/** The parameters of a GET's query string or an `application/x-www-form-urlencoded` body. */
export function paramsOfSearch(search: URLSearchParams, maxDepth: number): GraphQLParams {
  return {
    operationName: search.get('operationName') || undefined,
    query: search.get('query') || undefined,
    variables: jsonParameter(search, 'variables', maxDepth) as GraphQLParams['variables'],
    extensions: jsonParameter(search, 'extensions', maxDepth) as GraphQLParams['extensions'],
  };
}

/**
 * A JSON body the edge has already read (a POST of `application/json`, for the direct lane):
 * its parameters are worked out on first use, once, for whichever lane asks first; the other
 * gets the same value, or the same refusal.
 */
export class JsonBody {
  #outcome: { params: GraphQLParams | GraphQLParams[] } | { refusal: unknown } | undefined;

  constructor(
    private readonly bytes: Buffer,
    private readonly maxDepth: number,
  ) {}

  /** The parsed body (an object or array, not yet checked), or throws its 400 refusal (a GraphQLError). */
  params(): GraphQLParams | GraphQLParams[] {
    if (this.#outcome === undefined) {
      try {
        // Decoded as Yoga's Request.text() decodes a body (Buffer#toString, a byte order mark kept).
        this.#outcome = { params: paramsOfJsonText(this.bytes.toString('utf8'), this.maxDepth) };
      } catch (refusal) {
        this.#outcome = { refusal };
      }
    }
    if ('refusal' in this.#outcome) throw this.#outcome.refusal;
    return this.#outcome.params;
  }
}
