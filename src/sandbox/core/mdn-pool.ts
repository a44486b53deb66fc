// Each carrier's pool of numbers: its six-digit prefix and four sequential digits, handed
// out in order and never reused, so MDNs are predictable within a test.

import { reject } from './rejections.js';
import type { CoreContext } from './state.js';
import { MDN_PREFIXES } from './test-values.js';

/** Numbers xxxx0001 to xxxx9999. */
export const DEFAULT_MDN_POOL_SIZE = 9999;

export function takeMdn(ctx: CoreContext): string {
  const counters = ctx.state.counters;
  if (counters.mdn >= ctx.mdnPoolSize) reject('GENS-0011');
  counters.mdn += 1;
  return `${MDN_PREFIXES[ctx.carrier]}${String(counters.mdn).padStart(4, '0')}`;
}
