// The carrier 321 adapter: the domain's CarrierOperations (and the extended operations only
// carrier 321 offers) spoken over carrier 321's resource-style REST wire format.

import type { CarrierHttpOptions } from '../http-client.js';
import { memoizedByScope, type CarrierCallScope } from '../call-scope.js';
import type { CarrierReadiness } from '../probe.js';
import type { CarrierOperations, ExtendedCarrierOperations } from '../types.js';
import { activationOperations } from './activation.js';
import { extendedOperations } from './extended.js';
import { featureOperations } from './features.js';
import { lifecycleOperations } from './lifecycle.js';
import { planOperations } from './plans.js';
import { coverage, queryOperations } from './queries.js';
import { createCarrier321Transport, type Carrier321Transport } from './transport.js';

export interface Carrier321AdapterOptions {
  /** Origin of the carrier's API, e.g. `https://api.carrier321.example`; paths start with `/v1`. */
  baseUrl: string;
  /** Sent as `X-Api-Key`; never logged or put into an error message. */
  apiKey: string;
  timeoutMs: number;
  /** Retries for reads and for writes (the carrier de-duplicates writes by Idempotency-Key). */
  retries: number;
  breaker?: CarrierHttpOptions['breaker'];
  onBreakerChange?: CarrierHttpOptions['onBreakerChange'];
}

export type Carrier321Adapter = CarrierOperations & {
  readonly carrier: '321';
  readonly extended: ExtendedCarrierOperations;
  probe(): Promise<CarrierReadiness>;
  /**
   * The same adapter whose calls are counted under `scope` (the gateway operation they serve);
   * one per operation, built on first use.
   */
  scoped(scope: CarrierCallScope): Carrier321Adapter;
  close(): Promise<void>;
};

export function createCarrier321Adapter(options: Carrier321AdapterOptions): Carrier321Adapter {
  validate(options);
  return adapterOver(createCarrier321Transport(options));
}

function adapterOver(transport: Carrier321Transport): Carrier321Adapter {
  const scoped = memoizedByScope((scope) => adapterOver(transport.scoped(scope)));
  return {
    carrier: '321',
    ...featureOperations(transport),
    ...queryOperations(transport),
    ...lifecycleOperations(transport),
    ...planOperations(transport),
    ...activationOperations(transport),
    extended: extendedOperations(transport),
    probe: () => transport.probe(coverage),
    scoped,
    close: () => transport.close(),
  };
}

/** Fails fast on a misconfiguration; messages name the option, never its (secret) value. */
function validate(options: Carrier321AdapterOptions): void {
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw new TypeError('Carrier 321 adapter: baseUrl must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError('Carrier 321 adapter: baseUrl must be an absolute http(s) URL');
  if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '')
    throw new TypeError('Carrier 321 adapter: apiKey is required');
  if (!Number.isFinite(options.timeoutMs) || options.timeoutMs <= 0)
    throw new TypeError('Carrier 321 adapter: timeoutMs must be a positive number');
  if (!Number.isInteger(options.retries) || options.retries < 0)
    throw new TypeError('Carrier 321 adapter: retries must be a non-negative integer');
}
