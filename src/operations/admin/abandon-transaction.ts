// `abandonTransaction` (superuser only, GraphQL): gives up a write whose outcome was lost, so that
// the writes waiting behind it on its line can go (src/recovery/abandon.ts says when and why).
// The spec has no REST path for it; the admin CLI's `recovery abandon` runs the same function.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { transactionRecord, transactionView } from '../account/transaction.js';
import { nonEmpty } from '../schemas/fields.js';

/** The operator's reason is stored in the transaction's answer, which its user reads. */
const ABANDON_REASON_MAX = 500;

const abandonTransactionInput = z.object({
  id: z.string().min(1).max(100).describe('Transaction id, at most 100 characters'),
  reason: nonEmpty(
    'reason',
    'Why it is given up, e.g. what the carrier shows for the line; kept in the transaction’s answer, which its user reads',
    ABANDON_REASON_MAX,
  ),
});

export const abandonTransaction = defineOperation({
  name: 'abandonTransaction',
  kind: 'mutation',
  description:
    'Gives up a write whose outcome was lost (`unknown`, or `pending` after a crash) that recovery cannot resolve, e.g. one whose plan or user is gone for good (superuser only). Check the line at the carrier first: the write may have happened there. The transaction turns `abandoned` and is never re-sent; the later writes on its line that waited for it are re-sent at once. Refused (CONFLICT) for a resolved transaction, one whose own request may still be running, and one being re-sent at that moment',
  input: abandonTransactionInput,
  output: z
    .object({
      transaction: transactionRecord.describe('The transaction, now abandoned'),
      released: z
        .array(z.string())
        .describe(
          'Transaction ids of later writes on its line that waited for it: due now (later ones follow as these resolve)',
        ),
    })
    .meta({ id: 'AbandonedTransaction', description: 'A lost write given up, and the writes it held back' }),
  superuserOnly: true,
  routing: 'none',
  // Dry run: refused as the call would be; else the transaction as it would stand and the writes
  // it would release. A replica's re-send at that very moment cannot be foreseen.
  predict: async ({ services, input, checks }) => {
    const { transaction, released } = await services.recovery.abandon(input.id, input.reason, { dryRun: true });
    checks.passed('transaction', 'Its outcome was lost, and its own request cannot still be running');
    checks.cannotPredict('a re-send of it in progress on a replica at that moment (refused then: CONFLICT)');
    return { transaction: transactionView(transaction), released };
  },
  handle: async ({ services, input, user }) => {
    const { transaction, released } = await services.recovery.abandon(input.id, input.reason);
    services.logger.warn('transaction abandoned by an operator; never re-sent', {
      transactionId: transaction.id,
      operation: transaction.operation,
      by: user.id,
      released: released.length,
    });
    return { status: 200, body: { transaction: transactionView(transaction), released } };
  },
});
