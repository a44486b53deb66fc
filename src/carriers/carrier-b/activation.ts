// carrier_b adapter: SIM activation on a tariff (Subscriber.Activate).

import { z } from 'zod';
import type { ActivateResult, CarrierActivationMethods } from '../types.js';
import { toWireAddress, toWireLanguage, toWireWifiCalling, wireText, wireWifiCallingOutcome } from './codec.js';
import type { CarrierBTransport } from './transport.js';

const activated = z
  .object({ msisdn: wireText, iccid: wireText, customerRef: wireText, wifiCalling: wireWifiCallingOutcome.optional() })
  .transform((w): ActivateResult => ({
    mdn: w.msisdn,
    sim: w.iccid,
    customerId: w.customerRef,
    ...(w.wifiCalling === undefined ? {} : { wfc: w.wifiCalling }),
  }));

export function activationOperations(transport: CarrierBTransport) {
  return {
    activate: (request) =>
      transport.write(request.transactionId, {
        method: 'Subscriber.Activate',
        params: {
          iccid: request.sim,
          ratePlan: request.carrierPlanId,
          postCode: request.zipCode,
          emergencyAddress: toWireAddress(request.address),
          simKind: request.isEsim ? 'esim' : 'physical',
          contactEmail: request.email,
          costPlan: request.billingCode,
          greetingLanguage: toWireLanguage(request.language),
          ...toWireWifiCalling(request.wfc),
        },
        schema: activated,
      }),
  } satisfies CarrierActivationMethods;
}
