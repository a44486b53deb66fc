// GET /sim/coverage/{zip_code}: network coverage areas at a ZIP code. An uncovered or invalid
// ZIP is an answer, not an error: HTTP 200 with covered false, status failure, no areas.

import { z } from 'zod';
import { CarrierRejection } from '../../carriers/errors.js';
import { defineOperation } from '../define.js';
import { answered, refused } from '../../pipeline/envelopes.js';
import { operationStatus } from '../schemas/envelope.js';
import { zipCode } from '../schemas/fields.js';

/** The carrier's word for a valid ZIP it does not cover (it answers `covered: false`, no code). */
export const NOT_COVERED = new CarrierRejection('GENS-0289', 'Service is not available in this zip code');
/** Codes that mean "this ZIP cannot be served": invalid (510) or not covered (GENS-0289). */
export const UNSERVED_ZIP_CODES: ReadonlySet<string> = new Set(['510', 'GENS-0289']);

export const coverageArea = z
  .object({
    city: z.string().describe('City'),
    state: z.string().describe('2-letter US state code'),
    zipCode: z.string().describe('5-digit ZIP code'),
    quality: z.string().describe('Coverage quality (e.g. EXCELLENT, GOOD, FAIR)'),
  })
  .meta({ id: 'CoverageArea', description: 'One area covered at a ZIP code' });

export const coverageResult = z
  .object({
    zipCode: z.string().describe('The ZIP code asked about'),
    covered: z.boolean().describe('Whether the network covers the ZIP code'),
    status: operationStatus,
    areas: z.array(coverageArea).describe('Covered areas; empty when not covered'),
    message: z
      .string()
      .describe('Success, or why the ZIP is not served, ending with the code (510 invalid, GENS-0289 not covered)'),
  })
  .meta({
    id: 'CoverageResult',
    description:
      'Network coverage at a ZIP code; status is failure (still HTTP 200) when the ZIP is not covered or invalid',
  });

const uncovered = (zip: string, rejection: CarrierRejection) => ({
  ...refused(rejection, { zipCode: zip, covered: false, areas: [] }),
  // Only an unserved ZIP is the spec's 200 answer; any other refusal is a carrier failure (400).
  status: UNSERVED_ZIP_CODES.has(rejection.code) ? 200 : 400,
});

export const coverage = defineOperation({
  name: 'coverage',
  kind: 'query',
  description:
    'Network coverage at a ZIP code with its covered areas. An uncovered or invalid ZIP answers covered false, status failure and no areas (HTTP 200)',
  rest: { method: 'GET', path: '/sim/coverage/{zip_code}' },
  input: z.object({ zipCode }),
  output: coverageResult,
  rateLimit: { max: 60, window: 'minute' },
  routing: 'default',
  coalesce: true,
  handle: async ({ carrier, input }) => {
    const answer = await carrier.getCoverage(input.zipCode);
    if (!answer.covered) return uncovered(input.zipCode, NOT_COVERED);
    return answered({ zipCode: input.zipCode, covered: true, areas: answer.areas });
  },
  onRejection: (rejection, { input }) => uncovered(input.zipCode, rejection),
});
