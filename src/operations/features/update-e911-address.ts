// POST /sim/wfc/address/: replaces the E911 address of a line whose Wi-Fi Calling is active.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { performed } from '../../pipeline/envelopes.js';
import { operationResult } from '../schemas/envelope.js';
import { iccid, mdn, transactionId } from '../schemas/fields.js';
import { e911Fields, e911Of } from '../schemas/e911.js';
import { predictLine, predictLineSim, predictValidE911 } from '../predictions.js';

export const updateE911Address = defineOperation({
  name: 'updateE911Address',
  kind: 'mutation',
  description:
    "Updates the E911 address of a line with Wi-Fi Calling active (else GENS-0124); an invalid address is refused with GENS-0090. `sim`, when given, must be the line's SIM",
  rest: { method: 'POST', path: '/sim/wfc/address/' },
  input: z.object({
    mdn,
    sim: iccid.optional().describe("The line's SIM (ICCID), for verification"),
    ...e911Fields,
    transactionId: transactionId.optional(),
  }),
  output: operationResult,
  rateLimit: { max: 20, window: 'minute' },
  routing: 'line',
  transactionPrefix: 'UPD_WFC_ADDR_',
  event: { type: 'line.feature_changed', data: () => ({ feature: 'e911_address' }) },
  // A refusal answers the spec's failure body (status, mdn, transaction_id, message): the
  // pipeline's default failure envelope, so no `onRejection` is needed.
  // Dry run: the line and its SIM (GENS-0404), WFC on (GENS-0124), the E911 address (GENS-0090).
  predict: async (context) => {
    const { checks, input } = context;
    const line = await predictLine(context, input.mdn);
    predictLineSim(context, line, input.sim, 'GENS-0404', 'Invalid request parameter');
    if (line.e911Address === null) checks.refuse('wfc', 'GENS-0124', 'Cannot update E911, WFC not active');
    checks.passed('wfc', 'Wi-Fi Calling is on');
    await predictValidE911(context, e911Of(input));
  },
  handle: async ({ carrier, input, transactionId: id }) => {
    const line = await carrier.updateE911Address({
      mdn: input.mdn,
      sim: input.sim,
      address: e911Of(input),
      transactionId: id,
    });
    return performed(id, { mdn: line.mdn, sim: line.sim });
  },
});
