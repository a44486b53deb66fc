// POST /sim/plan/change/: moves a line to another authorized plan (WFC plans need E911).

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { performed } from '../../pipeline/envelopes.js';
import { operationResult } from '../schemas/envelope.js';
import { iccid, MAX_LENGTH, mdn, nonEmpty, transactionId } from '../schemas/fields.js';
import { wfcFor, wfcWarning } from '../wfc.js';
import { e911From, optionalE911Fields } from '../schemas/e911.js';

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
