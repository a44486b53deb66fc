// GET /sim/cim/: network outages and other customer-impacting events overlapping a time window.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { answered, refused } from '../../pipeline/envelopes.js';
import { operationStatus } from '../schemas/envelope.js';
import { resultMessage, timeBound } from './common.js';

const customerImpactingEvent = z
  .object({
    eventId: z.string().describe('Carrier event id'),
    category: z.string().describe('Kind of event, e.g. OUTAGE, MAINTENANCE, DEGRADED_SERVICE'),
    description: z.string().describe('What happens, in words'),
    zipCodes: z.array(z.string()).describe('ZIP codes affected'),
    startTime: z.string().describe('Start, YYYY-MM-DD HH:MM:SS (UTC)'),
    endTime: z.string().nullable().describe('End, YYYY-MM-DD HH:MM:SS (UTC); null while ongoing'),
  })
  .meta({ id: 'CustomerImpactingEvent', description: 'A network outage or other customer-impacting event' });

export const customerImpactingEventsResult = z
  .object({
    status: operationStatus,
    events: z.array(customerImpactingEvent).optional().describe('Events overlapping the requested window'),
    message: resultMessage,
  })
  .meta({ id: 'CustomerImpactingEventsResult', description: 'Customer-impacting events (CIM) of the carrier network' });

export const customerImpactingEvents = defineOperation({
  name: 'customerImpactingEvents',
  kind: 'query',
  description:
    'Network outages and customer-impacting events overlapping a time window (carrier 321 only; 501 elsewhere). A start after the end is refused by the carrier (GENS-0404)',
  rest: { method: 'GET', path: '/sim/cim/', query: ['startTime', 'endTime'] },
  input: z.object({
    startTime: timeBound(
      'start_time',
      'Start of the window: YYYY-MM-DD, YYYY-MM-DD HH:MM:SS (UTC) or ISO 8601 with a zone; absent = no bound',
    ).optional(),
    endTime: timeBound(
      'end_time',
      'End of the window: YYYY-MM-DD, YYYY-MM-DD HH:MM:SS (UTC) or ISO 8601 with a zone; absent = no bound',
    ).optional(),
  }),
  output: customerImpactingEventsResult,
  rateLimit: { max: 10, window: 'minute' },
  routing: 'default',
  coalesce: true,
  extended: true,
  handle: async ({ extended, input }) => answered({ events: await extended.getCustomerImpactingEvents(input) }),
  onRejection: (rejection) => refused(rejection, {}),
});
