// Caps on the shape of a GraphQL document, checked before anything runs (graphql-armor): the
// token cap stops the parser at the first token over it (so a deeply nested document is a 400,
// never a stack overflow); aliases, depth and directives are validation rules. Each refusal is
// a 400 with its own `extensions.code`.

import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import type { GraphQLError, ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';

export interface RequestLimits {
  maxTokens: number;
  maxDepth: number;
  maxAliases: number;
  maxDirectives: number;
}

/**
 * Depth as the result nests: a fragment (named or inline) is not a level of its own, so a query
 * built from colocated fragments (Apollo, Relay) counts as deep as the same query written out.
 * Both lanes take it (prepared-documents.ts validates the direct lane's documents with it).
 */
export const depthLimit = (limits: RequestLimits) => ({ n: limits.maxDepth, flattenFragments: true });
/**
 * Every alias counts, `__typename`'s too: graphql-armor leaves those out by default, so a request
 * could repeat `a1: __typename …` up to the token cap, each answered.
 */
export const aliasLimit = (limits: RequestLimits) => ({ n: limits.maxAliases, allowList: [] });

/** Gives the refusal its code and reports it as a validation error (tokens: thrown by the parser). */
const refuseWith =
  (code: string) =>
  (context: ValidationContext | null, error: GraphQLError): void => {
    // armor prefixes every limit with "Syntax Error: "; only a parse error is one.
    error.message = error.message.replace(/^Syntax Error: /, '');
    error.extensions.code = code;
    error.extensions.status = 400;
    context?.reportError(error);
  };

export function useRequestLimits(limits: RequestLimits): Plugin {
  return {
    onPluginInit({ addPlugin }) {
      addPlugin(
        maxTokensPlugin({ n: limits.maxTokens, onReject: [refuseWith('QUERY_TOO_LARGE')], propagateOnRejection: true }),
      );
      addPlugin(
        maxDepthPlugin({
          ...depthLimit(limits),
          onReject: [refuseWith('QUERY_TOO_DEEP')],
          propagateOnRejection: false,
        }),
      );
      addPlugin(
        maxAliasesPlugin({
          ...aliasLimit(limits),
          onReject: [refuseWith('TOO_MANY_ALIASES')],
          propagateOnRejection: false,
        }),
      );
      addPlugin(
        maxDirectivesPlugin({
          n: limits.maxDirectives,
          onReject: [refuseWith('TOO_MANY_DIRECTIVES')],
          propagateOnRejection: false,
        }),
      );
    },
  };
}
