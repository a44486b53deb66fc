// What follows a lost outcome once recovery resolves it (learned, or abandoned by an operator), by
// operation, in the database transaction that records it: a bulk job's entry for an activation.
// The servers' reconciler and the admin CLI's use the same table.

import { followRecoveredActivation } from '../operations/activation/bulk-jobs/recovered-items.js';
import type { OutcomeFollowers } from '../recovery/record-recovered.js';

export const outcomeFollowers: OutcomeFollowers = { activateSim: followRecoveredActivation };
