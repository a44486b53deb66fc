// POST /sim/mdn/swap/: gives a line a new number from the carrier's pool; the old number is
// given up, so the registry moves the line to its new number.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { performed, refused } from '../../pipeline/envelopes.js';
import { operationResult } from '../schemas/envelope.js';
import { iccid, matching, mdn, transactionId, zipCode } from '../schemas/fields.js';
import { renumberLine } from '../line-homes.js';
import { predictCoveredZip, predictKnownDevice, predictLine, predictLineSim } from '../predictions.js';

export const swapMdn = defineOperation({
  name: 'swapMdn',
  kind: 'mutation',
  description:
    "Gives a line a new number (MDN) from the carrier's pool, in the area of `zipCode`; the answer's `newMdn` is the new number and the old one stops working. `imei` optionally records the device",
  rest: { method: 'POST', path: '/sim/mdn/swap/' },
  input: z.object({
    mdn: mdn.describe('Current subscriber number (MDN), 10 digits'),
    sim: iccid.describe("The line's SIM (ICCID), alphanumeric, at most 25 characters"),
    zipCode: zipCode.describe('US ZIP code (5 digits) whose area the new number comes from'),
    imei: matching(/^\d{1,15}$/, 15, 'imei must be at most 15 digits')
      .optional()
      .describe('Device identifier (IMEI), at most 15 digits'),
    transactionId: transactionId.optional(),
  }),
  output: operationResult,
  rateLimit: { max: 20, window: 'minute' },
  routing: 'line',
  transactionPrefix: 'SWAP_MDN_',
  event: {
    type: 'line.mdn_swapped',
    data: (input, answer) => ({ previousMdn: input.mdn, newMdn: answer.newMdn ?? null }),
  },
  // Dry run: the line and its SIM (918), the device when named (506), the ZIP (510, GENS-0289).
  predict: async (context) => {
    const { checks, input } = context;
    const line = await predictLine(context, input.mdn);
    predictLineSim(context, line, input.sim, '918', 'Subscriber with given resource does not exist');
    if (input.imei) await predictKnownDevice(context, input.imei);
    await predictCoveredZip(context, input.zipCode);
    checks.cannotPredict('Whether the carrier\u2019s number pool has a number left (GENS-0011)');
  },
  // The spec's response names the SIM (the SIM it names) on failure as on success.
  onRejection: (rejection, { input, transactionId: id }) =>
    refused(rejection, { mdn: input.mdn, sim: input.sim, transactionId: id }),
  handle: async (context) => {
    const { carrier, input, transactionId: id } = context;
    const result = await carrier.swapMdn({
      mdn: input.mdn,
      sim: input.sim,
      zipCode: input.zipCode,
      imei: input.imei,
      transactionId: id,
    });
    await renumberLine(context, result);
    return performed(id, { mdn: result.mdn, newMdn: result.newMdn, sim: result.sim });
  },
});
