// POST /sim/phone-list/manage/: adds or removes numbers on a line's allow list, or blocks and
// unblocks them (adding a number unblocks it; blocking one takes it off the allow list).

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { mdn, phoneListAction, transactionId } from '../schemas/fields.js';
import { performed } from '../../pipeline/envelopes.js';
import { operationStatus } from '../schemas/envelope.js';
import { phoneNumber, resultMessage, resultTransactionId } from './common.js';
import { predictLine } from '../predictions.js';

/** One request's numbers; a bound the spec leaves open, so that one call stays one carrier call. */
export const PHONE_LIST_MAX_NUMBERS = 100;

export const phoneListResult = z
  .object({
    status: operationStatus,
    mdn: z.string().nullable().describe('Subscriber number'),
    allowed: z.array(z.string()).optional().describe('Numbers on the allow list after the change'),
    blocked: z.array(z.string()).optional().describe('Numbers on the block list after the change'),
    transactionId: resultTransactionId,
    message: resultMessage,
  })
  .meta({
    id: 'PhoneListResult',
    description: 'The operation envelope with the phone lists of the line after the change',
  });

export const managePhoneList = defineOperation({
  name: 'managePhoneList',
  kind: 'mutation',
  description:
    'Manages the phone lists of a line: add/remove numbers on the allow list, block/unblock numbers (carrier 321 only; 501 elsewhere). Numbers already on a list are ignored',
  rest: { method: 'POST', path: '/sim/phone-list/manage/' },
  input: z.object({
    mdn,
    action: phoneListAction,
    numbers: z
      .array(phoneNumber)
      .min(1, 'numbers must hold at least one phone number')
      .max(PHONE_LIST_MAX_NUMBERS, `numbers must hold at most ${PHONE_LIST_MAX_NUMBERS} phone numbers`)
      .describe(`The phone numbers to act on, 10 digits each, 1 to ${PHONE_LIST_MAX_NUMBERS}`),
    transactionId: transactionId.optional(),
  }),
  output: phoneListResult,
  rateLimit: { max: 20, window: 'minute' },
  routing: 'line',
  extended: true,
  transactionPrefix: 'PHONE_LIST_',
  event: { type: 'line.feature_changed', data: (input) => ({ feature: 'phone_list', action: input.action }) },
  // Dry run: the line (909, 918, 915); the numbers are checked by the gateway already.
  predict: async (context) => {
    await predictLine(context, context.input.mdn);
  },
  handle: async ({ extended, input, transactionId: id }) => {
    const lists = await extended.managePhoneList({ ...input, transactionId: id });
    return performed(id, { mdn: lists.mdn, allowed: lists.allowed, blocked: lists.blocked });
  },
});
