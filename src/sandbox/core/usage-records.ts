// Raw usage records: activation and every later activity on a line leave deterministic
// VOICE / SMS / DATA records stamped with the sandbox clock. They explain usage; they do not
// draw balances down (balances move only by plan grants and adjustments).

import type { UsageEvent } from '../../carriers/types.js';
import { between, digitsFrom } from './hash.js';
import type { CoreContext, LineRecord } from './state.js';
import { carrierTimestamp } from './time-format.js';

const KINDS = ['VOICE', 'SMS', 'DATA'] as const;

/** Records kept per line (the most recent), so a busy sandbox does not grow without bound. */
export const USAGE_RECORDS_KEPT = 500;

export function recordActivity(ctx: CoreContext, line: LineRecord, count = 1): void {
  const timestamp = carrierTimestamp(ctx.clock.now());
  for (let i = 0; i < count; i++) {
    const sequence = ctx.state.counters.usage++;
    const seed = `${line.mdn}:${sequence}`;
    line.usage.push(usageEvent(KINDS[sequence % KINDS.length]!, seed, timestamp));
  }
  if (line.usage.length > USAGE_RECORDS_KEPT) line.usage.splice(0, line.usage.length - USAGE_RECORDS_KEPT);
}

function usageEvent(kind: (typeof KINDS)[number], seed: string, timestamp: string): UsageEvent {
  const destination = `212555${digitsFrom(seed, 4)}`;
  switch (kind) {
    case 'VOICE':
      return { type: 'VOICE', duration: between(30, 1200, seed), timestamp, destination };
    case 'SMS':
      return { type: 'SMS', count: between(1, 5, seed), timestamp, destination };
    case 'DATA':
      return { type: 'DATA', bytesUsed: between(100, 50_000, seed) * 1024, timestamp };
  }
}
