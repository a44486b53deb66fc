// Which gateway operation a carrier call serves, and where to count it. The pipeline asks the
// registry for the adapter scoped to the operation it runs (requests and re-sends alike), and
// that adapter's transport and HTTP client carry the scope in their closures down to the call.
// It is not an AsyncLocalStorage: one active store keeps node's promise hooks on for every
// promise of the process (measured ~0.15 µs a promise, several hundred promises a request).
// Probes use the unscoped adapter and are counted nowhere.

import type { Metrics } from '../metrics.js';

export interface CarrierCallScope {
  /** The gateway operation (`usage`, `activateSim`…): a fixed set, safe as a label. */
  operation: string;
  metrics: Metrics;
}

/**
 * One value per scope, built once: the operations are a fixed set, so a replica builds at most
 * one scoped adapter per operation and carrier (per metrics registry, i.e. per app in a test
 * process that runs several).
 */
export function memoizedByScope<T>(build: (scope: CarrierCallScope) => T): (scope: CarrierCallScope) => T {
  const byMetrics = new WeakMap<Metrics, Map<string, T>>();
  return (scope) => {
    let byOperation = byMetrics.get(scope.metrics);
    if (!byOperation) byMetrics.set(scope.metrics, (byOperation = new Map()));
    let value = byOperation.get(scope.operation);
    if (value === undefined) byOperation.set(scope.operation, (value = build(scope)));
    return value;
  };
}
