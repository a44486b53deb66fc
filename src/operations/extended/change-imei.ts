// POST /sim/imei/change/: moves a line to another device without changing its SIM.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { iccid, matching, mdn, transactionId } from '../schemas/fields.js';
import { performed } from '../../pipeline/envelopes.js';
import { operationStatus } from '../schemas/envelope.js';
import { resultMessage, resultTransactionId } from './common.js';
import { predictKnownDevice, predictLine, predictLineSim } from '../predictions.js';

export const imeiChangeResult = z
  .object({
    status: operationStatus,
    mdn: z.string().nullable().describe('Subscriber number'),
    sim: z.string().optional().describe('SIM (ICCID) of the line, unchanged'),
    imei: z.string().optional().describe('The device (IMEI) the line is now on'),
    transactionId: resultTransactionId,
    message: resultMessage,
  })
  .meta({ id: 'ImeiChangeResult', description: 'The operation envelope of a device (IMEI) change' });

export const changeImei = defineOperation({
  name: 'changeImei',
  kind: 'mutation',
  description:
    "Swaps the device (IMEI) of a line without changing the SIM (carrier 321 only; 501 elsewhere). `sim` must be the line's current SIM (GENS-0012); unknown device (506)",
  rest: { method: 'POST', path: '/sim/imei/change/' },
  input: z.object({
    mdn,
    sim: iccid.describe("The line's current SIM (ICCID), alphanumeric, at most 25 characters"),
    newImei: matching(/^\d{15}$/, 15, 'new_imei must be exactly 15 digits').describe(
      'The new device identifier (IMEI), 15 digits',
    ),
    transactionId: transactionId.optional(),
  }),
  output: imeiChangeResult,
  rateLimit: { max: 20, window: 'minute' },
  routing: 'line',
  extended: true,
  transactionPrefix: 'IMEI_CHG_',
  event: { type: 'line.feature_changed', data: () => ({ feature: 'imei' }) },
  // Dry run: the line and its SIM (GENS-0012), the new device (506).
  predict: async (context) => {
    const { input } = context;
    const line = await predictLine(context, input.mdn);
    predictLineSim(context, line, input.sim, 'GENS-0012');
    await predictKnownDevice(context, input.newImei);
  },
  handle: async ({ extended, input, transactionId: id }) => {
    const changed = await extended.changeImei({
      mdn: input.mdn,
      sim: input.sim,
      newImei: input.newImei,
      transactionId: id,
    });
    return performed(id, { mdn: changed.mdn, sim: changed.sim, imei: changed.imei });
  },
});
