// Persisted operations (Yoga's plugin, Apollo's APQ request shape): a request may name an
// operation of the allow-list by `extensions.persistedQuery.sha256Hash` instead of sending its
// document. With the runtime setting `persisted_operations_only`, a non-superuser's request must
// be one of them — by hash, or by sending exactly a listed document — else 403
// PERSISTED_QUERY_REQUIRED; superusers (GraphiQL) may still send any document. The allow-list is
// never extended by requests (no automatic registration).

import { usePersistedOperations as useYogaPersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { GraphQLError } from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import type { GatewayError } from '../errors/gateway-errors.js';
import { sha256Hex, type PersistedOperations } from './persisted-operations.js';
import { PersistedOperationNotFoundError, PersistedOperationRequiredError } from './request-errors.js';
import type { GraphQLServerContext } from './server-context.js';

const asGraphQLError = (error: GatewayError) => new GraphQLError(error.message, { originalError: error });

export function usePersistedOperations(
  operations: PersistedOperations,
): Plugin<Record<string, never>, GraphQLServerContext>[] {
  const onlyPersisted: Plugin<Record<string, never>, GraphQLServerContext> = {
    async onParams({ params, context, setResult }) {
      if (typeof params.query !== 'string') return;
      const { user, services } = await context.requestContext();
      // Anonymous requests are refused (or limited to introspection) by useWholeRequestAuth.
      if (!user || user.superuser || !(await services.settings.values()).persisted_operations_only) return;
      // Hashed only when the answer depends on it: a sha256 of every document cost every request.
      if (operations.has(sha256Hex(params.query))) return;
      setResult({ errors: [asGraphQLError(new PersistedOperationRequiredError())] });
    },
  };
  // An anonymous request naming a listed hash is still refused 401 by useWholeRequestAuth; an
  // unknown hash is a 400 (Yoga's parameter check would refuse it 400 anyway, having no document).
  const byHash = useYogaPersistedOperations<GraphQLServerContext>({
    getPersistedOperation: (hash) => operations.get(hash) ?? null,
    // Documents are allowed here; whether this caller may send one is decided above.
    allowArbitraryOperations: true,
    customErrors: {
      notFound: () => asGraphQLError(new PersistedOperationNotFoundError()),
      // Neither a document nor a hash: Yoga's own answer when the plugin is absent (a body that
      // is not a GraphQL request: 400 BAD_REQUEST for every client, whatever it accepts).
      keyNotFound: () =>
        createGraphQLError('Must provide query string.', {
          extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
        }),
    },
  }) as Plugin<Record<string, never>, GraphQLServerContext>;
  return [onlyPersisted, byHash];
}
