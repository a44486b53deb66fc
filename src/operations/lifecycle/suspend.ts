// POST /sim/suspend/: hotline (suspend) a NEW or ACTIVE line, optionally one service only.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { setLineStatus } from '../line-homes.js';
import { performed } from '../../pipeline/envelopes.js';
import { operationResult } from '../schemas/envelope.js';
import { capped, matching, MAX_LENGTH, mdn, serviceScope, transactionId } from '../schemas/fields.js';
import { predictLine } from '../predictions.js';

export const suspendLine = defineOperation({
  name: 'suspendLine',
  kind: 'mutation',
  description:
    'Suspends (hotlines) a line in NEW or ACTIVE state, else error (935). `service` limits it to VOICE, SMS or DATA; absent (or empty over REST) = all',
  rest: { method: 'POST', path: '/sim/suspend/', emptyIsAbsent: ['service'] },
  input: z.object({
    mdn,
    service: serviceScope.optional(),
    hotlineNumber: matching(/^\d{10}$/, 10, 'hotline_number must be 10 digits')
      .optional()
      .describe('Redirect number, if supported'),
    hotlineChargeable: z.boolean().optional().describe('Whether the hotline is billable'),
    reason: capped('reason', MAX_LENGTH.reason)
      .optional()
      .describe(`Internal tracking reason, at most ${MAX_LENGTH.reason} characters`),
    transactionId: transactionId.optional(),
  }),
  output: operationResult,
  rateLimit: { max: 20, window: 'minute' },
  routing: 'line',
  transactionPrefix: 'SUSPEND_',
  event: { type: 'line.suspended', data: (input) => ({ service: input.service ?? null }) },
  // Dry run: only a NEW or ACTIVE line can be suspended (935).
  predict: async (context) => {
    const line = await predictLine(context, context.input.mdn);
    if (line.lineStatus !== 'ACTIVE' && line.lineStatus !== 'NEW')
      context.checks.refuse('lineStatus', '935', 'Subscriber state not NEW or ACTIVE');
    context.checks.passed('lineStatus', `A ${line.lineStatus} line can be suspended`);
  },
  handle: async (context) => {
    const { carrier, input, transactionId: id } = context;
    await carrier.suspend({ ...input, transactionId: id });
    await setLineStatus(context, input.mdn, 'SUSPENDED');
    return performed(id, { mdn: input.mdn });
  },
});
