// A request whose Accept header allows no media type the answer can be given in is refused 406
// with a GraphQL error body that says what to accept, `extensions.code` NOT_ACCEPTABLE and
// `extensions.status` 406, as every other refusal of the edge: Yoga's own 406 has no body at all.
// Refused before anything runs: a mutation is not executed for a client that cannot read the
// answer, and a subscription is not started for one that cannot read a stream.

import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { NotAcceptableError } from './request-errors.js';
import { acceptsAnyServed, acceptsMediaType } from './result-media-type.js';

const SUBSCRIPTION_NEEDS_STREAM =
  'A subscription is answered as a stream of Server-Sent Events: send Accept: text/event-stream';

/** Not the header itself: accept-quality.ts has rewritten one that refuses every range (q=0). */
const NOTHING_SERVED =
  'The Accept header allows no media type /graphql answers in: accept application/graphql-response+json or application/json (a subscription: text/event-stream)';

/** The 406 body, written as the edge writes its other refusals (graphql-request.ts). */
function notAcceptable(fetchAPI: { Response: typeof Response }, errors: readonly unknown[]): Response {
  return new fetchAPI.Response(JSON.stringify({ errors }), {
    status: 406,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}

const refusal = (message: string) => ({ message, extensions: { code: 'NOT_ACCEPTABLE', status: 406 } });

export function useNotAcceptable(): Plugin {
  return {
    // No answer at all could be read: refused before the request is parsed.
    onRequestParse({ request, endResponse, fetchAPI }) {
      if (!acceptsAnyServed(request.headers.get('accept')))
        endResponse(notAcceptable(fetchAPI, [refusal(NOTHING_SERVED)]));
    },
    // A subscription for a client that accepts no event stream: refused before it starts (its
    // refusal then leaves in the JSON type the client accepts, with the status 406).
    onSubscribe({ args, setResultAndStopExecution }) {
      const request = (args.contextValue as { request?: Request }).request;
      if (!request || acceptsMediaType(request.headers.get('accept'), 'text/event-stream')) return;
      const cause = new NotAcceptableError(SUBSCRIPTION_NEEDS_STREAM);
      setResultAndStopExecution({ errors: [new GraphQLError(cause.message, { originalError: cause })] });
    },
    // Left to Yoga, which answers an empty 406: a refused subscription for a client accepting
    // only multipart/mixed (Yoga offers subscriptions no multipart answer).
    onResultProcess({ resultProcessor, setResultProcessor }) {
      if (resultProcessor) return;
      setResultProcessor((result, fetchAPI) => {
        const errors = Symbol.asyncIterator in result || Array.isArray(result) ? undefined : result.errors;
        return notAcceptable(fetchAPI, errors?.length ? errors : [refusal(SUBSCRIPTION_NEEDS_STREAM)]);
      }, 'application/json');
    },
  };
}
