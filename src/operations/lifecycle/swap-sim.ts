// POST /sim/swap/: moves a line (its MDN) to a new SIM; the old SIM is deactivated.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { performed, refused } from '../../pipeline/envelopes.js';
import { operationResult } from '../schemas/envelope.js';
import { mdn, transactionId } from '../schemas/fields.js';
import { iccidNamed } from './line-fields.js';
import { rememberLine } from '../line-homes.js';
import { predictFreshSim, predictLine, predictLineSim } from '../predictions.js';

export const swapSim = defineOperation({
  name: 'swapSim',
  kind: 'mutation',
  description:
    "Moves a line to a new SIM: `newSim` is activated, `oldSim` (the line's current SIM, else GENS-0012) is deactivated. The answer's `sim` is the new ICCID",
  rest: { method: 'POST', path: '/sim/swap/' },
  input: z.object({
    mdn,
    newSim: iccidNamed('new_sim', 'ICCID of the SIM to activate, alphanumeric, at most 25 characters'),
    oldSim: iccidNamed(
      'old_sim',
      "ICCID of the line's current SIM, to deactivate, alphanumeric, at most 25 characters",
    ),
    transactionId: transactionId.optional(),
  }),
  output: operationResult,
  rateLimit: { max: 30, window: 'minute' },
  routing: 'line',
  ownedSims: ['oldSim', 'newSim'],
  transactionPrefix: 'SWAP_',
  event: { type: 'line.sim_swapped', data: (input) => ({ oldSim: input.oldSim, newSim: input.newSim }) },
  // Dry run: the line, its current SIM (GENS-0012), then the new SIM as a fresh one (GENS-0018 in use).
  predict: async (context) => {
    const { checks, input } = context;
    const line = await predictLine(context, input.mdn);
    predictLineSim(context, line, input.oldSim, 'GENS-0012');
    if (input.newSim === line.sim) checks.refuse('sim', 'GENS-0018', 'SIM is already in use');
    await predictFreshSim(context, input.newSim, 'GENS-0018');
  },
  // The spec's response names the SIM (the new ICCID) on failure as on success.
  onRejection: (rejection, { input, transactionId: id }) =>
    refused(rejection, { mdn: input.mdn, sim: input.newSim, transactionId: id }),
  handle: async (context) => {
    const { carrier, input, transactionId: id } = context;
    const line = await carrier.swapSim({
      mdn: input.mdn,
      oldSim: input.oldSim,
      newSim: input.newSim,
      transactionId: id,
    });
    await rememberLine(context, line);
    return performed(id, { mdn: line.mdn, sim: line.sim });
  },
});
