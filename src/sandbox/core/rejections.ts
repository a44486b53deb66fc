// Every refusal the sandbox can give, with the carrier's text. Codes with a meaning in the
// spec use that meaning verbatim, so gateway messages read exactly like the spec's.

import { CarrierRejection } from '../../carriers/errors.js';

export const REJECTION_TEXTS = {
  '506': 'Invalid ESN / device',
  '510': 'Invalid zip code',
  '906': 'Plan code invalid or inactive',
  '909': 'MDN does not belong to this vendor',
  '910': 'ESN does not belong to this MVNO',
  '914': 'ESN already active with another MDN',
  '915': 'ESN/MDN is inactive',
  '916': 'Plan code already active on the MDN',
  '918': 'Subscriber with given resource does not exist',
  '919': 'Invalid subscription id',
  '920': 'Insufficient balance for the requested deduction',
  '935': 'Subscriber state not NEW or ACTIVE',
  '949': 'No active subscription found',
  '969': 'Maximum purchases limit exceeded',
  '8010': 'eSIM not available for this MVNO',
  '8011': 'eSIM profile already completed and mapped',
  'GENS-0006': 'Invalid SIM',
  'GENS-0010': 'Duplicate products',
  'GENS-0011': 'No MDN available in the number pool',
  'GENS-0012': "SIM does not match the subscriber's current SIM",
  'GENS-0018': 'SIM is already in use',
  'GENS-0030': 'ICCID is not an eSIM',
  'GENS-0031': 'Email address is required for eSIM activation',
  'GENS-0033': 'MSISDN is not suspended',
  'GENS-0065': "SIM does not match the subscriber's current SIM",
  'GENS-0090': 'Invalid E911 address',
  'GENS-0124': 'Cannot update E911, WFC not active',
  'GENS-0147': 'MSISDN ineligible for reactivation',
  'GENS-0149': "SIM does not match the subscriber's current SIM",
  'GENS-0170': "SIM does not match the subscriber's current SIM",
  'GENS-0183': 'Invalid hotline number',
  'GENS-0197': 'SIM has expired',
  'GENS-0289': 'Service is not available in this zip code',
  'GENS-0404': 'Invalid request parameter',
} as const;

export type RejectionCode = keyof typeof REJECTION_TEXTS;

/** Throws the carrier's refusal; `text` refines the standard text where it helps a caller. */
export function reject(code: RejectionCode, text: string = REJECTION_TEXTS[code]): never {
  throw new CarrierRejection(code, text);
}
