// GET /sim/service/{mdn}: the full service record of a line (plan, SOCs, balances, E911
// address, hotline), optionally verifying that `sim` is the line's SIM.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { answered, refused } from '../../pipeline/envelopes.js';
import { iccid, mdn } from '../schemas/fields.js';
import { balanceDetails, subscription } from '../schemas/usage.js';
import { merged } from '../../lib/merged.js';

export const serviceCode = z
  .object({
    code: z.string().describe('Service order code (SOC) identifier'),
    effectiveDate: z.string().describe('Date the code took effect, YYYY-MM-DD'),
  })
  .meta({ id: 'ServiceCode', description: 'A service order code (SOC) active on the line' });

export const serviceE911Address = z
  .object({
    address1: z.string().describe('Street'),
    city: z.string().describe('City'),
    state: z.string().describe('2-letter US state code'),
    zipCode: z.string().describe('5-digit ZIP code'),
  })
  .meta({ id: 'ServiceE911Address', description: 'The E911 address registered for Wi-Fi Calling' });

export const serviceRecord = z
  .object({
    // Like the usage record, `status` is the subscriber's status on success.
    status: z.string().describe('Subscriber status (e.g. ACTIVE, SUSPENDED), or failure when the carrier refused'),
    mdn: z.string().optional().describe('Subscriber number, 10 digits'),
    sim: z.string().optional().describe('SIM (ICCID)'),
    imei: z.string().optional().describe('Device IMEI'),
    planName: z.string().optional().describe('Current plan'),
    effectiveDate: z.string().optional().describe('Plan effective date, YYYY-MM-DD HH:MM:SS'),
    billCycleDay: z.string().optional().describe('Billing cycle day of the month'),
    serviceCodes: z.array(serviceCode).optional().describe('Service order codes (SOCs) on the line'),
    balanceDetails: balanceDetails.optional().describe('Remaining talk (minutes), text (messages) and data (bytes)'),
    subscriptions: z.array(subscription).optional().describe('Subscriptions with their balances'),
    e911Address: serviceE911Address.optional().describe('E911 address; present when Wi-Fi Calling is enabled'),
    hotlineStatus: z.string().nullable().optional().describe('Hotline (suspension) status; null when not hotlined'),
    hotlineNumber: z.string().nullable().optional().describe('Redirect number when hotlined; null otherwise'),
    message: z.string().describe('Status message: Success, or the carrier message ending with the error code'),
  })
  .meta({ id: 'ServiceRecord', description: 'The full service record of a line' });

export const serviceInfo = defineOperation({
  name: 'serviceInfo',
  kind: 'query',
  description:
    'Full service information of a line: device, plan, service codes, balances, subscriptions, E911 address and hotline status',
  rest: { method: 'GET', path: '/sim/service/{mdn}', query: ['sim'] },
  input: z.object({
    mdn,
    sim: iccid
      .optional()
      .describe('ICCID of the line, for extra verification (918 when it is not the SIM of the line)'),
  }),
  output: serviceRecord,
  rateLimit: { max: 60, window: 'minute' },
  routing: 'line',
  coalesce: true,
  handle: async ({ carrier, input }) => {
    const { lineStatus, e911Address, ...profile } = await carrier.getServiceProfile(input.mdn, input.sim);
    // The spec's E911 object has exactly these four members, and only while WFC is on.
    const address = e911Address
      ? {
          address1: e911Address.address1,
          city: e911Address.city,
          state: e911Address.state,
          zipCode: e911Address.zipCode,
        }
      : undefined;
    return answered(merged(profile, { status: lineStatus, e911Address: address }));
  },
  onRejection: (rejection) => refused(rejection, {}),
});
