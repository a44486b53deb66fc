// carrier_b RPC method for activating a SIM on a tariff.

import { z } from 'zod';
import type { CarrierActivationMethods } from '../../../carriers/types.js';
import { defineMethod, type RpcMethod } from '../define-method.js';
import {
  emergencyAddress,
  encodeWifiCalling,
  greetingLanguage,
  iccid,
  nonEmpty,
  postCode,
  wifiCallingRequest,
} from '../wire.js';

const activateParams = z.object({
  iccid,
  ratePlan: nonEmpty,
  postCode,
  emergencyAddress,
  simKind: z.enum(['esim', 'physical']),
  contactEmail: nonEmpty.optional(),
  costPlan: nonEmpty.optional(),
  greetingLanguage,
  wifiCalling: wifiCallingRequest.optional(),
});

export const activationMethods = {
  activate: defineMethod('Subscriber.Activate', activateParams, async (core, params, requestId) => {
    const result = await core.activate({
      transactionId: requestId,
      sim: params.iccid,
      carrierPlanId: params.ratePlan,
      zipCode: params.postCode,
      address: params.emergencyAddress,
      isEsim: params.simKind === 'esim',
      ...(params.contactEmail === undefined ? {} : { email: params.contactEmail }),
      ...(params.costPlan === undefined ? {} : { billingCode: params.costPlan }),
      language: params.greetingLanguage,
      ...(params.wifiCalling === undefined ? {} : { wfc: params.wifiCalling }),
    });
    return { msisdn: result.mdn, iccid: result.sim, customerRef: result.customerId, ...encodeWifiCalling(result.wfc) };
  }),
} satisfies Record<keyof CarrierActivationMethods, RpcMethod>;
