// Line lifecycle: suspend/restore, disconnect/reconnect, swaps, balances, child lines.

import { addChildLine } from './add-child-line.js';
import { adjustBalance } from './adjust-balance.js';
import { adjustBalances } from './adjust-balances.js';
import { disconnectLine } from './disconnect.js';
import { reconnectLine } from './reconnect.js';
import { removeChildLine } from './remove-child-line.js';
import { restoreLine } from './restore.js';
import { suspendLine } from './suspend.js';
import { swapMdn } from './swap-mdn.js';
import { swapSim } from './swap-sim.js';

export const lifecycleOperations = [
  suspendLine,
  restoreLine,
  disconnectLine,
  reconnectLine,
  swapSim,
  swapMdn,
  adjustBalance,
  adjustBalances,
  addChildLine,
  removeChildLine,
];
