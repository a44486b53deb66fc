// Activation: single and bulk.

import type { RegisteredOperation } from '../define.js';
import { activateSim } from './activate-sim.js';
import { activateSims } from './activate-sims.js';

export const activationOperations: RegisteredOperation[] = [activateSim, activateSims];
