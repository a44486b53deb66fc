// POST /sim/voicemail/reset/: resets a line's voicemail password to the default.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { performed } from '../../pipeline/envelopes.js';
import { operationResult } from '../schemas/envelope.js';
import { iccid, mdn, transactionId } from '../schemas/fields.js';
import { predictLine, predictLineSim } from '../predictions.js';

export const resetVoicemailPassword = defineOperation({
  name: 'resetVoicemailPassword',
  kind: 'mutation',
  description:
    "Resets the voicemail password of a line to the default. `sim`, when given, must be the line's SIM (else GENS-0149)",
  rest: { method: 'POST', path: '/sim/voicemail/reset/' },
  input: z.object({
    mdn,
    sim: iccid.optional().describe("The line's SIM (ICCID), for verification"),
    transactionId: transactionId.optional(),
  }),
  output: operationResult,
  rateLimit: { max: 20, window: 'minute' },
  routing: 'line',
  transactionPrefix: 'VM_RESET_',
  event: { type: 'line.feature_changed', data: () => ({ feature: 'voicemail_password' }) },
  // Dry run: the line, and its SIM when named (GENS-0149).
  predict: async (context) => {
    const line = await predictLine(context, context.input.mdn);
    predictLineSim(context, line, context.input.sim, 'GENS-0149');
  },
  handle: async ({ carrier, input, transactionId: id }) => {
    await carrier.resetVoicemailPassword({ mdn: input.mdn, sim: input.sim, transactionId: id });
    return performed(id, { mdn: input.mdn });
  },
});
