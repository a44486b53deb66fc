// Everything subscriptions (Server-Sent Events) need from the GraphQL edge, in one place. The
// request-level plugins see a subscription's request like any other: useWholeRequestAuth refuses
// it without a token (401) at onParams, persisted operations apply at onParams too. Execution-level
// plugins hook `onExecute`, which a subscription never reaches, so this plugin does their part:
// - an anonymous subscription (INTROSPECTION=public lets anonymous requests be parsed) is refused;
// - each streamed result leaves through the same error mapping as a single result
//   (use-graphql-over-http.ts maps single results, including a refusal before the stream starts);
// - cost and budget: no subscription field calls a carrier, so there is nothing to charge.

import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { UnauthenticatedError } from '../errors/gateway-errors.js';
import type { Logger } from '../lib/logger.js';
import type { RequestContext } from '../pipeline/request-context.js';
import { mapError } from './errors.js';

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
        onSubscribeResult: () => ({
          onNext({ result, setResult }) {
            if (!result.errors?.length) return;
            const mapped = result.errors.map((error) => mapError(error, true));
            for (const { unexpected } of mapped)
              if (unexpected) logger.error('unexpected error', { requestId, err: unexpected });
            const errors = mapped.map((error) => error.client) as unknown as GraphQLError[];
            setResult({ ...result, errors } satisfies ExecutionResult);
          },
        }),
      };
    },
  };
}
