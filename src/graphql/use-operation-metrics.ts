// Observes each GraphQL operation: its bounded name and type go on the access record, its time
// into graphql_operation_duration_seconds by the status REST would answer, and, with tracing
// on, its execution runs in a span of its own (carrier calls become its children).

import { getOperationAST, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { inSpan } from '../lib/tracing.js';
import type { Metrics } from '../metrics.js';
import { createOperationLabeller } from './operation-label.js';
import type { GraphQLServerContext } from './server-context.js';

/** The status of a result: 200 without errors, else what REST would answer for its first error. */
function statusOf(result: ExecutionResult): string {
  const first = result.errors?.[0];
  if (!first) return '200';
  const status = (first.extensions as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' ? String(status) : '500';
}

export function useOperationMetrics(
  metrics: Metrics,
  maxNames = 200,
): Plugin<Record<string, never>, GraphQLServerContext> {
  const label = createOperationLabeller(maxNames);
  const started = new WeakMap<Request, number>();
  return {
    onRequest({ request }) {
      started.set(request, performance.now());
    },
    onExecute({ args, executeFn, setExecuteFn }) {
      const access = (args.contextValue as Partial<GraphQLServerContext>).access;
      const operation = getOperationAST(args.document, args.operationName);
      const name = label(operation?.name?.value);
      const type = operation?.operation ?? 'unknown';
      if (access) Object.assign(access, { operationName: name, operationType: type });
      const attributes = { 'graphql.operation.name': name, 'graphql.operation.type': type };
      setExecuteFn((execArgs) =>
        inSpan(
          `graphql ${type} ${name}`,
          'internal',
          attributes,
          async () => executeFn(execArgs),
          ({ value, error }) => {
            const failed = error !== undefined || Boolean(value && 'errors' in value && value.errors?.length);
            return { label: failed ? 'error' : 'success', failed };
          },
        ),
      );
    },
    onResultProcess({ request, result, serverContext }) {
      if (Symbol.asyncIterator in result || Array.isArray(result)) return;
      const since = started.get(request);
      if (since === undefined) return;
      started.delete(request);
      const access = serverContext.access;
      metrics.graphqlOperations.observe(
        {
          operation_name: access.operationName ?? 'none',
          operation_type: access.operationType ?? 'none',
          status: statusOf(result),
        },
        (performance.now() - since) / 1000,
      );
    },
  };
}
