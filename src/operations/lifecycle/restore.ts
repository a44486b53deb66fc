// POST /sim/restore/: removes the hotline (suspension) of a line, optionally for one service.

import { z } from 'zod';
import { CarrierFault, CarrierRejection } from '../../carriers/errors.js';
import { defineOperation } from '../define.js';
import { setLineStatus } from '../line-homes.js';
import { performed } from '../../pipeline/envelopes.js';
import { operationResult } from '../schemas/envelope.js';
import { mdn, serviceScope, transactionId } from '../schemas/fields.js';
import { predictLine } from '../predictions.js';

export const restoreLine = defineOperation({
  name: 'restoreLine',
  kind: 'mutation',
  description:
    'Restores service on a suspended (hotlined) line, else error GENS-0033. `service` limits it to VOICE, SMS or DATA; absent (or empty over REST) = all. The line is active again once no service is left hotlined',
  rest: { method: 'POST', path: '/sim/restore/', emptyIsAbsent: ['service'] },
  input: z.object({ mdn, service: serviceScope.optional(), transactionId: transactionId.optional() }),
  output: operationResult,
  rateLimit: { max: 20, window: 'minute' },
  routing: 'line',
  transactionPrefix: 'RESTORE_',
  event: { type: 'line.restored', data: (input) => ({ service: input.service ?? null }) },
  // Dry run: only a suspended line can be restored (GENS-0033).
  predict: async (context) => {
    const { checks, input } = context;
    const line = await predictLine(context, input.mdn);
    if (line.lineStatus !== 'SUSPENDED') checks.refuse('lineStatus', 'GENS-0033', 'MSISDN is not suspended');
    checks.passed('lineStatus', 'The line is suspended');
    if (input.service) checks.cannotPredict(`Whether ${input.service} is among the line’s hotlined services`);
  },
  handle: async (context) => {
    const { carrier, input, transactionId: id } = context;
    await carrier.restore({ mdn: input.mdn, service: input.service, transactionId: id });
    if (!input.service) {
      await setLineStatus(context, input.mdn, 'ACTIVE');
    } else {
      // Restoring one service leaves the line suspended while others stay hotlined: ask the
      // carrier. The restore itself succeeded, so a failed look-up only leaves the old status.
      const status = await carrier.getNetworkStatus(input.mdn).then(
        (network) => network.lineStatus,
        (error: unknown) => {
          if (error instanceof CarrierFault || error instanceof CarrierRejection) return undefined;
          throw error;
        },
      );
      if (status) await setLineStatus(context, input.mdn, status);
    }
    return performed(id, { mdn: input.mdn });
  },
});
