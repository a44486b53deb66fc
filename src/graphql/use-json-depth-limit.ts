// Refuses GraphQL variables or extensions nested deeper than MAX_JSON_DEPTH (POST body or GET
// query string alike) before anything recursive walks them, with a 400 BAD_REQUEST error.

import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { JsonTooDeepError, valueNestsDeeperThan } from '../http/json-depth.js';

export function useJsonDepthLimit(maxDepth: number): Plugin {
  return {
    onParams({ params }) {
      if (valueNestsDeeperThan(params.variables, maxDepth) || valueNestsDeeperThan(params.extensions, maxDepth)) {
        throw new GraphQLError(new JsonTooDeepError(maxDepth).message, {
          extensions: { code: 'BAD_REQUEST', status: 400, http: { status: 400 } },
        });
      }
    },
  };
}
