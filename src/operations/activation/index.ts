// Activation: single and bulk, and bulk activation as a background job.

import { activateSim } from './activate-sim.js';
import { activateSims } from './activate-sims.js';
import { bulkActivation } from './bulk-activation.js';
import { cancelBulkActivation } from './cancel-bulk-activation.js';
import { startBulkActivation } from './start-bulk-activation.js';

export const activationOperations = [
  activateSim,
  activateSims,
  startBulkActivation,
  bulkActivation,
  cancelBulkActivation,
];
