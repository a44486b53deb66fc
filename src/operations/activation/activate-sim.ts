// POST /sim/activate/: activates a SIM on an authorized plan, on the plan's carrier (else
// the user's preference, else the default carrier), and records where the new line lives.

import type { PlanOperationSpec } from '../../pipeline/operation.js';
import { defineOperation } from '../define.js';
import { recordActivation } from '../line-homes.js';
import { performed, refused } from '../../pipeline/envelopes.js';
import { operationResult, type OperationResult } from '../schemas/envelope.js';
import { wfcFor, wfcWarning } from '../wfc.js';
import { e911Of } from '../schemas/e911.js';
import { activationFields, type ActivationFields } from './fields.js';
import {
  cannotPredictPlanAndPool,
  predictCoveredZip,
  predictEsim,
  predictFreshSim,
  predictWfc,
} from '../predictions.js';

/**
 * Everything of the activation but its REST route and rate limit: the single activation adds
 * both, and bulk activation runs each SIM through this same definition (see activate-sims.ts).
 */
export const activationSpec = {
  name: 'activateSim' as const,
  kind: 'mutation',
  description:
    'Activates a SIM (19–20 digit ICCID) on one of your authorized plans and returns the new line (mdn, customer id). The carrier is the plan’s, else your preference, else the default carrier. eSIMs (is_esim Y) need an email. On a WFC plan an invalid E911 address still activates, with `warning` and `wfcStatus: false`',
  input: activationFields,
  output: operationResult,
  routing: 'plan',
  planField: 'planId',
  // A SIM the gateway knows on another user's line is refused before the carrier, as every
  // operation naming it is; a new SIM (or an unowned line's) activates and becomes the caller's.
  ownedSims: ['sim'],
  transactionPrefix: 'ACT_',
  event: {
    type: 'line.activated',
    data: (input, answer) => ({
      planId: input.planId,
      customerId: answer.customerId ?? null,
      isEsim: input.isEsim === 'Y',
    }),
  },
  handle: async (context) => {
    const { carrier, input, plan, transactionId } = context;
    const address = e911Of(input);
    const result = await carrier.activate({
      sim: input.sim,
      carrierPlanId: plan.carrierPlanId,
      zipCode: input.zipCode,
      address,
      isEsim: input.isEsim === 'Y',
      email: input.email,
      billingCode: input.billingCode,
      language: input.language,
      wfc: wfcFor(plan, address),
      transactionId,
    });
    // Later operations on this line (by mdn or sim) must reach the carrier that holds it, and
    // the line is the activating user's.
    await recordActivation(context, result);
    return performed(transactionId, {
      mdn: result.mdn,
      sim: result.sim,
      customerId: result.customerId,
      ...wfcWarning('Activation', result.wfc),
    });
  },
  // Dry run: the SIM, the eSIM rules and the ZIP as the carrier would check them, in its order.
  predict: async (context) => {
    const { input, plan } = context;
    await predictFreshSim(context, input.sim, '914');
    if (input.isEsim === 'Y') await predictEsim(context, input.sim, input.email);
    await predictCoveredZip(context, input.zipCode);
    cannotPredictPlanAndPool(context, plan.carrierPlanId);
    await predictWfc(context, plan, e911Of(input), 'Activation');
  },
  // The spec's activation failure body names the SIM, not a line (there is none yet).
  onRejection: (rejection, { input, transactionId }) => refused(rejection, { sim: input.sim, transactionId }),
} satisfies PlanOperationSpec<ActivationFields, OperationResult>;

export const activateSim = defineOperation({
  ...activationSpec,
  rest: { method: 'POST', path: '/sim/activate/' },
  rateLimit: { max: 30, window: 'minute' },
});
