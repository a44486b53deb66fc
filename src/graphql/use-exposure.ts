// What the schema reveals, per request, by the INTROSPECTION switch: off = never; authenticated
// = only to a caller with a valid token; public = to anyone. Whenever introspection is refused,
// "Did you mean …" suggestions are hidden too (they would spell the schema out field by field).

import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import { useDisableIntrospection } from '@graphql-yoga/plugin-disable-introspection';
import type { Plugin } from 'graphql-yoga';
import type { GraphQLServerContext } from './server-context.js';

export type IntrospectionMode = 'off' | 'authenticated' | 'public';

/** Requests for which introspection (and suggestions) are refused. */
export type HiddenSchemaRequests = WeakSet<Request>;

export function useExposure(
  mode: IntrospectionMode,
  hidden: HiddenSchemaRequests,
): Plugin<Record<string, never>, GraphQLServerContext> {
  const suggestions = blockFieldSuggestionsPlugin();
  return {
    onPluginInit({ addPlugin }) {
      // Added after this plugin, so its onRequestParse sees the decision made below.
      addPlugin(useDisableIntrospection({ isDisabled: (request) => hidden.has(request) }));
    },
    async onRequestParse({ request, serverContext }) {
      const allowed =
        mode === 'public' || (mode === 'authenticated' && (await serverContext.requestContext()).user !== null);
      if (!allowed) hidden.add(request);
    },
    onValidate(payload) {
      if (hidden.has(payload.context.request)) return suggestions.onValidate?.(payload as never);
    },
  };
}
