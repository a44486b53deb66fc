// POST /sim/balance/adjust-multiple/ (superuser only): several balance adjustments of one
// line, applied all or nothing.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { performed } from '../../pipeline/envelopes.js';
import { operationResult } from '../schemas/envelope.js';
import { balanceUnit, mdn, transactionId } from '../schemas/fields.js';
import { amount, subscriptionId } from './balance-fields.js';
import { predictAdjustments } from '../predictions.js';

/** Spec: no limit stated; a bound keeps one request from carrying an unbounded batch. */
export const MAX_ADJUSTMENTS = 100;

const adjustment = z
  .object({ subscriptionId, uom: balanceUnit, amount })
  .describe('One adjustment: subscription, unit and amount (positive adds, negative deducts)');

export const adjustBalances = defineOperation({
  name: 'adjustBalances',
  kind: 'mutation',
  description:
    'Applies several balance adjustments to a line at once, all or nothing (superuser only): each names a subscription, a unit (SECOND, EVENT or BYTE) and an amount (positive adds, negative deducts)',
  rest: { method: 'POST', path: '/sim/balance/adjust-multiple/' },
  input: z.object({
    mdn,
    adjustments: z
      .array(adjustment)
      .min(1, 'adjustments must not be empty')
      .max(MAX_ADJUSTMENTS, `adjustments must have at most ${MAX_ADJUSTMENTS} items`)
      .describe(`The adjustments, 1 to ${MAX_ADJUSTMENTS}`),
    transactionId: transactionId.optional(),
  }),
  output: operationResult,
  rateLimit: { max: 20, window: 'minute' },
  superuserOnly: true,
  routing: 'line',
  transactionPrefix: 'ADJ_MULTI_BAL_',
  event: { type: 'line.balance_adjusted', data: (input) => ({ adjustments: input.adjustments.length }) },
  // Dry run: the line's active subscriptions (919) and balances (920), all or nothing.
  predict: async (context) => {
    const { carrier, checks, input } = context;
    const usage = await checks.read('line', () => carrier.getUsage(input.mdn));
    checks.passed('line', `Line ${input.mdn} is ${usage.lineStatus}`);
    predictAdjustments(context, usage.subscriptions, input.adjustments);
  },
  handle: async ({ carrier, input, transactionId: id }) => {
    await carrier.adjustBalances({ mdn: input.mdn, adjustments: input.adjustments, transactionId: id });
    return performed(id, { mdn: input.mdn });
  },
});
