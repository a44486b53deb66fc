// Activation: single and bulk.

import { activateSim } from './activate-sim.js';
import { activateSims } from './activate-sims.js';

export const activationOperations = [activateSim, activateSims];
