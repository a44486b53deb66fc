// The sandbox core's activation area of the carrier contract.

import type { CarrierActivationMethods } from '../../../carriers/types.js';
import { activate } from '../activation.js';
import type { CoreContext } from '../state.js';
import { write } from './method.js';

export function activationMethods(ctx: CoreContext) {
  const activateOnce = write(ctx, 'activate', activate);
  return {
    activate: (request) => {
      countActivationCall(ctx, request.sim, request.transactionId);
      return activateOnce(request);
    },
  } satisfies CarrierActivationMethods;
}

/** Counted on arrival, before any check: what a test asks is what reached the carrier. */
function countActivationCall(ctx: CoreContext, sim: string, transactionId: string): void {
  const calls = ctx.state.activationCalls;
  const seen = calls.get(sim) ?? { requests: 0, transactionIds: [] };
  seen.requests += 1;
  if (!seen.transactionIds.includes(transactionId)) seen.transactionIds.push(transactionId);
  calls.set(sim, seen);
}
