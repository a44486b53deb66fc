// A GraphQL request without a valid token is refused as a whole before its body is parsed (on
// Yoga's lane, before it is even read): 401, no data, `WWW-Authenticate: Bearer`, one
// UNAUTHENTICATED error saying why (expired, revoked…). Whatever the body holds (a 1 MB
// document, JSON nested 499,000 deep, 60,000 keys, no JSON at all), the refusal costs the
// same. The one exception: with INTROSPECTION=public, an anonymous request is parsed, and
// answered only when it asks for nothing but the schema (__schema, __type, __typename).

import { GraphQLError, getOperationAST, Kind, type DocumentNode, type SelectionSetNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { UnauthenticatedError } from '../errors/gateway-errors.js';
import type { RequestContext } from '../pipeline/request-context.js';
import type { IntrospectionMode } from './use-exposure.js';
import type { GraphQLServerContext } from './server-context.js';

const refusal = (why: string): GraphQLError => {
  const error = new UnauthenticatedError(why);
  return new GraphQLError(error.message, { originalError: error });
};

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
    async onRequestParse({ requestParser, serverContext, setRequestParser }) {
      // No parser took it (415, decided from the headers alone), or anyone may be parsed.
      if (!requestParser || introspection === 'public') return;
      const { user, authFailure } = await serverContext.requestContext();
      // Runs after useRequestParams: this "parser" reads nothing and throws the 401, which Yoga
      // answers as any refusal (use-graphql-over-http.ts: status, headers, media type).
      if (!user)
        setRequestParser(() => {
          throw refusal(authFailure);
        });
    },
    onExecute({ args, setResultAndStopExecution }) {
      const { user, authFailure } = args.contextValue as unknown as RequestContext;
      if (!user && !isIntrospectionOnly(args.document, args.operationName))
        setResultAndStopExecution({ errors: [refusal(authFailure)] });
    },
  };
}
