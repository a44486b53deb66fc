// Observes each GraphQL operation: its bounded name and type go on the access record, its time
// into graphql_operation_duration_seconds by the status REST would answer, and, with tracing
// on, its execution runs in a span of its own (carrier calls become its children). One
// observer serves both GraphQL lanes (this plugin and direct-execution.ts), so the bound on
// operation names counts every request once.

import { getOperationAST, type DocumentNode, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { AccessRecord } from '../http/access-log.js';
import { inSpan, tracingEnabled } from '../lib/tracing.js';
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

export interface OperationObserver {
  /** Names the chosen operation (bounded) on the access record; answers how to run it in its span. */
  begin(
    document: DocumentNode,
    operationName: string | null | undefined,
    access: AccessRecord | undefined,
  ): <T extends ExecutionResult | AsyncIterable<unknown>>(execute: () => Promise<T> | T) => Promise<T> | T;
  /** Records the operation's duration (since `startedAt`, a performance.now()) by the result's status. */
  end(access: AccessRecord, result: ExecutionResult, startedAt: number): void;
}

export function createOperationObserver(metrics: Metrics, maxNames = 200): OperationObserver {
  const label = createOperationLabeller(maxNames);
  return {
    begin(document, operationName, access) {
      const operation = getOperationAST(document, operationName);
      const name = label(operation?.name?.value);
      const type = operation?.operation ?? 'unknown';
      if (access) Object.assign(access, { operationName: name, operationType: type });
      // Without tracing, nothing to wrap: no extra promise per request.
      if (!tracingEnabled()) return (execute) => execute();
      const attributes = { 'graphql.operation.name': name, 'graphql.operation.type': type };
      return (execute) =>
        inSpan(
          `graphql ${type} ${name}`,
          'internal',
          attributes,
          async () => execute(),
          ({ value, error }) => {
            const failed = error !== undefined || Boolean(value && 'errors' in value && value.errors?.length);
            return { label: failed ? 'error' : 'success', failed };
          },
        );
    },
    end(access, result, startedAt) {
      metrics.graphqlOperations.observe(
        {
          operation_name: access.operationName ?? 'none',
          operation_type: access.operationType ?? 'none',
          status: statusOf(result),
        },
        (performance.now() - startedAt) / 1000,
      );
    },
  };
}

export function useOperationMetrics(observer: OperationObserver): Plugin<Record<string, never>, GraphQLServerContext> {
  const started = new WeakMap<Request, number>();
  return {
    onRequest({ request }) {
      started.set(request, performance.now());
    },
    onExecute({ args, executeFn, setExecuteFn }) {
      const run = observer.begin(
        args.document,
        args.operationName,
        (args.contextValue as Partial<GraphQLServerContext>).access,
      );
      setExecuteFn((execArgs) => run(() => executeFn(execArgs)));
    },
    onResultProcess({ request, result, serverContext }) {
      if (Symbol.asyncIterator in result || Array.isArray(result)) return;
      const since = started.get(request);
      if (since === undefined) return;
      started.delete(request);
      observer.end(serverContext.access, result, since);
    },
  };
}
