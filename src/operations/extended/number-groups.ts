// GET /sim/ngp/{zip_code}: the number groups (NPA-NXX) a new number could come from near a ZIP.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { zipCode } from '../schemas/fields.js';
import { answered, refused } from '../../pipeline/envelopes.js';
import { operationStatus } from '../schemas/envelope.js';
import { resultMessage } from './common.js';

const numberGroup = z
  .object({
    npa: z.string().describe('Area code (NPA), 3 digits'),
    nxx: z.string().describe('Exchange (NXX), 3 digits'),
    city: z.string().describe('City of the group'),
    state: z.string().describe('2-letter state code of the group'),
    available: z.number().int().describe('How many numbers the group has available'),
  })
  .meta({ id: 'NumberGroup', description: 'A group of numbers (NPA-NXX) available for new lines' });

export const numberGroupsResult = z
  .object({
    status: operationStatus,
    zipCode: z.string().describe('The ZIP code asked about'),
    groups: z.array(numberGroup).optional().describe('Available number groups; empty when the ZIP is not covered'),
    message: resultMessage,
  })
  .meta({ id: 'NumberGroupsResult', description: 'Number groups available in a ZIP code' });

export const numberGroups = defineOperation({
  name: 'numberGroups',
  kind: 'query',
  description:
    'Number groups available for new numbers in a ZIP code (carrier 321 only; 501 elsewhere). Invalid ZIP: (510)',
  rest: { method: 'GET', path: '/sim/ngp/{zip_code}' },
  input: z.object({ zipCode }),
  output: numberGroupsResult,
  rateLimit: { max: 30, window: 'minute' },
  routing: 'default',
  coalesce: true,
  extended: true,
  handle: async ({ extended, input }) => answered(await extended.getNumberGroups(input.zipCode)),
  onRejection: (rejection, { input }) => refused(rejection, { zipCode: input.zipCode }),
});
