// GET /sim/plan/active/{mdn}: the base plan SOC currently active on a line.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { mdn } from '../schemas/fields.js';
import { answered, refused } from '../../pipeline/envelopes.js';
import { operationStatus } from '../schemas/envelope.js';
import { resultMessage } from './common.js';

export const activePlanResult = z
  .object({
    status: operationStatus,
    mdn: z.string().describe('Subscriber number'),
    soc: z.string().optional().describe('Service order code (SOC) of the active plan'),
    planName: z.string().optional().describe('Name of the active plan'),
    effectiveDate: z.string().optional().describe('When the plan took effect, YYYY-MM-DD HH:MM:SS (UTC)'),
    message: resultMessage,
  })
  .meta({ id: 'ActivePlanResult', description: 'The plan currently active on a line' });

export const activePlan = defineOperation({
  name: 'activePlan',
  kind: 'query',
  description: 'The plan SOC currently active on a line (carrier 321 only; 501 elsewhere)',
  rest: { method: 'GET', path: '/sim/plan/active/{mdn}' },
  input: z.object({ mdn }),
  output: activePlanResult,
  rateLimit: { max: 30, window: 'minute' },
  routing: 'line',
  coalesce: true,
  extended: true,
  handle: async ({ extended, input }) => answered(await extended.getActivePlan(input.mdn)),
  onRejection: (rejection, { input }) => refused(rejection, { mdn: input.mdn }),
});
