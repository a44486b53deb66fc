// Carrier 321 adapter: SIM activation (a new subscriber resource under /v1/activations).

import { z } from 'zod';
import type { ActivateResult, CarrierActivationMethods } from '../types.js';
import { toWireE911, toWireLanguage, toWireWfc, wireWfcOutcome } from './codec.js';
import type { Carrier321Transport } from './transport.js';

const activation = z
  .object({ msisdn: z.string(), iccid: z.string(), customer_ref: z.string(), wfc: wireWfcOutcome.optional() })
  .transform((w): ActivateResult => ({
    mdn: w.msisdn,
    sim: w.iccid,
    customerId: w.customer_ref,
    ...(w.wfc === undefined ? {} : { wfc: w.wfc }),
  }));

export function activationOperations(transport: Carrier321Transport) {
  return {
    activate: (request) =>
      transport.write(request.transactionId, {
        method: 'POST',
        path: 'v1/activations',
        json: {
          iccid: request.sim,
          soc: request.carrierPlanId,
          postal_code: request.zipCode,
          e911: toWireE911(request.address),
          esim: request.isEsim,
          contact_email: request.email,
          billing_code: request.billingCode,
          voicemail_language: toWireLanguage(request.language),
          ...toWireWfc(request.wfc),
        },
        schema: activation,
      }),
  } satisfies CarrierActivationMethods;
}
