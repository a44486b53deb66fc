// Logs every unexpected resolver error with the request id before Yoga masks it as
// "Unexpected error.": the client sees the id in X-Request-Id, the operator finds the stack.

import type { Plugin } from 'graphql-yoga';
import type { Logger } from '../lib/logger.js';
import type { RequestContext } from '../pipeline/request-context.js';
import { exposedGraphQLError } from './errors.js';

export function useUnexpectedErrorLog(logger: Logger): Plugin<RequestContext> {
  return {
    onExecute({ args }) {
      const { requestId } = args.contextValue as RequestContext;
      return {
        onExecuteDone({ result }) {
          if (!('errors' in result) || !result.errors) return;
          for (const error of result.errors) {
            if (exposedGraphQLError(error)) continue;
            const original = (error.originalError ?? error) as Error;
            logger.error('unexpected error', { requestId, path: error.path?.join('.'), error: String(original), stack: original.stack });
          }
        },
      };
    },
  };
}
