// Everything subscriptions (Server-Sent Events) need from the GraphQL edge, in one place. The
// request-level plugins see a subscription's request like any other: useWholeRequestAuth refuses
// it without a token (401) at onParams, persisted operations apply at onParams too. Execution-level
// plugins hook `onExecute`, which a subscription never reaches, so this plugin does their part:
// - an anonymous subscription (INTROSPECTION=public lets anonymous requests be parsed) is refused;
// - a subscription refused when it starts (the job is not yours: NOT_FOUND) is streamed as one
//   event carrying the error, as the GraphQL over SSE protocol has execution errors, instead of
//   becoming a whole-request refusal (an HTTP 404 that SSE clients read as a network failure);
// - each streamed result leaves through the same error mapping as a single result;
// - cost and budget: no subscription field calls a carrier, so there is nothing to charge.

import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { UnauthenticatedError } from '../errors/gateway-errors.js';
import type { Logger } from '../lib/logger.js';
import type { RequestContext } from '../pipeline/request-context.js';
import { mapError } from './errors.js';

async function* streamOf(result: ExecutionResult): AsyncGenerator<ExecutionResult> {
  yield result;
}

export function useSubscriptions(logger: Logger): Plugin {
  return {
    onSubscribe({ args, setResultAndStopExecution }) {
      const context = args.contextValue as Partial<RequestContext>;
      if (!context.user) {
        const refusal = new UnauthenticatedError(context.authFailure ?? 'Not authenticated');
        return setResultAndStopExecution({ errors: [new GraphQLError(refusal.message, { originalError: refusal })] });
      }
      const requestId = context.requestId;
      return {
        onSubscribeResult: ({ result, setResult }) => {
          if (!(Symbol.asyncIterator in result)) setResult(streamOf(result));
          return {
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
