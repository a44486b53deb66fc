// POST /sim/address/validate/: asks the carrier whether a street address is valid and how it
// normalises it. A read: nothing is recorded, and an invalid address is an answer, not a refusal.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { MAX_LENGTH, nonEmpty, state, zipCodeOrPlus4 } from '../schemas/fields.js';
import { refused } from '../../pipeline/envelopes.js';
import { operationStatus } from '../schemas/envelope.js';

const validatedAddress = z
  .object({
    street1: z.string().describe('Street, as the carrier normalised it'),
    city: z.string().describe('City, as the carrier normalised it'),
    state: z.string().describe('2-letter state code, as the carrier normalised it'),
    zipCode: z.string().describe('ZIP code, as the carrier normalised it'),
  })
  .meta({ id: 'ValidatedAddress', description: "The carrier's normalised form of a valid address" });

/** The carrier answers an invalid address with `valid: false` alone: no message, no error code. */
const INVALID_ADDRESS = 'Invalid address: the carrier cannot validate it';

export const addressValidationResult = z
  .object({
    // An invalid address is the carrier's answer, not its refusal: the shared descriptions of
    // status and message (a failure is a refusal, its code ending the message) do not fit it.
    status: operationStatus.describe(
      'success: the address is valid; failure: it is not (HTTP 200, no error code), or the carrier refused the request (its error code ends `message`)',
    ),
    valid: z.boolean().optional().describe('Whether the carrier accepts the address'),
    normalized: validatedAddress.nullable().optional().describe('The normalised address; null when invalid'),
    message: z
      .string()
      .describe(
        `Success; "${INVALID_ADDRESS}" for an invalid address (the carrier gives no reason or code); or, when the carrier refused the request, its message ending with the error code in parentheses`,
      ),
  })
  .meta({
    id: 'AddressValidationResult',
    description:
      'Whether an address is valid, and its normalised form. status is failure (HTTP 200) when the address is not valid',
  });

export const validateAddress = defineOperation({
  name: 'validateAddress',
  kind: 'query',
  description:
    'Validates a street address with the carrier and returns its normalised form (carrier 321 only; 501 elsewhere)',
  rest: { method: 'POST', path: '/sim/address/validate/' },
  input: z.object({
    street1: nonEmpty('street1', 'Street address', MAX_LENGTH.addressLine),
    city: nonEmpty('city', 'City', MAX_LENGTH.city),
    state,
    zipCode: zipCodeOrPlus4,
  }),
  output: addressValidationResult,
  rateLimit: { max: 30, window: 'minute' },
  routing: 'default',
  coalesce: true,
  extended: true,
  handle: async ({ extended, input }) => {
    const result = await extended.validateAddress(input);
    // Like an uncovered ZIP on the coverage query: a negative answer is HTTP 200 with status failure.
    return {
      status: 200,
      body: result.valid
        ? { status: 'success' as const, valid: true, normalized: result.normalized, message: 'Success' }
        : {
            status: 'failure' as const,
            valid: false,
            normalized: null,
            message: INVALID_ADDRESS,
          },
    };
  },
  onRejection: (rejection) => refused(rejection, {}),
});
