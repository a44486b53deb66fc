// The one mapping from what GraphQL produced to what its clients see: every error leaves as
// `{message, locations, path, extensions: {code, status, …}}`, where `status` is the HTTP status
// REST would give; gateway refusals keep their message, anything unexpected is masked as
// "Unexpected error." (and logged by the caller with the request id).

import { GraphQLError, type SourceLocation } from 'graphql';
import { GatewayError } from '../errors/gateway-errors.js';
import { asDatabaseUnavailable } from '../errors/database-unavailable.js';
import { quote, QUOTE_MAX } from '../lib/quote.js';

/** An error as the client receives it (plain data, built once per error). */
export interface ClientError {
  message: string;
  locations?: readonly SourceLocation[];
  path?: readonly (string | number)[];
  extensions: { code: string; status: number } & Record<string, unknown>;
}

/** How one error is classified: its client form, response headers, and what to log. */
export interface MappedError {
  client: ClientError;
  headers: Record<string, string>;
  /** The error the gateway did not expect (to be logged with its stack); undefined for refusals. */
  unexpected?: Error;
}

const UNEXPECTED = 'Unexpected error.';
const SUGGESTION = ' Did you mean ';

/**
 * graphql-js ends a message with its suggestions (`… Did you mean "x"?`): cut from there, by
 * index rather than a pattern, so the work stays linear in the message length.
 */
function withoutSuggestions(message: string): string {
  const at = message.indexOf(SUGGESTION);
  return at < 0 ? message : `${message.slice(0, at)} [Suggestion hidden]`;
}

/** The longest request-error message sent: graphql-js lists every key of an input object it echoes. */
const MESSAGE_MAX = 1_000;

/**
 * A request error's message with the caller's input cut short: graphql-js echoes a variable's
 * whole value (`Variable "$i" got invalid value { label: "…" }`), and each string literal in it
 * is kept to its first QUOTE_MAX characters, the message to MESSAGE_MAX. One pass, no pattern.
 */
export function withShortEchoes(message: string): string {
  let shortened = '';
  let copiedUpTo = 0;
  for (let index = 0; index < message.length; index++) {
    if (message[index] !== '"') continue;
    let end = index + 1;
    while (end < message.length && message[end] !== '"') end += message[end] === '\\' ? 2 : 1;
    const literal = message.slice(index + 1, Math.min(end, message.length));
    if (literal.length > QUOTE_MAX) {
      shortened += `${message.slice(copiedUpTo, index + 1)}${quote(literal)}"`;
      copiedUpTo = end + 1;
    }
    index = end;
  }
  if (copiedUpTo > 0) shortened += message.slice(Math.min(copiedUpTo, message.length));
  else shortened = message;
  return quote(shortened, MESSAGE_MAX);
}

function gatewayErrorIn(error: unknown): GatewayError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current instanceof GatewayError) return current;
    const unavailable = asDatabaseUnavailable(current);
    if (unavailable) return unavailable;
    current = (current as { originalError?: unknown }).originalError;
  }
  return undefined;
}

/** Errors GraphQL itself produced (syntax, validation, coercion), without a foreign cause. */
function isGraphQLOwn(error: unknown): boolean {
  if (!(error instanceof GraphQLError)) return false;
  return error.originalError === undefined || error.originalError === null || isGraphQLOwn(error.originalError);
}

/**
 * Yoga's maskError: known errors pass unchanged (no rebuild); anything else becomes
 * "Unexpected error." with the original kept as `originalError` so that it can be logged.
 */
export function maskUnexpected(error: unknown): Error {
  if (gatewayErrorIn(error)) return error as Error;
  // GraphQL's own request errors are the client's to fix; one raised while executing a field
  // (a non-null field resolved to null…) is the gateway's bug.
  if (isGraphQLOwn(error) && !(error as GraphQLError).path) return error as Error;
  const located = error instanceof GraphQLError ? error : undefined;
  const original = (located?.originalError ?? error) as Error;
  const masked = new GraphQLError(UNEXPECTED, {
    nodes: located?.nodes,
    path: located?.path,
    originalError: original instanceof Error ? original : new Error(String(original)),
    extensions: { code: 'INTERNAL_SERVER_ERROR', unexpected: true },
  });
  // An error of a compiled query (compiled-execution.ts) has its locations but no AST nodes.
  if (!masked.locations && located?.locations)
    (masked as { locations?: readonly SourceLocation[] }).locations = located.locations;
  return masked;
}

interface Shape {
  message: string;
  locations?: readonly SourceLocation[];
  path?: readonly (string | number)[];
  extensions?: Record<string, unknown>;
  originalError?: unknown;
}

/**
 * Classifies one error. `hideSuggestions` drops GraphQL's "Did you mean …" hints (they reveal
 * the schema when introspection is off).
 */
export function mapError(error: Shape, hideSuggestions: boolean): MappedError {
  // `originalError`: Yoga's description of a cause (a body's JSON.parse error, which quotes the
  // whole body): never the client's to see.
  const {
    http,
    unexpected,
    originalError: _cause,
    ...own
  } = (error.extensions ?? {}) as {
    http?: { status?: number; headers?: Record<string, string> };
    unexpected?: boolean;
  } & Record<string, unknown>;
  const where = {
    ...(error.locations ? { locations: error.locations } : {}),
    ...(error.path ? { path: error.path } : {}),
  };
  const known = gatewayErrorIn(error);
  if (known) {
    return {
      client: {
        message: known.message,
        ...where,
        extensions: { ...known.extensions(), code: known.code, status: known.status },
      },
      headers: known.headers(),
    };
  }
  if (unexpected || own.code === 'INTERNAL_SERVER_ERROR' || error.path) {
    const original = error.originalError instanceof Error ? error.originalError : undefined;
    return {
      client: { message: UNEXPECTED, ...where, extensions: { code: 'INTERNAL_SERVER_ERROR', status: 500 } },
      headers: {},
      unexpected: original ?? new Error(error.message),
    };
  }
  // Request errors of GraphQL or Yoga: parse, validation, limits (coded by their plugins),
  // malformed requests (Yoga's http status) and variables that do not coerce (no code).
  const status = typeof own.status === 'number' ? own.status : (http?.status ?? 400);
  // Yoga codes its refusal of a mutation sent by GET (405, `Allow: POST`) BAD_REQUEST, like any
  // malformed request; the edge's 405 for other methods is METHOD_NOT_ALLOWED: one refusal, one code.
  const code = status === 405 ? 'METHOD_NOT_ALLOWED' : typeof own.code === 'string' ? own.code : 'BAD_USER_INPUT';
  const message = withShortEchoes(hideSuggestions ? withoutSuggestions(error.message) : error.message);
  return { client: { message, ...where, extensions: { ...own, code, status } }, headers: http?.headers ?? {} };
}
