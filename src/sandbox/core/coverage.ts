// Coverage and number groups by ZIP: 00000 (or a malformed ZIP) is invalid, 99999 is valid but
// uncovered, and any other ZIP is covered by one to three areas that follow from its digits.

import type { CarrierId, Coverage, CoverageArea, NumberGroups } from '../../carriers/types.js';
import { between, pick } from './hash.js';
import { reject } from './rejections.js';
import { classifyZip, MDN_PREFIXES } from './test-values.js';

const PLACES: readonly { city: string; state: string }[] = [
  { city: 'New York', state: 'NY' },
  { city: 'Los Angeles', state: 'CA' },
  { city: 'Chicago', state: 'IL' },
  { city: 'Houston', state: 'TX' },
  { city: 'Phoenix', state: 'AZ' },
  { city: 'Miami', state: 'FL' },
  { city: 'Seattle', state: 'WA' },
  { city: 'Denver', state: 'CO' },
];

const QUALITIES = ['EXCELLENT', 'GOOD', 'FAIR'] as const;

function areasFor(zip5: string): CoverageArea[] {
  const count = between(1, 3, `${zip5}:areas`);
  return Array.from({ length: count }, (_, i) => ({
    ...pick(PLACES, `${zip5}:place:${i}`),
    zipCode: zip5,
    quality: pick(QUALITIES, `${zip5}:quality:${i}`),
  }));
}

/** 510 for an invalid ZIP; an uncovered one is `covered: false` with no areas. */
export function coverageFor(zipCode: string): Coverage {
  const kind = classifyZip(zipCode);
  if (kind === 'invalid') reject('510');
  if (kind === 'uncovered') return { zipCode, covered: false, areas: [] };
  return { zipCode, covered: true, areas: areasFor(zipCode.slice(0, 5)) };
}

/** For operations that put a line in service at a ZIP: 510 invalid, GENS-0289 not covered. */
export function requireCoveredZip(zipCode: string): void {
  const kind = classifyZip(zipCode);
  if (kind === 'invalid') reject('510');
  if (kind === 'uncovered') reject('GENS-0289');
}

export function numberGroupsFor(carrier: CarrierId, zipCode: string): NumberGroups {
  const coverage = coverageFor(zipCode);
  const npa = MDN_PREFIXES[carrier].slice(0, 3);
  return {
    zipCode,
    groups: coverage.areas.map((area, i) => ({
      npa,
      nxx: String(between(200, 999, `${zipCode}:nxx:${i}`)),
      city: area.city,
      state: area.state,
      available: between(10, 500, `${zipCode}:available:${i}`),
    })),
  };
}
