// GET /sim/device/unlock-status/{imei}: whether a device is unlocked or may be unlocked.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { imei } from '../schemas/fields.js';
import { answered, refused } from '../../pipeline/envelopes.js';
import { operationStatus } from '../schemas/envelope.js';
import { resultMessage } from './common.js';

export const deviceUnlockStatusResult = z
  .object({
    status: operationStatus,
    imei: z.string().describe('Device identifier (IMEI)'),
    unlocked: z.boolean().optional().describe('Whether the device is already unlocked'),
    unlockEligible: z.boolean().optional().describe('Whether the device may be unlocked now'),
    reason: z.string().nullable().optional().describe('Why the device is not eligible; null when it is'),
    message: resultMessage,
  })
  .meta({ id: 'DeviceUnlockStatusResult', description: 'Unlock status and eligibility of a device' });

export const deviceUnlockStatus = defineOperation({
  name: 'deviceUnlockStatus',
  kind: 'query',
  description:
    'Unlock status and unlock eligibility of a device, by IMEI (carrier 321 only; 501 elsewhere). Unknown device: (506)',
  rest: { method: 'GET', path: '/sim/device/unlock-status/{imei}' },
  input: z.object({ imei }),
  output: deviceUnlockStatusResult,
  rateLimit: { max: 30, window: 'minute' },
  routing: 'default',
  coalesce: true,
  extended: true,
  handle: async ({ extended, input }) => answered(await extended.getDeviceUnlockStatus(input.imei)),
  onRejection: (rejection, { input }) => refused(rejection, { imei: input.imei }),
});
