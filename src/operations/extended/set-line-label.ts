// PATCH /sim/label/{mdn}: sets the label of a line (shown by `account`).

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { mdn, transactionId } from '../schemas/fields.js';
import { performed } from '../../pipeline/envelopes.js';
import { operationStatus } from '../schemas/envelope.js';
import { resultMessage, resultTransactionId } from './common.js';
import { predictLine } from '../predictions.js';

export const LABEL_MAX_LENGTH = 100;

export const lineLabelResult = z
  .object({
    status: operationStatus,
    mdn: z.string().nullable().describe('Subscriber number'),
    label: z.string().optional().describe('The label now set on the line'),
    transactionId: resultTransactionId,
    message: resultMessage,
  })
  .meta({ id: 'LineLabelResult', description: 'The operation envelope with the new label of the line' });

export const setLineLabel = defineOperation({
  name: 'setLineLabel',
  kind: 'mutation',
  description: `Sets the label of a line, 1 to ${LABEL_MAX_LENGTH} characters (carrier 321 only; 501 elsewhere)`,
  // The body repeats the path's mdn (required there); the REST layer answers 422 when they differ.
  rest: { method: 'PATCH', path: '/sim/label/{mdn}', bodyRepeats: ['mdn'] },
  input: z.object({
    mdn,
    label: z
      .string()
      .min(1, 'label must not be empty')
      .max(LABEL_MAX_LENGTH, `label must be at most ${LABEL_MAX_LENGTH} characters`)
      .describe(`The label, 1 to ${LABEL_MAX_LENGTH} characters`),
    transactionId: transactionId.optional(),
  }),
  output: lineLabelResult,
  rateLimit: { max: 20, window: 'minute' },
  routing: 'line',
  extended: true,
  transactionPrefix: 'LABEL_',
  event: { type: 'line.feature_changed', data: (input) => ({ feature: 'label', label: input.label }) },
  // Dry run: the line (909, 918, 915); the label is checked by the gateway already.
  predict: async (context) => {
    await predictLine(context, context.input.mdn);
  },
  handle: async ({ extended, input, transactionId: id }) => {
    const labelled = await extended.setLabel({ mdn: input.mdn, label: input.label, transactionId: id });
    return performed(id, { mdn: labelled.mdn, label: labelled.label });
  },
});
