// The sandbox core's lifecycle area of the carrier contract.

import type { CarrierLifecycleMethods } from '../../../carriers/types.js';
import { adjustBalance, adjustBalances } from '../balances.js';
import { addChildLine, removeChildLine } from '../child-lines.js';
import { disconnect, reconnect, restore, suspend } from '../lifecycle.js';
import type { CoreContext } from '../state.js';
import { swapMdn, swapSim } from '../swaps.js';
import { write } from './method.js';

export function lifecycleMethods(ctx: CoreContext) {
  return {
    suspend: write(ctx, 'suspend', suspend),
    restore: write(ctx, 'restore', restore),
    disconnect: write(ctx, 'disconnect', disconnect),
    reconnect: write(ctx, 'reconnect', reconnect),
    swapSim: write(ctx, 'swapSim', swapSim),
    swapMdn: write(ctx, 'swapMdn', swapMdn),
    adjustBalance: write(ctx, 'adjustBalance', adjustBalance),
    adjustBalances: write(ctx, 'adjustBalances', adjustBalances),
    addChildLine: write(ctx, 'addChildLine', addChildLine),
    removeChildLine: write(ctx, 'removeChildLine', removeChildLine),
  } satisfies CarrierLifecycleMethods;
}
