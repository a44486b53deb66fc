// The request fields of one SIM activation, shared by single and bulk activation (a bulk item
// carries exactly these), with the spec's activation-specific limits: a 19–20 digit ICCID,
// ZIP or ZIP+4, an upper-case state, and an email whenever the SIM is an eSIM.

import { z } from 'zod';
import {
  activationIccid,
  capped,
  language,
  MAX_LENGTH,
  nonEmpty,
  transactionId,
  upperState,
  zipCodeOrPlus4,
} from '../schemas/fields.js';

export const esimFlag = z
  .enum(['Y', 'N'], { error: 'is_esim must be Y or N' })
  .meta({ id: 'EsimFlag', description: 'Whether the SIM is an eSIM: Y (yes) or N (no, a physical SIM)' });

// One local part, then dot-separated labels that cannot hold a dot themselves: each character
// has one place to go, so matching is linear (the former `[^@\s]+\.[^@\s]+` was quadratic).
export const EMAIL_PATTERN = /^[^@\s]+@[^@\s.]+(?:\.[^@\s.]+)+$/;

const email = capped('email', MAX_LENGTH.email)
  .trim()
  .regex(EMAIL_PATTERN, 'email must be a valid email address')
  .describe(
    `Subscriber email address, at most ${MAX_LENGTH.email} characters; required when is_esim is Y (the eSIM activation code is sent to it)`,
  );

export const activationFields = z
  .object({
    sim: activationIccid,
    planId: nonEmpty('plan_id', 'The plan to activate on; must be one of your authorized plans', MAX_LENGTH.planId),
    zipCode: zipCodeOrPlus4.describe('Service ZIP code: 5 digits or ZIP+4 (NNNNN-NNNN); also the E911 ZIP'),
    address1: nonEmpty('address1', 'E911 street address (required for E911 and Wi-Fi Calling)', MAX_LENGTH.addressLine),
    address2: capped('address2', MAX_LENGTH.addressLine)
      .optional()
      .describe(`E911 address line 2 (apartment, suite); at most ${MAX_LENGTH.addressLine} characters`),
    city: nonEmpty('city', 'E911 city', MAX_LENGTH.city),
    state: upperState.describe('E911 state: exactly 2 upper-case letters (US state code)'),
    isEsim: esimFlag.default('N').describe('Y when the SIM is an eSIM (then email is required); default N'),
    email: email.optional(),
    billingCode: nonEmpty(
      'billing_code',
      'Wholesale billing (cost-plan) code; the carrier default when absent',
      MAX_LENGTH.billingCode,
    ).optional(),
    language: language.default('ENGL').describe('Voicemail and IVR language: ENGL or SPAN; default ENGL'),
    transactionId: transactionId.optional(),
  })
  // The spec's conditional field: FastAPI-style, a 422 on `email`, before anything happens.
  .superRefine((value, context) => {
    if (value.isEsim === 'Y' && value.email === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['email'],
        message: 'email is required when is_esim is Y',
        input: value.email,
      });
    }
  })
  .meta({
    description:
      'One SIM to activate: the SIM, an authorized plan, the service ZIP and the E911 address, with eSIM, billing and language options',
    // activateSims named it first; startBulkActivation's items are the same type.
    graphqlInput: 'ActivateSimsActivationsInput',
  });

export type ActivationFields = z.infer<typeof activationFields>;
