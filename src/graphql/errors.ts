// Turns what resolvers throw into what GraphQL clients see: gateway refusals keep their
// message, code and HTTP status (extensions); anything else is masked as "Unexpected error."
// and logged with the request id.

import { GraphQLError } from 'graphql';
import { GatewayError } from '../pipeline/errors.js';

function gatewayErrorIn(error: unknown): GatewayError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current instanceof GatewayError) return current;
    current = (current as { originalError?: unknown }).originalError;
  }
  return undefined;
}

/** The client-facing error, or undefined when the error is unexpected and must be masked. */
export function exposedGraphQLError(error: unknown): GraphQLError | undefined {
  const known = gatewayErrorIn(error);
  if (!known) return error instanceof GraphQLError && !error.originalError ? error : undefined;
  const located = error instanceof GraphQLError ? error : undefined;
  return new GraphQLError(known.message, {
    nodes: located?.nodes,
    positions: located?.positions,
    path: located?.path,
    source: located?.source,
    extensions: { code: known.code, http: { status: known.status, headers: known.headers() }, ...known.extensions() },
  });
}
