// GET /sim/network/{mdn}: what the network's home location register (HLR) knows of a line:
// SIM, device, IMSI, SIM status and provisioned service codes.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { answered, refused } from '../../pipeline/envelopes.js';
import { mdn } from '../schemas/fields.js';
import { merged } from '../../lib/merged.js';

export const networkStatusResult = z
  .object({
    // A line record like usage and service: `status` is the subscriber's status on success.
    status: z.string().describe('Subscriber status (e.g. ACTIVE, SUSPENDED), or failure when the carrier refused'),
    mdn: z.string().describe('Subscriber number'),
    sim: z.string().optional().describe('SIM (ICCID) on the network'),
    imei: z.string().optional().describe('Device IMEI seen on the network'),
    imsi: z.string().optional().describe('Subscriber identity (IMSI)'),
    simStatus: z.string().optional().describe('SIM status on the network (e.g. INUSE)'),
    serviceCodes: z.array(z.string()).optional().describe('Names of the service order codes (SOCs) provisioned'),
    message: z.string().describe('Success, or the carrier message ending with the error code'),
  })
  .meta({ id: 'NetworkStatus', description: 'Network (HLR) status of a line' });

export const networkStatus = defineOperation({
  name: 'networkStatus',
  kind: 'query',
  description: 'Network (HLR) status of a line: SIM, IMEI, IMSI, SIM status and provisioned service codes',
  rest: { method: 'GET', path: '/sim/network/{mdn}' },
  input: z.object({ mdn }),
  output: networkStatusResult,
  rateLimit: { max: 60, window: 'minute' },
  routing: 'line',
  coalesce: true,
  handle: async ({ carrier, input }) => {
    const { lineStatus, ...network } = await carrier.getNetworkStatus(input.mdn);
    return answered(merged(network, { status: lineStatus }));
  },
  // The spec: failure bodies of network status also carry the mdn.
  onRejection: (rejection, { input }) => refused(rejection, { mdn: input.mdn }),
});
