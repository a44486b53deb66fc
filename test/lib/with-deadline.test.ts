// withDeadline: the fallback once the time has passed, the attempt's value before, and an
// infinite deadline that never fires (a Node timer beyond 2^31 - 1 ms would fire after 1 ms).

import { describe, expect, it } from 'vitest';
import { withDeadline } from '../../src/lib/with-deadline.js';

const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('withDeadline', () => {
  it('answers the attempt when it settles first, and the fallback when the time passes first', async () => {
    expect(await withDeadline(after(5, 'done'), 1_000, 'late')).toBe('done');
    expect(await withDeadline(after(1_000, 'done'), 5, 'late')).toBe('late');
  });

  it('waits for the attempt when the deadline is infinite or beyond a timer’s range', async () => {
    expect(await withDeadline(after(20, 'done'), Number.POSITIVE_INFINITY, 'late')).toBe('done');
    expect(await withDeadline(after(20, 'done'), 2 ** 32, 'late')).toBe('done');
  });
});
