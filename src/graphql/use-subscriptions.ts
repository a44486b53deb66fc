// Everything subscriptions (Server-Sent Events) need from the GraphQL edge, in one place. The
// request-level plugins see a subscription's request like any other: useWholeRequestAuth refuses
// it without a token (401) at onParams, persisted operations apply at onParams too. Execution-level
// plugins hook `onExecute`, which a subscription never reaches, so this plugin does their part:
// - an anonymous subscription (INTROSPECTION=public lets anonymous requests be parsed) is refused;
// - a subscription refused when it starts (the job is not yours: NOT_FOUND) is streamed as one
//   event carrying the error, as the GraphQL over SSE protocol has execution errors, instead of
//   becoming a whole-request refusal (an HTTP 404 that SSE clients read as a network failure);
// - each streamed result leaves through the same error mapping as a single result;
// - a stream keeps the caller's rights as they are now: it ends when its token is revoked or
//   expires, its user is deactivated or loses superuser rights (stream-authorization.ts);
// - cost and budget: no subscription field calls a carrier, so there is nothing to charge; what a
//   stream holds is a connection and a subscription on the bus, so a user keeps at most
//   MAX_STREAMS_PER_USER open on one replica (the next is refused RATE_LIMITED until one ends);
// - shutdown: a stream has no end of its own to wait for, so when the replica starts to drain
//   (`draining` aborts) every open stream completes at once, ending with its `complete` event
//   (SSE) like a stream that ran its course, and its client reconnects to another replica; one
//   that starts while the replica drains completes at once too. Ordinary requests keep their
//   grace period (server.ts close()).

import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { RateLimitedError, UnauthenticatedError } from '../errors/gateway-errors.js';
import type { Logger } from '../lib/logger.js';
import type { RequestContext } from '../pipeline/request-context.js';
import { mapError } from './errors.js';
import type { GraphQLServerContext } from './server-context.js';
import { whileAuthorized } from './stream-authorization.js';

async function* streamOf(result: ExecutionResult): AsyncGenerator<ExecutionResult> {
  yield result;
}

/** Streams one user may have open at once on one replica. */
export const MAX_STREAMS_PER_USER = 10;

export function useSubscriptions(logger: Logger, draining: AbortSignal): Plugin {
  const openStreams = new Map<string, number>();
  const refuse = (error: Error) => ({ errors: [new GraphQLError(error.message, { originalError: error })] });
  return {
    onSubscribe({ args, setResultAndStopExecution }) {
      const context = args.contextValue as Partial<RequestContext> & Partial<GraphQLServerContext>;
      if (!context.user) {
        return setResultAndStopExecution(refuse(new UnauthenticatedError(context.authFailure ?? 'Not authenticated')));
      }
      const userId = context.user.id;
      const open = openStreams.get(userId) ?? 0;
      if (open >= MAX_STREAMS_PER_USER) {
        const message = `Too many open subscriptions: at most ${MAX_STREAMS_PER_USER} at a time; close one first`;
        return setResultAndStopExecution(refuse(new RateLimitedError(message, 1)));
      }
      openStreams.set(userId, open + 1);
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        const left = (openStreams.get(userId) ?? 1) - 1;
        if (left > 0) openStreams.set(userId, left);
        else openStreams.delete(userId);
      };
      const requestId = context.requestId;
      return {
        onSubscribeResult: ({ result, setResult }) => {
          setResult(
            Symbol.asyncIterator in result
              ? whileAuthorized(result, context as RequestContext, context.req?.headers.authorization, draining)
              : streamOf(result),
          );
          return {
            onEnd: end,
            onNext({ result, setResult }) {
              if (!result.errors?.length) return;
              const mapped = result.errors.map((error) => mapError(error, true));
              for (const { unexpected } of mapped)
                if (unexpected) logger.error('unexpected error', { requestId, err: unexpected });
              // GraphQLErrors keeping their cause: Yoga masks each streamed result again (maskUnexpected
              // lets an error with a GatewayError cause through, and masks the rest the same way).
              const errors = mapped.map(
                ({ client }, index) =>
                  new GraphQLError(client.message, {
                    path: client.path,
                    originalError: result.errors![index]!.originalError ?? undefined,
                    extensions: client.extensions,
                  }),
              );
              setResult({ ...result, errors } satisfies ExecutionResult);
            },
          };
        },
      };
    },
  };
}
