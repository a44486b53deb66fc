// A request Yoga has no parser for (a POST of text/plain, XML…) is refused 415 as before, but
// with a GraphQL error body that says what to send instead, with `extensions.code` and
// `extensions.status` as every other refusal: Yoga's own 415 has no body at all.

import type { Plugin } from 'graphql-yoga';
import { quote } from '../lib/quote.js';
import { regularMediaType } from './result-media-type.js';

/** What Yoga parses (its request parsers; multipart is off). */
const ACCEPTED =
  'a POST of application/json (or application/graphql+json, application/graphql, application/x-www-form-urlencoded), or a GET with the query in the URL';

export function useUnsupportedMediaType(): Plugin {
  return {
    onRequestParse({ request, requestParser, endResponse, fetchAPI }) {
      // Yoga's parsers run first: one of them took the request.
      if (requestParser) return;
      const given = request.headers.get('content-type')?.split(';')[0]?.trim();
      const error = {
        message: `Unsupported Content-Type ${given ? JSON.stringify(quote(given)) : '(none)'}: send ${ACCEPTED}`,
        extensions: { code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 },
      };
      const mediaType = regularMediaType(request.headers.get('accept') ?? undefined) ?? 'application/json';
      endResponse(
        new fetchAPI.Response(JSON.stringify({ errors: [error] }), {
          status: 415,
          headers: { 'content-type': `${mediaType}; charset=utf-8` },
        }),
      );
    },
  };
}
