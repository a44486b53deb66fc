// The carrier_b adapter: the domain's CarrierOperations spoken as carrier_b's RPC envelope over
// HTTP (see docs/carriers/carrier-b.md). carrier_b offers no extended operations, so the
// adapter has no `extended`.

import type { CarrierHttpOptions } from '../http-client.js';
import { memoizedByScope, type CarrierCallScope } from '../call-scope.js';
import type { CarrierReadiness } from '../probe.js';
import type { CarrierOperations } from '../types.js';
import { activationOperations } from './activation.js';
import { featureOperations } from './features.js';
import { lifecycleOperations } from './lifecycle.js';
import { planOperations } from './plans.js';
import { coverage, queryOperations } from './queries.js';
import { createCarrierBTransport, type CarrierBTransport } from './transport.js';

export interface CarrierBAdapterOptions {
  /** Origin of the carrier's API; the one RPC endpoint is `/rpc/v3` below it. */
  baseUrl: string;
  /** With `apiSecret`, sent as HTTP Basic; neither is ever logged or put into an error message. */
  accountId: string;
  apiSecret: string;
  timeoutMs: number;
  /** Retries for reads and for writes (the carrier de-duplicates writes by requestId). */
  retries: number;
  breaker?: CarrierHttpOptions['breaker'];
  onBreakerChange?: CarrierHttpOptions['onBreakerChange'];
}

export type CarrierBAdapter = CarrierOperations & {
  readonly carrier: 'carrier_b';
  probe(): Promise<CarrierReadiness>;
  /**
   * The same adapter whose calls are counted under `scope` (the gateway operation they serve);
   * one per operation, built on first use.
   */
  scoped(scope: CarrierCallScope): CarrierBAdapter;
  close(): Promise<void>;
};

export function createCarrierBAdapter(options: CarrierBAdapterOptions): CarrierBAdapter {
  validate(options);
  return adapterOver(createCarrierBTransport(options));
}

function adapterOver(transport: CarrierBTransport): CarrierBAdapter {
  const scoped = memoizedByScope((scope) => adapterOver(transport.scoped(scope)));
  return {
    carrier: 'carrier_b',
    ...featureOperations(transport),
    ...queryOperations(transport),
    ...lifecycleOperations(transport),
    ...planOperations(transport),
    ...activationOperations(transport),
    probe: () => transport.probe(coverage),
    scoped,
    close: () => transport.close(),
  };
}

/** Fails fast on a misconfiguration; messages name the option, never its (secret) value. */
function validate(options: CarrierBAdapterOptions): void {
  if (!Number.isFinite(options.timeoutMs) || options.timeoutMs <= 0)
    throw new Error('carrier_b adapter timeoutMs must be positive');
  if (!Number.isInteger(options.retries) || options.retries < 0)
    throw new Error('carrier_b adapter retries must be a whole number');
  if (options.accountId === '' || options.apiSecret === '')
    throw new Error('carrier_b adapter needs an account id and an API secret');
  if (options.accountId.includes(':')) throw new Error('carrier_b account ids cannot contain a colon');
}
