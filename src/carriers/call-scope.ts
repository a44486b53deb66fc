// Which gateway operation a carrier call serves, and where to count it: set by the pipeline
// around an operation's carrier handler (requests and re-sends alike) and read by the carrier
// HTTP client, so adapters need not thread it through every method. Probes run outside it.

import { AsyncLocalStorage } from 'node:async_hooks';
import type { Metrics } from '../metrics.js';

export interface CarrierCallScope {
  /** The gateway operation (`usage`, `activateSim`…): a fixed set, safe as a label. */
  operation: string;
  metrics: Metrics;
}

const scope = new AsyncLocalStorage<CarrierCallScope>();

export function inCarrierCallScope<T>(value: CarrierCallScope, work: () => Promise<T>): Promise<T> {
  return scope.run(value, work);
}

export function currentCarrierCallScope(): CarrierCallScope | undefined {
  return scope.getStore();
}
