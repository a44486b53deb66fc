// GET /sim/esim/{sim}: the eSIM profile of a SIM, with the activation code for QR provisioning.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { answered, refused } from '../../pipeline/envelopes.js';
import { operationStatus } from '../schemas/envelope.js';
import { iccid } from '../schemas/fields.js';

export const esimProfileResult = z
  .object({
    status: operationStatus,
    sim: z.string().describe('SIM (ICCID)'),
    activationCode: z.string().optional().describe('Activation code for QR provisioning'),
    matchingId: z.string().optional().describe('Matching id of the profile'),
    profileState: z.string().optional().describe('Profile state (e.g. AVAILABLE)'),
    profileType: z.string().optional().describe('Profile type (e.g. CONSUMER)'),
    esimBrand: z.string().optional().describe('eSIM brand'),
    lastModified: z.string().optional().describe('Last change of the profile, YYYY-MM-DD HH:MM:SS'),
    message: z.string().describe('Success, or the carrier message ending with the error code'),
  })
  .meta({ id: 'EsimProfile', description: 'The eSIM profile of a SIM' });

export const esimProfile = defineOperation({
  name: 'esimProfile',
  kind: 'query',
  description: 'eSIM profile of a SIM: activation code for QR provisioning, matching id, profile state and type',
  rest: { method: 'GET', path: '/sim/esim/{sim}' },
  input: z.object({ sim: iccid }),
  output: esimProfileResult,
  rateLimit: { max: 60, window: 'minute' },
  routing: 'sim',
  coalesce: true,
  handle: async ({ carrier, input }) => {
    const profile = await carrier.getEsimProfile(input.sim);
    return answered(profile);
  },
  // A stock profile is AVAILABLE; RELEASED serves a line, DISABLED served one (the carrier
  // contract's states; strict ownership: see the spec type).
  showsStockSim: (answer) => answer.profileState === 'AVAILABLE',
  // The spec: failure bodies of the eSIM query also carry the sim.
  onRejection: (rejection, { input }) => refused(rejection, { sim: input.sim }),
});
