// POST /sim/reconnect/: brings a disconnected line back (within about 30 days) on one of the
// caller's authorized plans; WFC plans take an E911 address and succeed with a warning when
// WFC cannot be added.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { performed, refused } from '../../pipeline/envelopes.js';
import { operationResult } from '../schemas/envelope.js';
import { e911From, optionalE911Fields } from '../schemas/e911.js';
import { iccid, MAX_LENGTH, mdn, nonEmpty, transactionId, zipCode } from '../schemas/fields.js';
import { wfcFor, wfcWarning } from '../wfc.js';
import { rememberLine } from '../line-homes.js';
import {
  cannotPredictPlanCode,
  predictCoveredZip,
  predictDisconnectedLine,
  predictReconnectSim,
  predictWfc,
} from '../predictions.js';

/** The spec's default wholesale billing code of a reconnected line. */
export const DEFAULT_BILLING_CODE = 'BC123';

export const reconnectLine = defineOperation({
  name: 'reconnectLine',
  kind: 'mutation',
  description:
    'Reconnects a disconnected line within about 30 days of disconnection (else GENS-0147) on one of your authorized plans (else 403). WFC plans take an E911 address; when WFC cannot be added the reconnection still succeeds, with `warning` and `wfcStatus: false`',
  rest: { method: 'POST', path: '/sim/reconnect/' },
  input: z.object({
    mdn,
    sim: iccid.describe(
      "SIM (ESN or ICCID) to reconnect on, at most 25 characters: the line's own or an available one",
    ),
    planId: nonEmpty('plan_id', 'The plan to reconnect on; must be one of your authorized plans', MAX_LENGTH.planId),
    zipCode: zipCode.describe('US ZIP code of service (and of the E911 address), 5 digits'),
    billingCode: nonEmpty(
      'billing_code',
      `Wholesale billing code; default ${DEFAULT_BILLING_CODE}`,
      MAX_LENGTH.billingCode,
    ).optional(),
    address1: optionalE911Fields.address1,
    address2: optionalE911Fields.address2,
    city: optionalE911Fields.city,
    state: optionalE911Fields.state,
    transactionId: transactionId.optional(),
  }),
  output: operationResult,
  rateLimit: { max: 20, window: 'minute' },
  // Per-plan carrier resolution (spec), the plan's carrier first; a carrier-neutral plan follows the line.
  routing: 'plan',
  planField: 'planId',
  transactionPrefix: 'RECONNECT_',
  event: { type: 'line.reconnected', data: (input) => ({ planId: input.planId }) },
  // Dry run: the line disconnected (GENS-0147), the SIM (its own or a fresh one), the ZIP, WFC on a WFC plan.
  predict: async (context) => {
    const { input, plan } = context;
    await predictDisconnectedLine(context, input.mdn);
    await predictReconnectSim(context, input.mdn, input.sim);
    await predictCoveredZip(context, input.zipCode);
    cannotPredictPlanCode(context, plan.carrierPlanId);
    await predictWfc(context, plan, e911From(input), 'Reconnection');
  },
  // The spec's response names the SIM (the SIM it names) on failure as on success.
  onRejection: (rejection, { input, transactionId: id }) =>
    refused(rejection, { mdn: input.mdn, sim: input.sim, transactionId: id }),
  handle: async (context) => {
    const { carrier, input, plan, transactionId: id } = context;
    const result = await carrier.reconnect({
      mdn: input.mdn,
      sim: input.sim,
      carrierPlanId: plan.carrierPlanId,
      zipCode: input.zipCode,
      billingCode: input.billingCode ?? DEFAULT_BILLING_CODE,
      wfc: wfcFor(plan, e911From(input)),
      transactionId: id,
    });
    await rememberLine(context, { mdn: result.mdn, sim: result.sim, status: 'ACTIVE' });
    return performed(id, { mdn: result.mdn, sim: result.sim, ...wfcWarning('Reconnection', result.wfc) });
  },
});
