// POST /sim/wfc/add/: enables Wi-Fi Calling on a line with its E911 address.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { performed, refused } from '../../pipeline/envelopes.js';
import { operationResult } from '../schemas/envelope.js';
import { iccid, mdn, transactionId } from '../schemas/fields.js';
import { e911Fields, e911Of } from '../schemas/e911.js';
import { predictLine, predictLineSim, predictValidE911 } from '../predictions.js';

export const addWfc = defineOperation({
  name: 'addWfc',
  kind: 'mutation',
  description:
    'Enables Wi-Fi Calling (WFC) on an active line and sets its E911 address. Refused with GENS-0010 when WFC is already provisioned and GENS-0090 when the E911 address is invalid',
  rest: { method: 'POST', path: '/sim/wfc/add/' },
  input: z.object({
    mdn,
    sim: iccid.describe("The line's SIM (ICCID), alphanumeric, at most 25 characters"),
    ...e911Fields,
    transactionId: transactionId.optional(),
  }),
  output: operationResult,
  rateLimit: { max: 20, window: 'minute' },
  routing: 'line',
  transactionPrefix: 'ADD_WFC_',
  event: { type: 'line.feature_changed', data: () => ({ feature: 'wfc', enabled: true }) },
  // Dry run: the line and its SIM (GENS-0170), WFC not on yet (GENS-0010), the E911 address (GENS-0090).
  predict: async (context) => {
    const { checks, input } = context;
    const line = await predictLine(context, input.mdn);
    predictLineSim(context, line, input.sim, 'GENS-0170');
    if (line.e911Address !== null) checks.refuse('wfc', 'GENS-0010', 'Duplicate products: Wi-Fi Calling is already on');
    checks.passed('wfc', 'Wi-Fi Calling is not on yet');
    await predictValidE911(context, e911Of(input));
  },
  // The spec's response names the SIM (the SIM it names) on failure as on success.
  onRejection: (rejection, { input, transactionId: id }) =>
    refused(rejection, { mdn: input.mdn, sim: input.sim, transactionId: id }),
  handle: async ({ carrier, input, transactionId: id }) => {
    const line = await carrier.addWfc({ mdn: input.mdn, sim: input.sim, address: e911Of(input), transactionId: id });
    return performed(id, { mdn: line.mdn, sim: line.sim });
  },
});
