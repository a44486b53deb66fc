// A GraphQL request without a valid token is refused as a whole before its document is parsed:
// 401, no data, `WWW-Authenticate: Bearer`, one UNAUTHENTICATED error saying why (expired,
// revoked…). The one exception: with INTROSPECTION=public, an anonymous request that asks
// only for the schema (__schema, __type, __typename) is parsed and answered.

import { GraphQLError, getOperationAST, Kind, type DocumentNode, type SelectionSetNode } from 'graphql';
import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { UnauthenticatedError } from '../errors/gateway-errors.js';
import type { RequestContext } from '../pipeline/request-context.js';
import type { IntrospectionMode } from './use-exposure.js';
import type { GraphQLServerContext } from './server-context.js';

const refusalError = (why: string): GraphQLError => {
  const error = new UnauthenticatedError(why);
  return new GraphQLError(error.message, { originalError: error });
};

const refusal = (why: string): ExecutionResult => ({ errors: [refusalError(why)] });

/** True when every field the operation selects at its root is a meta field (fragments followed). */
function isIntrospectionOnly(document: DocumentNode, operationName?: string | null): boolean {
  const operation = getOperationAST(document, operationName);
  if (!operation) return false;
  const fragments = new Map(
    document.definitions.flatMap((definition) =>
      definition.kind === Kind.FRAGMENT_DEFINITION ? [[definition.name.value, definition.selectionSet] as const] : [],
    ),
  );
  const seen = new Set<string>();
  const onlyMeta = (set: SelectionSetNode): boolean =>
    set.selections.every((selection) => {
      if (selection.kind === Kind.FIELD) return selection.name.value.startsWith('__');
      if (selection.kind === Kind.INLINE_FRAGMENT) return onlyMeta(selection.selectionSet);
      if (seen.has(selection.name.value)) return true;
      seen.add(selection.name.value);
      const spread = fragments.get(selection.name.value);
      return spread !== undefined && onlyMeta(spread);
    });
  return onlyMeta(operation.selectionSet);
}

export function useWholeRequestAuth(
  introspection: IntrospectionMode,
): Plugin<Record<string, never>, GraphQLServerContext> {
  return {
    async onParams({ context }) {
      const { user, authFailure } = await context.requestContext();
      // Thrown, not set as the result: the later parameter checks (Yoga's, persisted
      // operations') would throw over it, answering an anonymous GET without a query 400, or
      // 200 to a legacy client, instead of 401.
      if (!user && introspection !== 'public') throw refusalError(authFailure);
    },
    onExecute({ args, setResultAndStopExecution }) {
      const { user, authFailure } = args.contextValue as unknown as RequestContext;
      if (!user && !isIntrospectionOnly(args.document, args.operationName))
        setResultAndStopExecution(refusal(authFailure));
    },
  };
}
