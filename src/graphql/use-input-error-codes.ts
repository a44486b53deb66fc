// Gives request-level GraphQL errors that carry no code (a variable that does not coerce, e.g.
// an enum value outside the set) the code BAD_USER_INPUT, as every other bad input has.
// Errors of the validation phase keep Yoga's GRAPHQL_VALIDATION_FAILED.

import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

function withCode(error: GraphQLError): GraphQLError {
  if (error.extensions?.code || error.path) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    originalError: error.originalError,
    extensions: { ...error.extensions, code: 'BAD_USER_INPUT', http: { status: 400 } },
  });
}

export function useInputErrorCodes(): Plugin {
  return {
    onExecutionResult({ result, setResult }) {
      if (!result || !('errors' in result) || !result.errors?.length) return;
      setResult({ ...result, errors: result.errors.map((error) => (error instanceof GraphQLError ? withCode(error) : error)) });
    },
  };
}
