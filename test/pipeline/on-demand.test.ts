// An on-demand member of an answer (src/pipeline/on-demand.ts) is loaded only when read, once
// however often it is read, and a failed load fails the reads, not the answer that holds it.

import { describe, expect, it } from 'vitest';
import { onDemand, valueOf } from '../../src/pipeline/on-demand.js';

describe('onDemand', () => {
  it('loads nothing until read, then once for every read', async () => {
    let loads = 0;
    const member = onDemand(async () => ++loads);
    expect(loads).toBe(0);
    expect(await Promise.all([valueOf(member), valueOf(member), valueOf(member)])).toEqual([1, 1, 1]);
    expect(loads).toBe(1);
  });

  it('passes ordinary members through as they are', () => {
    for (const member of [null, undefined, 0, 'text', [1], { a: 1 }]) expect(valueOf(member)).toBe(member);
  });

  it('rejects each read when the load fails, without throwing where the answer is built', async () => {
    const member = onDemand<number>(() => Promise.reject(new Error('database down')));
    await expect(valueOf(member)).rejects.toThrow('database down');
    await expect(valueOf(member)).rejects.toThrow('database down');
  });
});
