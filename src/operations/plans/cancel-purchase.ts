// POST /sim/plan/cancel/: cancels an add-on purchase by the id the purchase answered with.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { performed, refused } from '../../pipeline/envelopes.js';
import { operationResult } from '../schemas/envelope.js';
import { MAX_LENGTH, mdn, nonEmpty, transactionId } from '../schemas/fields.js';

export const cancelPurchase = defineOperation({
  name: 'cancelPurchase',
  kind: 'mutation',
  description:
    'Cancels an add-on purchase of a line by its `purchaseId` (from the purchase answer); (949) when it has no active subscription any more, (919) when the id is not one of the line’s purchases',
  rest: { method: 'POST', path: '/sim/plan/cancel/' },
  input: z.object({
    mdn,
    purchaseId: nonEmpty('purchase_id', 'The purchase to cancel, as returned by the purchase', MAX_LENGTH.carrierId),
    transactionId: transactionId.optional(),
  }),
  output: operationResult,
  rateLimit: { max: 30, window: 'minute' },
  routing: 'line',
  transactionPrefix: 'CANCEL_',
  event: { type: 'line.purchase_cancelled', data: (input) => ({ purchaseId: input.purchaseId }) },
  // Dry run: the purchase among the line's active subscriptions (949), not its base plan's (919).
  predict: async (context) => {
    const { carrier, checks, input } = context;
    const usage = await checks.read('line', () => carrier.getUsage(input.mdn));
    const index = usage.subscriptions.findIndex((subscription) => subscription.purchaseId === input.purchaseId);
    // The base plan's subscription comes first in a line's subscriptions.
    if (index === 0) checks.refuse('purchase', '919', 'Invalid subscription id');
    if (index < 0) checks.refuse('purchase', '949', 'No active subscription found');
    checks.passed('purchase', `Purchase ${input.purchaseId} is an active add-on of the line`);
  },
  handle: async ({ carrier, input, transactionId: id }) => {
    const result = await carrier.cancelPurchase({ mdn: input.mdn, purchaseId: input.purchaseId, transactionId: id });
    return performed(id, { mdn: input.mdn, purchaseId: result.purchaseId });
  },
  // The spec's cancel response carries purchase_id; a refusal names the purchase it refused.
  onRejection: (rejection, { input, transactionId: id }) =>
    refused(rejection, { mdn: input.mdn, transactionId: id, purchaseId: input.purchaseId }),
});
