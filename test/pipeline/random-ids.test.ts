// Transaction and event ids drawn from the pooled random source: their form, no repeats across
// many pool refills, and hex drawn across a refill boundary.

import { describe, expect, it } from 'vitest';
import { randomHex } from '../../src/lib/random-hex.js';
import { newEventId } from '../../src/pipeline/line-events.js';
import { generateTransactionId } from '../../src/pipeline/transaction-log.js';

describe('random ids', () => {
  it('keep their forms', () => {
    expect(generateTransactionId('SUSP_')).toMatch(/^SUSP_[0-9A-F]{12}$/);
    expect(newEventId()).toMatch(/^evt_[0-9a-f]{24}$/);
    expect(randomHex(1)).toMatch(/^[0-9a-f]{2}$/);
  });

  it('do not repeat over many refills of the pool, whatever the sizes drawn', () => {
    const seen = new Set<string>();
    // 20,000 draws of 6 and 12 bytes: ~180 KB, ~44 refills of the 4 KiB pool, some draws across its end.
    for (let i = 0; i < 10_000; i++) {
      seen.add(generateTransactionId('T'));
      seen.add(newEventId());
    }
    expect(seen.size).toBe(20_000);
  });

  it('refuses more bytes than the pool holds', () => {
    expect(() => randomHex(4097)).toThrow(RangeError);
    expect(randomHex(4096)).toHaveLength(8192);
  });
});
