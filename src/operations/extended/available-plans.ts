// GET /sim/plans/available/: every plan SOC code the carrier offers (carrier 321 only).

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { performed, refused } from '../../pipeline/envelopes.js';
import { operationStatus } from '../schemas/envelope.js';
import { resultMessage, resultTransactionId } from './common.js';

const availablePlan = z
  .object({
    soc: z.string().describe('Plan service order code (SOC), as used for carrier_plan_id'),
    name: z.string().describe('Plan name'),
  })
  .meta({ id: 'AvailablePlan', description: 'A plan of the carrier catalogue' });

export const availablePlansResult = z
  .object({
    status: operationStatus,
    // The spec's envelope names a line and a SIM; the catalogue concerns neither.
    mdn: z.string().nullable().describe('Always null: the catalogue is not about a line'),
    sim: z.string().nullable().describe('Always null: the catalogue is not about a SIM'),
    transactionId: resultTransactionId,
    message: resultMessage,
    plans: z.array(availablePlan).optional().describe('The plan codes, on success'),
  })
  .meta({ id: 'AvailablePlansResult', description: 'The operation envelope with the carrier plan catalogue' });

export const availablePlans = defineOperation({
  name: 'availablePlans',
  kind: 'query',
  description: 'Lists all plan SOC codes of the carrier (carrier 321 only; 501 elsewhere)',
  rest: { method: 'GET', path: '/sim/plans/available/' },
  input: z.object({}),
  output: availablePlansResult,
  rateLimit: { max: 30, window: 'minute' },
  routing: 'default',
  // Not coalesced: each call answers its own transaction id.
  extended: true,
  // Generated for the envelope only: queries are not recorded in the transaction log.
  transactionPrefix: 'PLANS_',
  handle: async ({ extended, transactionId }) => {
    const plans = await extended.listAvailablePlans();
    return performed(transactionId, { mdn: null, sim: null, plans });
  },
  onRejection: (rejection, { transactionId }) => refused(rejection, { mdn: null, sim: null, transactionId }),
});
