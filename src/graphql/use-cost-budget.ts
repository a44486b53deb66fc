// The per-user cost budget of GraphQL (src/budget/cost-budget.ts): before execution the request's
// cost (query-cost.ts, in carrier calls) is taken from the caller's bucket, or the request is
// refused whole (429 THROTTLED, Retry-After, no data); the request may then make that many carrier
// calls and no more (RequestContext.carrierCallLimit: a call beyond is refused, QUERY_TOO_COSTLY
// on its field), and after execution the calls not made are given back. Every answer reports it
// in Shopify's shape, `extensions.cost`, and in the RateLimit headers (policy "graphql-cost").

import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { CostBudget, ThrottleStatus } from '../budget/cost-budget.js';
import { rateLimitHeaders } from '../lib/rate-limit-headers.js';
import type { RequestContext } from '../pipeline/request-context.js';
import { executionCost } from './query-cost.js';
import { ThrottledError } from './request-errors.js';
import { merged } from '../lib/merged.js';

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
  const reported = merged(http, { headers: merged(http.headers, headers) });
  return merged(result, { extensions: merged(result.extensions, { cost, http: reported }) });
}

/** The outcome of taking a request's cost from its caller's bucket. */
export type CostCharge =
  | { granted: false; refusal: ExecutionResult }
  | {
      granted: true;
      /** Charges what was spent (`spent` carrier calls were made), no more, and adds the cost report to the result. */
      settle(result: ExecutionResult, spent: number): Promise<ExecutionResult>;
    };

/**
 * Takes `requested` points from the user's bucket before execution: the refusal to answer when
 * they are not there (nothing taken), or how to settle once the request has run. Both GraphQL
 * lanes charge through it (this plugin, and direct-execution.ts).
 */
export async function chargeCost(budget: CostBudget, userId: string, requested: number): Promise<CostCharge> {
  const withdrawal = await budget.take(userId, requested);
  if (!withdrawal.granted) {
    const headers = headersOf(budget, withdrawal.status);
    const refusal = new ThrottledError(
      requested,
      withdrawal.status.currentlyAvailable,
      withdrawal.retryAfterSeconds,
      headers,
    );
    const cost = { requestedQueryCost: requested, actualQueryCost: null, throttleStatus: withdrawal.status };
    return {
      granted: false,
      refusal: report({ errors: [new GraphQLError(refusal.message, { originalError: refusal })] }, cost, headers),
    };
  }
  return {
    granted: true,
    async settle(result, spent) {
      // The calls not made are given back. A request cannot make more than it was priced at (its
      // carrierCallLimit); were it to, the excess is taken too, as far as the bucket holds it.
      const status =
        spent < requested
          ? await budget.refund(userId, requested - spent)
          : spent > requested
            ? (await budget.take(userId, spent - requested)).status
            : withdrawal.status;
      const cost = { requestedQueryCost: requested, actualQueryCost: spent, throttleStatus: status };
      return report(result, cost, headersOf(budget, status));
    },
  };
}

export function useCostBudget(budget: CostBudget): Plugin {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const context = args.contextValue as Partial<RequestContext>;
      const user = context.user;
      // Anonymous requests reach execution only for meta fields (INTROSPECTION=public): free.
      if (!user) return;
      const cost = executionCost(args);
      const charge = await chargeCost(budget, user.id, cost);
      if (!charge.granted) return setResultAndStopExecution(charge.refusal);
      const before = context.carrierCalls ?? 0;
      // Paid for: the request may make that many carrier calls (none until now).
      context.carrierCallLimit = before + cost;
      return {
        async onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result) return; // no streams here
          setResult(await charge.settle(result, (context.carrierCalls ?? 0) - before));
        },
      };
    },
  };
}
