// Replaces Yoga's request parsers for what carries JSON (a POST of `application/json` or
// `application/graphql+json`, a form body, a GET's query string) with request-params.ts's: the
// text is scanned (nesting, keys) before JSON.parse, and a body the edge already read for the
// direct lane (server-context.ts's `body`) is parsed once for both lanes. `application/graphql`
// (the document itself, no JSON) keeps Yoga's parser; a type Yoga has no parser for is left to
// useUnsupportedMediaType (415). useWholeRequestAuth, later in the list, replaces any of these
// with a refusal that reads nothing when the caller has no valid token.

import type { Plugin } from 'graphql-yoga';
import { paramsOfJsonText, paramsOfSearch } from './request-params.js';
import type { GraphQLServerContext } from './server-context.js';

/** Yoga's test of a request's content type (its request-parser/utils.js): the first of a list, exact or with parameters. */
function hasContentType(request: Request, expected: string): boolean {
  const contentType = request.headers.get('content-type')?.split(',')[0];
  return contentType === expected || contentType?.startsWith(`${expected};`) === true;
}

export function useRequestParams(maxDepth: number): Plugin<Record<string, never>, GraphQLServerContext> {
  return {
    onRequestParse({ request, requestParser, serverContext, setRequestParser }) {
      // No parser of Yoga's took it: useUnsupportedMediaType answers 415.
      if (!requestParser) return;
      if (request.method === 'GET') {
        // As Yoga reads it: everything after the first `?`.
        const { url } = request;
        return setRequestParser(() =>
          paramsOfSearch(new URLSearchParams(url.substring(url.indexOf('?') + 1)), maxDepth),
        );
      }
      if (request.method !== 'POST') return;
      if (hasContentType(request, 'application/json') || hasContentType(request, 'application/graphql+json')) {
        const { body } = serverContext;
        if (body) return setRequestParser(() => body.params());
        return setRequestParser(async (posted) => paramsOfJsonText(await posted.text(), maxDepth));
      }
      if (hasContentType(request, 'application/x-www-form-urlencoded'))
        setRequestParser(async (posted) => paramsOfSearch(new URLSearchParams(await posted.text()), maxDepth));
    },
  };
}
