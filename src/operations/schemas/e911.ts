// The E911 address of the spec, defined once: the members as request fields (required for
// the WFC operations, optional for plan-bearing ones where only WFC plans need them) and
// the carrier's address built from validated input.

import type { E911Address } from '../../carriers/types.js';
import { capped, MAX_LENGTH, nonEmpty, state, zipCode } from './fields.js';

export const e911Fields = {
  address1: nonEmpty('address1', 'E911 street address', MAX_LENGTH.addressLine),
  address2: capped('address2', MAX_LENGTH.addressLine)
    .optional()
    .describe(`E911 address line 2 (apartment, suite); at most ${MAX_LENGTH.addressLine} characters`),
  city: nonEmpty('city', 'E911 city', MAX_LENGTH.city),
  state,
  zipCode,
};

/** For plan-bearing operations: a missing or invalid address only costs WFC (warning, `wfcStatus: false`). */
export const optionalE911Fields = {
  address1: e911Fields.address1
    .optional()
    .describe(`E911 street address (WFC plans); at most ${MAX_LENGTH.addressLine} characters`),
  address2: e911Fields.address2,
  city: e911Fields.city.optional().describe(`E911 city (WFC plans); at most ${MAX_LENGTH.city} characters`),
  state: state.optional().describe('E911 state, 2-letter US state code (WFC plans)'),
  zipCode: zipCode.optional().describe('E911 ZIP code, 5 digits (WFC plans)'),
};

export interface AddressFields {
  address1?: string;
  address2?: string;
  city?: string;
  state?: string;
  zipCode?: string;
}

/** The address in the input, or null when a required part is missing. */
export function e911From(fields: AddressFields, zip = fields.zipCode): E911Address | null {
  if (!fields.address1 || !fields.city || !fields.state || !zip) return null;
  return { address1: fields.address1, address2: fields.address2, city: fields.city, state: fields.state, zipCode: zip };
}

/** The address of input whose parts are all required (validated before). */
export function e911Of(
  fields: Required<Omit<AddressFields, 'address2'>> & Pick<AddressFields, 'address2'>,
): E911Address {
  return e911From(fields)!;
}
