// POST /sim/billing-code/change/ (superuser only): changes a line's wholesale cost-plan
// assignment without changing the subscriber-facing plan.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { performed } from '../../pipeline/envelopes.js';
import { operationResult } from '../schemas/envelope.js';
import { MAX_LENGTH, mdn, nonEmpty, transactionId } from '../schemas/fields.js';
import { predictLine } from '../predictions.js';

export const changeBillingCode = defineOperation({
  name: 'changeBillingCode',
  kind: 'mutation',
  description:
    'Changes the wholesale billing (cost-plan) code of a line without changing its subscriber-facing plan (superuser only)',
  rest: { method: 'POST', path: '/sim/billing-code/change/' },
  input: z.object({
    mdn,
    billingCode: nonEmpty('billing_code', 'The new wholesale billing (cost-plan) code', MAX_LENGTH.billingCode),
    transactionId: transactionId.optional(),
  }),
  output: operationResult,
  rateLimit: { max: 20, window: 'minute' },
  superuserOnly: true,
  routing: 'line',
  transactionPrefix: 'CHG_BILL_',
  event: { type: 'line.billing_code_changed', data: (input) => ({ billingCode: input.billingCode }) },
  // Dry run: the line (909, 918, 915); the carrier takes any billing code.
  predict: async (context) => {
    await predictLine(context, context.input.mdn);
  },
  handle: async ({ carrier, input, transactionId: id }) => {
    await carrier.changeBillingCode({ mdn: input.mdn, billingCode: input.billingCode, transactionId: id });
    return performed(id, { mdn: input.mdn });
  },
});
