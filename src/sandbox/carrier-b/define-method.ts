// One RPC method of the carrier_b sandbox: its wire name and a params schema bound to the call
// into the core.

import type { z } from 'zod';
import type { CarrierOperations } from '../../carriers/types.js';
import { describeIssues, PROTOCOL_FAULTS, RpcProtocolFault } from './envelope.js';

export interface RpcMethod {
  /** The envelope's `method`, `Area.Action`. */
  readonly name: string;
  /** Validates raw params, calls the core, and returns the wire `result` object. */
  invoke(core: CarrierOperations, rawParams: unknown, requestId: string): Promise<Record<string, unknown>>;
}

/**
 * Binds a params schema to its handler so the handler sees typed, translated params while
 * the table stays a plain map of uniform methods.
 */
export function defineMethod<S extends z.ZodType>(
  name: string,
  params: S,
  invoke: (core: CarrierOperations, params: z.output<S>, requestId: string) => Promise<Record<string, unknown>>,
): RpcMethod {
  return {
    name,
    async invoke(core, rawParams, requestId) {
      const parsed = params.safeParse(rawParams);
      if (!parsed.success)
        throw new RpcProtocolFault(PROTOCOL_FAULTS.invalidParams, `Invalid params: ${describeIssues(parsed.error)}`);
      return invoke(core, parsed.data, requestId);
    },
  };
}
