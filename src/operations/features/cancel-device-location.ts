// POST /sim/device-location/cancel/: cancels device location (tracking) for a line.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { performed } from '../../pipeline/envelopes.js';
import { operationResult } from '../schemas/envelope.js';
import { mdn, transactionId } from '../schemas/fields.js';
import { predictLine } from '../predictions.js';

export const cancelDeviceLocation = defineOperation({
  name: 'cancelDeviceLocation',
  kind: 'mutation',
  description: 'Cancels device location for a line',
  rest: { method: 'POST', path: '/sim/device-location/cancel/' },
  input: z.object({ mdn, transactionId: transactionId.optional() }),
  output: operationResult,
  rateLimit: { max: 20, window: 'minute' },
  routing: 'line',
  transactionPrefix: 'CANCEL_LOC_',
  event: { type: 'line.feature_changed', data: () => ({ feature: 'device_location', enabled: false }) },
  // Dry run: the line (909, 918, 915); nothing else refuses a cancellation.
  predict: async (context) => {
    await predictLine(context, context.input.mdn);
  },
  handle: async ({ carrier, input, transactionId: id }) => {
    await carrier.cancelDeviceLocation({ mdn: input.mdn, transactionId: id });
    return performed(id, { mdn: input.mdn });
  },
});
