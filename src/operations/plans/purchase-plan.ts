// POST /sim/plan/purchase/: buys a top-up or add-on plan for a line (at most a carrier-set
// number of active purchases, else 969); the purchase id is what cancellation takes.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { performed } from '../../pipeline/envelopes.js';
import { operationResult } from '../schemas/envelope.js';
import { MAX_LENGTH, mdn, nonEmpty, transactionId } from '../schemas/fields.js';
import { wfcFor, wfcWarning } from '../wfc.js';
import { e911From, optionalE911Fields } from '../schemas/e911.js';
import { cannotPredictPlanCode, predictLine, predictWfc } from '../predictions.js';

export const purchasePlan = defineOperation({
  name: 'purchasePlan',
  kind: 'mutation',
  description:
    'Buys a top-up or add-on plan (one of your authorized plans) for a line and returns its `purchaseId`; beyond the maximum number of active purchases the carrier answers (969). WFC plans take an optional E911 address; when WFC cannot be added the purchase still succeeds, with `warning` and `wfcStatus: false`',
  rest: { method: 'POST', path: '/sim/plan/purchase/' },
  input: z.object({
    mdn,
    planId: nonEmpty('plan_id', 'The plan to buy; must be one of your authorized plans', MAX_LENGTH.planId),
    ...optionalE911Fields,
    transactionId: transactionId.optional(),
  }),
  output: operationResult,
  rateLimit: { max: 30, window: 'minute' },
  routing: 'plan',
  planField: 'planId',
  transactionPrefix: 'PURCHASE_',
  event: {
    type: 'line.purchase_made',
    data: (input, answer) => ({ planId: input.planId, purchaseId: answer.purchaseId ?? null }),
  },
  // Dry run: the line, WFC on a WFC plan; the carrier's purchase cap (969) is not readable.
  predict: async (context) => {
    const { checks, input, plan } = context;
    await predictLine(context, input.mdn);
    cannotPredictPlanCode(context, plan.carrierPlanId);
    checks.cannotPredict('Whether the line has reached the carrier\u2019s limit of active purchases (969)');
    await predictWfc(context, plan, e911From(input), 'Purchase');
  },
  handle: async ({ carrier, input, plan, transactionId: id }) => {
    const result = await carrier.purchasePlan({
      mdn: input.mdn,
      carrierPlanId: plan.carrierPlanId,
      wfc: wfcFor(plan, e911From(input)),
      transactionId: id,
    });
    return performed(id, { mdn: input.mdn, purchaseId: result.purchaseId, ...wfcWarning('Purchase', result.wfc) });
  },
});
