// GET /sim/coverage/quick/{zip_code}: may a line be activated at this ZIP? A yes/no answer:
// covered false is still status success (HTTP 200), with a message saying it is not eligible.

import { z } from 'zod';
import type { CarrierRejection } from '../../carriers/errors.js';
import { defineOperation } from '../define.js';
import { answered } from '../../pipeline/envelopes.js';
import { operationStatus } from '../schemas/envelope.js';
import { zipCode } from '../schemas/fields.js';
import { NOT_COVERED, UNSERVED_ZIP_CODES } from './coverage.js';

export const quickCoverageResult = z
  .object({
    zipCode: z.string().describe('The ZIP code asked about'),
    covered: z.boolean().describe('Whether the network covers the ZIP code (activation eligible)'),
    status: operationStatus,
    message: z
      .string()
      .describe(
        'States whether activation is eligible; when not, why, ending with the code (510 invalid, GENS-0289 not covered)',
      ),
  })
  .meta({
    id: 'QuickCoverageResult',
    description:
      'Whether a line can be activated at a ZIP code; status is success whenever the question is answered, covered or not',
  });

const notEligible = (zip: string, rejection: CarrierRejection) => {
  // An unserved ZIP is a definite "no" (success); any other refusal means there is no answer.
  const answered = UNSERVED_ZIP_CODES.has(rejection.code);
  return {
    status: answered ? 200 : 400,
    body: {
      zipCode: zip,
      covered: false,
      status: answered ? ('success' as const) : ('failure' as const),
      message: answered ? `Activation eligible: false: ${rejection.message}` : rejection.message,
    },
  };
};

export const quickCoverage = defineOperation({
  name: 'quickCoverage',
  kind: 'query',
  description:
    'Quick yes/no coverage check for activation at a ZIP code: covered, and a message stating whether activation is eligible',
  rest: { method: 'GET', path: '/sim/coverage/quick/{zip_code}' },
  input: z.object({ zipCode }),
  output: quickCoverageResult,
  rateLimit: { max: 60, window: 'minute' },
  routing: 'default',
  coalesce: true,
  handle: async ({ carrier, input }) => {
    const coverage = await carrier.getCoverage(input.zipCode);
    if (!coverage.covered) return notEligible(input.zipCode, NOT_COVERED);
    return answered({ zipCode: input.zipCode, covered: true }, 'Activation eligible: true');
  },
  onRejection: (rejection, { input }) => notEligible(input.zipCode, rejection),
});
