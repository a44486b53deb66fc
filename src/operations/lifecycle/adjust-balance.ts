// POST /sim/balance/adjust/ (superuser only): adds to or deducts from one balance of a line.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { performed } from '../../pipeline/envelopes.js';
import { operationResult } from '../schemas/envelope.js';
import { balanceUnit, mdn, transactionId } from '../schemas/fields.js';
import { amount, expiryDate, subscriptionId } from './balance-fields.js';
import { predictAdjustments } from '../predictions.js';

export const adjustBalance = defineOperation({
  name: 'adjustBalance',
  kind: 'mutation',
  description:
    'Adjusts one balance of a subscription of a line (superuser only): a positive amount adds, a negative one deducts; `expiryDate` moves its end. Without `uom` the voice balance (SECOND) is adjusted',
  rest: { method: 'POST', path: '/sim/balance/adjust/' },
  input: z.object({
    mdn,
    subscriptionId,
    uom: balanceUnit.optional(),
    amount: amount.optional(),
    expiryDate: expiryDate.optional(),
    transactionId: transactionId.optional(),
  }),
  output: operationResult,
  rateLimit: { max: 20, window: 'minute' },
  superuserOnly: true,
  routing: 'line',
  transactionPrefix: 'ADJ_BAL_',
  event: { type: 'line.balance_adjusted', data: (input) => ({ subscriptionId: input.subscriptionId }) },
  // Dry run: the line's active subscriptions (919) and balances (920).
  predict: async (context) => {
    const { carrier, checks, input } = context;
    const usage = await checks.read('line', () => carrier.getUsage(input.mdn));
    checks.passed('line', `Line ${input.mdn} is ${usage.lineStatus}`);
    // With no unit the carrier adjusts the voice balance.
    const adjustment = { subscriptionId: input.subscriptionId, uom: input.uom ?? 'SECOND', amount: input.amount ?? 0 };
    predictAdjustments(context, usage.subscriptions, [adjustment]);
  },
  handle: async ({ carrier, input, transactionId: id }) => {
    await carrier.adjustBalance({ ...input, transactionId: id });
    return performed(id, { mdn: input.mdn });
  },
});
