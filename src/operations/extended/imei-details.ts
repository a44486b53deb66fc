// GET /sim/imei/{imei}: what the carrier knows about a device.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { imei } from '../schemas/fields.js';
import { answered, refused } from '../../pipeline/envelopes.js';
import { operationStatus } from '../schemas/envelope.js';
import { resultMessage } from './common.js';

export const imeiDetailsResult = z
  .object({
    status: operationStatus,
    imei: z.string().describe('Device identifier (IMEI)'),
    manufacturer: z.string().optional().describe('Device manufacturer'),
    model: z.string().optional().describe('Device model'),
    marketingName: z.string().optional().describe('Marketing name of the device'),
    osName: z.string().optional().describe('Operating system'),
    esimCapable: z.boolean().optional().describe('Whether the device supports eSIM'),
    volteCapable: z.boolean().optional().describe('Whether the device supports VoLTE'),
    blacklisted: z.boolean().optional().describe('Whether the device is blacklisted (reported lost or stolen)'),
    message: resultMessage,
  })
  .meta({ id: 'ImeiDetailsResult', description: 'Device details of an IMEI' });

export const imeiDetails = defineOperation({
  name: 'imeiDetails',
  kind: 'query',
  description:
    'Device details of an IMEI: make, model, capabilities, blacklist status (carrier 321 only; 501 elsewhere). Unknown device: (506)',
  rest: { method: 'GET', path: '/sim/imei/{imei}' },
  input: z.object({ imei }),
  output: imeiDetailsResult,
  rateLimit: { max: 30, window: 'minute' },
  routing: 'default',
  coalesce: true,
  extended: true,
  handle: async ({ extended, input }) => answered(await extended.getImeiDetails(input.imei)),
  onRejection: (rejection, { input }) => refused(rejection, { imei: input.imei }),
});
