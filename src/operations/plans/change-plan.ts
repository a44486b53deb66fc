// POST /sim/plan/change/: moves a line to another authorized plan (WFC plans need E911).

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { performed } from '../../pipeline/envelopes.js';
import { operationResult } from '../schemas/envelope.js';
import { iccid, MAX_LENGTH, mdn, nonEmpty, transactionId } from '../schemas/fields.js';
import { wfcFor, wfcWarning } from '../wfc.js';
import { e911From, optionalE911Fields } from '../schemas/e911.js';
import { cannotPredictPlanCode, predictLine, predictLineSim, predictWfc } from '../predictions.js';
import { quote } from '../../lib/quote.js';

export const changePlan = defineOperation({
  name: 'changePlan',
  kind: 'mutation',
  description:
    'Changes the plan of a line to one of your authorized plans, else (916) when it is already the active plan. WFC plans take an E911 address; when WFC cannot be added the change still succeeds, with `warning` and `wfcStatus: false`',
  rest: { method: 'POST', path: '/sim/plan/change/' },
  input: z.object({
    mdn,
    newPlanId: nonEmpty(
      'new_plan_id',
      'The plan to change to; must be one of your authorized plans',
      MAX_LENGTH.planId,
    ),
    sim: iccid.optional().describe('ICCID, recommended for verification'),
    ...optionalE911Fields,
    transactionId: transactionId.optional(),
  }),
  output: operationResult,
  rateLimit: { max: 30, window: 'minute' },
  routing: 'plan',
  planField: 'newPlanId',
  transactionPrefix: 'PLAN_CHANGE_',
  event: {
    type: 'line.plan_changed',
    data: (input, answer) => ({ planId: input.newPlanId, wfcStatus: answer.wfcStatus ?? null }),
  },
  // Dry run: the line and its SIM (918), not already on the plan (916), WFC on a WFC plan.
  predict: async (context) => {
    const { checks, input, plan } = context;
    const line = await predictLine(context, input.mdn);
    predictLineSim(context, line, input.sim, '918', 'Subscriber with given resource does not exist');
    // A profile lists the base plan's SOC first.
    if (line.serviceCodes[0]?.code === plan.carrierPlanId)
      checks.refuse('plan', '916', 'Plan code already active on the MDN');
    checks.passed('plan', `The line is not on plan code ${quote(plan.carrierPlanId, 32)} yet`);
    cannotPredictPlanCode(context, plan.carrierPlanId);
    await predictWfc(context, plan, e911From(input), 'Plan change');
  },
  handle: async ({ carrier, input, plan, transactionId: id }) => {
    const result = await carrier.changePlan({
      mdn: input.mdn,
      sim: input.sim,
      carrierPlanId: plan.carrierPlanId,
      wfc: wfcFor(plan, e911From(input)),
      transactionId: id,
    });
    return performed(id, { mdn: input.mdn, ...wfcWarning('Plan change', result.wfc) });
  },
});
