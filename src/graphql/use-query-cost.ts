// Refuses, before execution, a request that would make more carrier calls than the maximum
// (400 QUERY_TOO_COSTLY, naming the cost and the maximum); see query-cost.ts for the price list.

import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { executionCost } from './query-cost.js';
import { QueryTooCostlyError } from './request-errors.js';

export function useQueryCost({ maxCost = 100 }: { maxCost?: number } = {}): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const cost = executionCost(args);
      if (cost <= maxCost) return;
      const refusal = new QueryTooCostlyError(cost, maxCost);
      setResultAndStopExecution({ errors: [new GraphQLError(refusal.message, { originalError: refusal })] });
    },
  };
}
