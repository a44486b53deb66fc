// POST /sim/disconnect/: permanently disconnects a line (it may be reconnected within about
// 30 days). The caller must confirm with `acknowledge_final: true` and name the line's SIM.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { performed, refused } from '../../pipeline/envelopes.js';
import { operationResult } from '../schemas/envelope.js';
import { iccid, mdn, transactionId } from '../schemas/fields.js';
import { rememberLine } from '../line-homes.js';
import { predictLine, predictLineSim } from '../predictions.js';

export const disconnectLine = defineOperation({
  name: 'disconnectLine',
  kind: 'mutation',
  description:
    "Disconnects a line permanently: it cannot be undone, only reconnected within about 30 days. `acknowledgeFinal` must be true and `sim` must be the line's SIM (else GENS-0065)",
  rest: { method: 'POST', path: '/sim/disconnect/' },
  input: z.object({
    mdn,
    sim: iccid.describe("The line's SIM (ICCID), alphanumeric, at most 25 characters"),
    // A boolean with a check rather than a literal, so that GraphQL shows a Boolean and a
    // false value gets the spec's 422 with a message saying why.
    acknowledgeFinal: z
      .boolean()
      .refine((value) => value, 'acknowledge_final must be true: disconnection is permanent')
      .describe('Must be true: confirms that disconnection is permanent'),
    transactionId: transactionId.optional(),
  }),
  output: operationResult,
  rateLimit: { max: 10, window: 'minute' },
  routing: 'line',
  transactionPrefix: 'DISCONNECT_',
  event: { type: 'line.disconnected' },
  // Dry run: the line, and that the SIM named is its own (GENS-0065).
  predict: async (context) => {
    const line = await predictLine(context, context.input.mdn);
    predictLineSim(context, line, context.input.sim, 'GENS-0065');
  },
  // The spec's response names the SIM (the SIM it names) on failure as on success.
  onRejection: (rejection, { input, transactionId: id }) =>
    refused(rejection, { mdn: input.mdn, sim: input.sim, transactionId: id }),
  handle: async (context) => {
    const { carrier, input, transactionId: id } = context;
    const line = await carrier.disconnect({ mdn: input.mdn, sim: input.sim, transactionId: id });
    await rememberLine(context, { ...line, status: 'DISCONNECTED' });
    return performed(id, { mdn: line.mdn, sim: line.sim });
  },
});
