// Carrier 321 sandbox routes: activation creates a subscriber under /v1/activations.

import { z } from 'zod';
import type { CarrierActivationMethods, CarrierOperations } from '../../../carriers/types.js';
import type { SandboxRoute } from '../../http-kit.js';
import { decodeBody, writeRoute } from '../routing.js';
import { wfcToWire, wireE911, wireLanguage, wireWfcRequest } from '../wire.js';

const activationBody = z.object({
  iccid: z.string(),
  soc: z.string(),
  postal_code: z.string(),
  e911: wireE911,
  esim: z.boolean(),
  contact_email: z.string().optional(),
  billing_code: z.string().optional(),
  voicemail_language: wireLanguage,
  wfc: wireWfcRequest.optional(),
});

export function activationRoutes(core: CarrierOperations) {
  return {
    activate: writeRoute('POST', '/v1/activations', async ({ body, transactionId }) => {
      const wire = decodeBody(activationBody, body);
      const result = await core.activate({
        transactionId,
        sim: wire.iccid,
        carrierPlanId: wire.soc,
        zipCode: wire.postal_code,
        address: wire.e911,
        isEsim: wire.esim,
        email: wire.contact_email,
        billingCode: wire.billing_code,
        language: wire.voicemail_language,
        wfc: wire.wfc,
      });
      return {
        status: 201,
        body: {
          msisdn: result.mdn,
          iccid: result.sim,
          customer_ref: result.customerId,
          state: 'active',
          ...wfcToWire(result.wfc),
        },
      };
    }),
  } satisfies Record<keyof CarrierActivationMethods, SandboxRoute>;
}
