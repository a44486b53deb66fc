// One RPC method of the carrier_b sandbox: a params schema bound to the call into the core.

import type { z } from 'zod';
import type { CarrierOperations } from '../../carriers/types.js';
import { describeIssues, PROTOCOL_FAULTS, RpcProtocolFault } from './envelope.js';

/** Validates raw params, calls the core, and returns the wire `result` object. */
export type RpcMethod = (core: CarrierOperations, rawParams: unknown, requestId: string) => Promise<Record<string, unknown>>;

/**
 * Binds a params schema to its handler so the handler sees typed, translated params while
 * the table stays a plain map of uniform functions.
 */
export function defineMethod<S extends z.ZodType>(
  params: S,
  invoke: (core: CarrierOperations, params: z.output<S>, requestId: string) => Promise<Record<string, unknown>>,
): RpcMethod {
  return async (core, rawParams, requestId) => {
    const parsed = params.safeParse(rawParams);
    if (!parsed.success) throw new RpcProtocolFault(PROTOCOL_FAULTS.invalidParams, `Invalid params: ${describeIssues(parsed.error)}`);
    return invoke(core, parsed.data, requestId);
  };
}
