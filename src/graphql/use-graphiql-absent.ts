// With GRAPHIQL=off, a browser asking /graphql for a page gets 404, as for any absent page,
// instead of the 406 of a GraphQL request that cannot be answered in HTML.

import { shouldRenderGraphiQL, type Plugin } from 'graphql-yoga';

export function useGraphiQLAbsent(): Plugin {
  return {
    onRequest({ request, url, fetchAPI, endResponse }) {
      if (shouldRenderGraphiQL(request) && !url.searchParams.has('query')) {
        endResponse(
          new fetchAPI.Response(JSON.stringify({ detail: 'Not Found' }), {
            status: 404,
            headers: { 'content-type': 'application/json' },
          }),
        );
      }
    },
  };
}
