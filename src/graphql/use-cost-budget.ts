// The per-user cost budget of GraphQL (src/budget/cost-budget.ts): before execution the request's
// cost (query-cost.ts, in carrier calls) is taken from the caller's bucket, or the request is
// refused whole (429 THROTTLED, Retry-After, no data); after execution the calls not made are
// given back. Every answer reports it in Shopify's shape, `extensions.cost`, and in the RateLimit
// headers (policy "graphql-cost").

import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { CostBudget, ThrottleStatus } from '../budget/cost-budget.js';
import { rateLimitHeaders } from '../lib/rate-limit-headers.js';
import type { RequestContext } from '../pipeline/request-context.js';
import { executionCost } from './query-cost.js';
import { ThrottledError } from './request-errors.js';

export const COST_POLICY = 'graphql-cost';

export interface CostExtension {
  requestedQueryCost: number;
  actualQueryCost: number | null;
  throttleStatus: ThrottleStatus;
}

function headersOf(budget: CostBudget, status: ThrottleStatus): Record<string, string> {
  return rateLimitHeaders({
    policy: COST_POLICY,
    quota: budget.capacity,
    windowSeconds: Math.ceil(budget.capacity / budget.restoreRate),
    remaining: status.currentlyAvailable,
    resetSeconds: budget.secondsToFull(status.currentlyAvailable),
  });
}

/** Adds the cost report and the RateLimit headers to a result (kept by use-graphql-over-http). */
function report(result: ExecutionResult, cost: CostExtension, headers: Record<string, string>): ExecutionResult {
  const http = (result.extensions?.http ?? {}) as { headers?: Record<string, string> };
  return {
    ...result,
    extensions: { ...result.extensions, cost, http: { ...http, headers: { ...http.headers, ...headers } } },
  };
}

export function useCostBudget(budget: CostBudget): Plugin {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const context = args.contextValue as Partial<RequestContext>;
      const user = context.user;
      // Anonymous requests reach execution only for meta fields (INTROSPECTION=public): free.
      if (!user) return;
      const requested = executionCost(args);
      const withdrawal = await budget.take(user.id, requested);
      if (!withdrawal.granted) {
        const headers = headersOf(budget, withdrawal.status);
        const refusal = new ThrottledError(
          requested,
          withdrawal.status.currentlyAvailable,
          withdrawal.retryAfterSeconds,
          headers,
        );
        const cost = { requestedQueryCost: requested, actualQueryCost: null, throttleStatus: withdrawal.status };
        return setResultAndStopExecution(
          report({ errors: [new GraphQLError(refusal.message, { originalError: refusal })] }, cost, headers),
        );
      }
      const before = context.carrierCalls ?? 0;
      return {
        async onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result) return; // no streams here
          const actual = Math.min(requested, (context.carrierCalls ?? 0) - before);
          const status = actual < requested ? await budget.refund(user.id, requested - actual) : withdrawal.status;
          setResult(
            report(
              result,
              { requestedQueryCost: requested, actualQueryCost: actual, throttleStatus: status },
              headersOf(budget, status),
            ),
          );
        },
      };
    },
  };
}
