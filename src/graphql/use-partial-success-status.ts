// A response that carries data for some fields and errors for others is a partial success:
// HTTP 200, so that a dashboard screen keeps the panels that worked. Only when no field
// produced data does the response take the status of its error (401, 403, 429, 503…).

import type { GraphQLError } from 'graphql';
import { GraphQLError as LocatedError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

function withoutHttp(error: GraphQLError): GraphQLError {
  if (!error.extensions?.http) return error;
  const { http: _http, ...extensions } = error.extensions;
  return new LocatedError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions,
  });
}

export function usePartialSuccessStatus(): Plugin {
  return {
    onExecutionResult({ result, setResult }) {
      if (!result || !('errors' in result) || !result.errors?.length) return;
      const someData = Object.values(result.data ?? {}).some((value) => value !== null && value !== undefined);
      if (someData) setResult({ ...result, errors: result.errors.map((error) => withoutHttp(error as GraphQLError)) });
    },
  };
}
