// Each carrier's pool of numbers: its six-digit prefix and four sequential digits, handed
// out in order and never reused, so MDNs are predictable within a test. A pool larger than one
// exchange's 9,999 numbers continues in the next exchange (321556…, then 321557…).

import { reject } from './rejections.js';
import type { CoreContext } from './state.js';
import { MDN_PREFIXES } from './test-values.js';

/** Numbers xxx5550001 to xxx5559999: one exchange, and the default pool. */
export const DEFAULT_MDN_POOL_SIZE = 9999;
/** A larger pool (load tests with many lines) goes on into the next exchanges, 556 to 564. */
export const MAX_MDN_POOL_SIZE = 10 * DEFAULT_MDN_POOL_SIZE;

export function takeMdn(ctx: CoreContext): string {
  const counters = ctx.state.counters;
  if (counters.mdn >= ctx.mdnPoolSize) reject('GENS-0011');
  const taken = counters.mdn;
  counters.mdn += 1;
  const prefix = MDN_PREFIXES[ctx.carrier];
  const exchange = Number(prefix.slice(3)) + Math.floor(taken / DEFAULT_MDN_POOL_SIZE);
  const line = (taken % DEFAULT_MDN_POOL_SIZE) + 1;
  return `${prefix.slice(0, 3)}${exchange}${String(line).padStart(4, '0')}`;
}
