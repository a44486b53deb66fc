// POST /sim/sms/send/: sends a text message to a subscriber line (idempotent by transaction id).

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { mdn, transactionId } from '../schemas/fields.js';
import { performed } from '../../pipeline/envelopes.js';
import { operationStatus } from '../schemas/envelope.js';
import { resultMessage, resultTransactionId } from './common.js';
import { predictLine } from '../predictions.js';

export const SMS_MAX_LENGTH = 160;

export const sendSmsResult = z
  .object({
    status: operationStatus,
    mdn: z.string().nullable().describe('Subscriber number the message was sent to'),
    messageId: z.string().optional().describe('Carrier id of the sent message'),
    transactionId: resultTransactionId,
    message: resultMessage,
  })
  .meta({ id: 'SendSmsResult', description: 'The operation envelope of a sent text message' });

export const sendSms = defineOperation({
  name: 'sendSms',
  kind: 'mutation',
  description: `Sends a text message (at most ${SMS_MAX_LENGTH} characters) to a subscriber line (carrier 321 only; 501 elsewhere). A line that is not ACTIVE: (915)`,
  rest: { method: 'POST', path: '/sim/sms/send/' },
  input: z.object({
    mdn,
    message: z
      .string()
      .min(1, 'message must not be empty')
      .max(SMS_MAX_LENGTH, `message must be at most ${SMS_MAX_LENGTH} characters`)
      .describe(`Text of the message, 1 to ${SMS_MAX_LENGTH} characters`),
    transactionId: transactionId.optional(),
  }),
  output: sendSmsResult,
  rateLimit: { max: 10, window: 'minute' },
  routing: 'line',
  extended: true,
  transactionPrefix: 'SMS_',
  // Dry run: an ACTIVE line (a suspended one is 915 too).
  predict: async (context) => {
    const line = await predictLine(context, context.input.mdn);
    if (line.lineStatus !== 'ACTIVE')
      context.checks.refuse('lineStatus', '915', `ESN/MDN is inactive: the line is ${line.lineStatus}`);
    context.checks.passed('lineStatus', 'The line is ACTIVE');
  },
  handle: async ({ extended, input, transactionId: id }) => {
    const sent = await extended.sendSms({ mdn: input.mdn, message: input.message, transactionId: id });
    return performed(id, { mdn: sent.mdn, messageId: sent.messageId });
  },
});
