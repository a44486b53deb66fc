// GET /sim/usage/{mdn}: usage and balance of a line.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { refused } from '../../pipeline/envelopes.js';
import { mdn } from '../schemas/fields.js';
import { usageRecord } from '../schemas/usage.js';
import { merged } from '../../lib/merged.js';

export const usage = defineOperation({
  name: 'usage',
  kind: 'query',
  description: 'Usage and balance of a line: plan, balances (talk, text, data) and subscriptions',
  rest: { method: 'GET', path: '/sim/usage/{mdn}' },
  input: z.object({ mdn }),
  output: usageRecord,
  rateLimit: { max: 60, window: 'minute' },
  routing: 'line',
  coalesce: true,
  handle: async ({ carrier, input }) => {
    const { lineStatus, ...record } = await carrier.getUsage(input.mdn);
    return { status: 200, body: merged(record, { status: lineStatus }) };
  },
  // The spec: the usage failure body also carries `errors`, the message strings.
  onRejection: (rejection) => refused(rejection, { errors: [rejection.message] }),
});
