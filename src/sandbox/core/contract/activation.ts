// The sandbox core's activation area of the carrier contract.

import type { CarrierActivationMethods } from '../../../carriers/types.js';
import { activate } from '../activation.js';
import type { CoreContext } from '../state.js';
import { write } from './method.js';

export function activationMethods(ctx: CoreContext) {
  return {
    activate: write(ctx, 'activate', activate),
  } satisfies CarrierActivationMethods;
}
