// POST /sim/swap/: moves a line (its MDN) to a new SIM; the old SIM is deactivated.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { performed } from '../../pipeline/envelopes.js';
import { operationResult } from '../schemas/envelope.js';
import { mdn, transactionId } from '../schemas/fields.js';
import { iccidNamed } from './line-fields.js';
import { rememberLine } from '../line-homes.js';

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
