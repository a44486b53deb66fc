// GET /sim/device/{imei}: whether a device works on the network, and what it can do. An
// unknown device is an answer, not an error: HTTP 200 with compatible false, status failure.

import { z } from 'zod';
import type { CarrierRejection } from '../../carriers/errors.js';
import { defineOperation } from '../define.js';
import { answered, refused } from '../../pipeline/envelopes.js';
import { operationStatus } from '../schemas/envelope.js';
import { imei } from '../schemas/fields.js';

export const deviceStatusCode = z
  .enum(['SUCCESS', 'FAILURE'])
  .meta({ id: 'DeviceStatusCode', description: 'SUCCESS when the device is known, FAILURE when it is not' });

export const deviceCompatibilityResult = z
  .object({
    imei: z.string().describe('Device IMEI'),
    compatible: z.boolean().describe('Whether the device works on the network; false when the device is not found'),
    status: operationStatus,
    statusCode: deviceStatusCode,
    technology: z.string().nullable().describe('Network technology (e.g. 5G); null when unknown'),
    simType: z.string().nullable().describe('SIM type the device takes; null when unknown'),
    simSize: z.string().nullable().describe('SIM size the device takes; null when unknown'),
    message: z.string().describe('Success, or the carrier message ending with the error code (506 unknown device)'),
    model: z.string().nullable().describe('Model number; null when unknown'),
    manufacturer: z.string().nullable().describe('Manufacturer; null when unknown'),
    marketingName: z.string().nullable().describe('Marketing name; null when unknown'),
    osName: z.string().nullable().describe('Operating system; null when unknown'),
    esimCapable: z.boolean().describe('Supports eSIM; false when the device is not found'),
    volteCapable: z.boolean().describe('Supports VoLTE; false when the device is not found'),
    wifiCallingCapable: z.boolean().describe('Supports Wi-Fi Calling; false when the device is not found'),
    networkApproved: z.boolean().describe('Approved for the network; false when the device is not found'),
  })
  .meta({
    id: 'DeviceCompatibility',
    description:
      'Compatibility and capabilities of a device; status failure and statusCode FAILURE (still HTTP 200) when the device is unknown',
  });

const unknownDevice = (deviceImei: string, rejection: CarrierRejection) => ({
  ...refused(rejection, {
    imei: deviceImei,
    compatible: false,
    statusCode: 'FAILURE' as const,
    technology: null,
    simType: null,
    simSize: null,
    model: null,
    manufacturer: null,
    marketingName: null,
    osName: null,
    esimCapable: false,
    volteCapable: false,
    wifiCallingCapable: false,
    networkApproved: false,
  }),
  // Only "invalid device" (506) is the spec's 200 answer; any other refusal is a carrier failure.
  status: rejection.code === '506' ? 200 : 400,
});

export const deviceCompatibility = defineOperation({
  name: 'deviceCompatibility',
  kind: 'query',
  description:
    'Whether a device (IMEI) is compatible with the network, with its make, model and capabilities. An unknown device answers compatible false, status failure (HTTP 200)',
  rest: { method: 'GET', path: '/sim/device/{imei}' },
  input: z.object({ imei }),
  output: deviceCompatibilityResult,
  rateLimit: { max: 60, window: 'minute' },
  routing: 'default',
  coalesce: true,
  handle: async ({ carrier, input }) => {
    const device = await carrier.getDevice(input.imei);
    return answered({ ...device, imei: input.imei, statusCode: 'SUCCESS' as const });
  },
  onRejection: (rejection, { input }) => unknownDevice(input.imei, rejection),
});
