// The plan catalogue. Catalogue SOCs have fixed names and allowances; any other code (except
// INVALID…) is an active plan too, with a name and allowances derived from the code.

import { pick } from './hash.js';
import { reject } from './rejections.js';
import type { Allowance } from './state.js';
import { isInvalidPlanCode } from './test-values.js';

export interface PlanDefinition {
  soc: string;
  name: string;
  allowance: Allowance;
}

const GIB = 1024 ** 3;
const minutes = (count: number): number => count * 60;

export const PLAN_CATALOGUE: readonly PlanDefinition[] = [
  { soc: 'BASIC1GB', name: 'Basic 1GB', allowance: { talkSeconds: minutes(500), texts: 1000, dataBytes: GIB } },
  { soc: 'PLUS5GB', name: 'Plus 5GB', allowance: { talkSeconds: minutes(1000), texts: 5000, dataBytes: 5 * GIB } },
  {
    soc: 'UNL10GB',
    name: 'Unlimited Talk & Text 10GB',
    allowance: { talkSeconds: minutes(10_000), texts: 10_000, dataBytes: 10 * GIB },
  },
  {
    soc: 'UNLWFC',
    name: 'Unlimited with Wi-Fi Calling',
    allowance: { talkSeconds: minutes(10_000), texts: 10_000, dataBytes: 20 * GIB },
  },
  { soc: 'TOPUP1GB', name: '1GB Data Top-Up', allowance: { talkSeconds: 0, texts: 0, dataBytes: GIB } },
  {
    soc: 'INTL100',
    name: 'International 100 Minutes',
    allowance: { talkSeconds: minutes(100), texts: 0, dataBytes: 0 },
  },
];

const DERIVED_ALLOWANCES: readonly Allowance[] = [
  { talkSeconds: minutes(500), texts: 1000, dataBytes: GIB },
  { talkSeconds: minutes(1000), texts: 5000, dataBytes: 2 * GIB },
  { talkSeconds: minutes(2000), texts: 5000, dataBytes: 5 * GIB },
];

/** The active plan behind `code`, or 906 when the code is invalid or inactive. */
export function requirePlan(code: string): PlanDefinition {
  if (isInvalidPlanCode(code)) reject('906');
  const known = PLAN_CATALOGUE.find((plan) => plan.soc === code);
  if (known) return { ...known, allowance: { ...known.allowance } };
  return { soc: code, name: `Plan ${code}`, allowance: { ...pick(DERIVED_ALLOWANCES, code) } };
}
