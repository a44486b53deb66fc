// GET /sim/usage/carrier/{mdn}: the carrier's raw usage records of a line, to investigate
// what the balance query does not explain.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { answered, refused } from '../../pipeline/envelopes.js';
import { operationStatus } from '../schemas/envelope.js';
import { mdn } from '../schemas/fields.js';

export const usageEventType = z
  .enum(['VOICE', 'DATA', 'SMS'])
  .meta({ id: 'UsageEventType', description: 'Kind of usage record: VOICE, DATA or SMS' });

// One object for the three record kinds: each kind fills its own members (spec: record kinds seen).
export const usageEvent = z
  .object({
    type: usageEventType,
    timestamp: z.string().describe('When it happened, YYYY-MM-DD HH:MM:SS'),
    duration: z.number().int().optional().describe('VOICE: call duration in seconds'),
    destination: z.string().optional().describe('VOICE and SMS: the number called or messaged'),
    bytesUsed: z.number().optional().describe('DATA: bytes used'),
    count: z.number().int().optional().describe('SMS: number of messages'),
  })
  .meta({ id: 'UsageEvent', description: 'One raw usage record from the carrier' });

export const carrierUsageResult = z
  .object({
    status: operationStatus,
    mdn: z.string().optional().describe('Subscriber number'),
    usageRecords: z.array(usageEvent).optional().describe('The raw usage records, oldest first'),
    message: z.string().describe('Success, or the carrier message ending with the error code'),
  })
  .meta({ id: 'CarrierUsageResult', description: 'Raw carrier usage records of a line' });

export const carrierUsage = defineOperation({
  name: 'carrierUsage',
  kind: 'query',
  description:
    'Raw usage records (voice, data, SMS) as the carrier holds them; investigates discrepancies that the balance query does not explain',
  rest: { method: 'GET', path: '/sim/usage/carrier/{mdn}' },
  input: z.object({ mdn }),
  output: carrierUsageResult,
  rateLimit: { max: 60, window: 'minute' },
  routing: 'line',
  coalesce: true,
  handle: async ({ carrier, input }) => {
    const usage = await carrier.getCarrierUsage(input.mdn);
    return answered({ mdn: usage.mdn, usageRecords: usage.usageRecords });
  },
  onRejection: (rejection) => refused(rejection, {}),
});
