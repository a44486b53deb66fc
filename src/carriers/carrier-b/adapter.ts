// The carrier_b adapter: the gateway's CarrierOperations spoken as carrier_b's RPC envelope
// over HTTP (see docs/carriers/carrier-b.md). carrier_b offers no extended operations, so
// the adapter has no `extended`.

import type { CarrierReadiness } from '../probe.js';
import type { CarrierOperations } from '../types.js';
import { activationOperations } from './operations/activation.js';
import { featureOperations } from './operations/features.js';
import { lifecycleOperations } from './operations/lifecycle.js';
import { planOperations } from './operations/plans.js';
import { queryOperations } from './operations/queries.js';
import { createRpcClient, type CarrierBConnection } from './rpc-client.js';

export type CarrierBAdapterOptions = CarrierBConnection;

export type CarrierBAdapter = CarrierOperations & { probe(): Promise<CarrierReadiness>; close(): Promise<void> };

export function createCarrierBAdapter(options: CarrierBAdapterOptions): CarrierBAdapter {
  if (!Number.isFinite(options.timeoutMs) || options.timeoutMs <= 0) throw new Error('carrier_b adapter timeoutMs must be positive');
  if (!Number.isInteger(options.retries) || options.retries < 0) throw new Error('carrier_b adapter retries must be a whole number');
  const rpc = createRpcClient(options);
  return {
    carrier: 'carrier_b',
    ...featureOperations(rpc),
    ...queryOperations(rpc),
    ...lifecycleOperations(rpc),
    ...planOperations(rpc),
    ...activationOperations(rpc),
    probe: () => rpc.probe(),
    close: () => rpc.close(),
  };
}
