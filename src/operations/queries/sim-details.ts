// GET /sim/details/{sim}: eligibility, PUKs, dates and status of a SIM.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { answered, refused } from '../../pipeline/envelopes.js';
import { operationStatus } from '../schemas/envelope.js';
import { iccid } from '../schemas/fields.js';

export const simDetailsResult = z
  .object({
    sim: z.string().describe('SIM (ICCID)'),
    status: operationStatus,
    activationEligible: z.boolean().describe('Whether the SIM can be activated; false on failure'),
    wfcEligible: z.boolean().describe('Whether the SIM supports Wi-Fi Calling; false on failure'),
    puk1: z.string().nullable().describe('PUK1 code; null when unknown'),
    puk2: z.string().nullable().describe('PUK2 code; null when unknown'),
    createDate: z.string().nullable().describe('When the SIM was made, ISO 8601 UTC; null when unknown'),
    expirationDate: z.string().nullable().describe('When the SIM expires, ISO 8601 with offset; null when unknown'),
    iccidStatus: z.string().nullable().describe('SIM status (e.g. AVAILABLE, INUSE); null when unknown'),
    message: z.string().describe('Success, or the carrier message ending with the error code'),
  })
  .meta({ id: 'SimDetails', description: 'Details of a SIM' });

export const simDetails = defineOperation({
  name: 'simDetails',
  kind: 'query',
  description:
    'Details of a SIM: activation and WFC eligibility, PUK codes, creation and expiration dates, ICCID status',
  rest: { method: 'GET', path: '/sim/details/{sim}' },
  input: z.object({ sim: iccid }),
  output: simDetailsResult,
  rateLimit: { max: 60, window: 'minute' },
  routing: 'sim',
  coalesce: true,
  handle: async ({ carrier, input }) => {
    const details = await carrier.getSimDetails(input.sim);
    return answered(details);
  },
  // Stock is AVAILABLE; INUSE serves a line, DEACTIVATED served one (strict ownership: see the spec type).
  showsStockSim: (answer) => answer.iccidStatus === 'AVAILABLE',
  // The spec: on failure both eligibility flags are false and the remaining fields null.
  onRejection: (rejection, { input }) =>
    refused(rejection, {
      sim: input.sim,
      activationEligible: false,
      wfcEligible: false,
      puk1: null,
      puk2: null,
      createDate: null,
      expirationDate: null,
      iccidStatus: null,
    }),
});
