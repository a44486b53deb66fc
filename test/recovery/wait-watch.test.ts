// The warning of writes held back on their line, on its own: when it is given, how often it is
// repeated, and when an older write is forgotten. The waits are what RecoveryLeases.waits would
// answer (test/recovery/waiting.test.ts runs the real statement on SQLite and PostgreSQL); the
// clock is Date, faked.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/lib/logger.js';
import { Metrics } from '../../src/metrics.js';
import type { RecoveryLeases } from '../../src/recovery/leases.js';
import type { BlockingWrite, Waits } from '../../src/recovery/wait-count.js';
import { WAITS_LISTED, WaitWatch } from '../../src/recovery/waits.js';

const START = 1_800_000_000_000;
const MINUTE = 60_000;
const WARN_AFTER = 10 * MINUTE;
const RULES = { pendingBefore: new Date(0) };

const blocking = (id: string, waitedMs: number, waiting = 1): BlockingWrite => ({
  id,
  operation: 'suspendLine',
  status: 'unknown',
  userId: 'u1',
  carrier: '321',
  attempts: 7,
  createdAt: new Date(Date.now() - waitedMs - MINUTE),
  retryAt: null,
  waiting,
  waitingSince: new Date(Date.now() - waitedMs),
});

let answer: Waits;
let log: { level: string; message: string; transactionId?: string; waitingWrites?: number }[];
let metrics: Metrics;
let watch: WaitWatch;

const waitsOf = (rows: BlockingWrite[]): Waits => ({
  waiting: rows.reduce((sum, row) => sum + row.waiting, 0),
  blocking: rows.length,
  rows,
});
const observe = () =>
  watch.observe(RULES, { metrics, logger: createLogger('info', (line) => log.push(JSON.parse(line))) });
const warned = () => log.filter((entry) => entry.level === 'warn').map((entry) => entry.transactionId);
const cleared = () => log.filter((entry) => entry.level === 'info').map((entry) => entry.transactionId);
const value = async (metric: Metrics['recoveryWaitingWrites']) => (await metric.get()).values[0]?.value;

beforeEach(() => {
  vi.useFakeTimers({ now: START, toFake: ['Date'] });
  log = [];
  metrics = new Metrics({ defaultMetrics: false });
  const leases = { waits: () => Promise.resolve(answer) } as unknown as RecoveryLeases;
  watch = new WaitWatch(leases, WARN_AFTER);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the warning of writes waiting on their line', () => {
  it('counts a short wait without a warning', async () => {
    answer = waitsOf([blocking('A', 9 * MINUTE, 3)]);
    await observe();
    expect(await value(metrics.recoveryWaitingWrites)).toBe(3);
    expect(await value(metrics.recoveryOldestWait)).toBe(9 * 60);
    expect(log).toEqual([]);
  });

  it('warns once the wait passes the threshold, then once per interval while it lasts', async () => {
    answer = waitsOf([blocking('A', WARN_AFTER, 2)]);
    await observe();
    expect(warned()).toEqual(['A']);
    expect(log[0]).toMatchObject({ waitingWrites: 2 });

    vi.setSystemTime(START + WARN_AFTER - 1);
    await observe();
    expect(warned()).toEqual(['A']);

    vi.setSystemTime(START + WARN_AFTER);
    await observe();
    expect(warned()).toEqual(['A', 'A']);
  });

  it('warns of each older write on its own', async () => {
    answer = waitsOf([blocking('A', 30 * MINUTE), blocking('B', 20 * MINUTE)]);
    await observe();
    expect(warned()).toEqual(['A', 'B']);
    expect(await value(metrics.recoveryOldestWait)).toBe(30 * 60);
  });

  it('says when nothing waits behind a write warned of any more, and warns again if something does', async () => {
    answer = waitsOf([blocking('A', 20 * MINUTE), blocking('B', 15 * MINUTE)]);
    await observe();
    answer = waitsOf([blocking('B', 15 * MINUTE)]);
    await observe();
    expect(cleared()).toEqual(['A']);
    answer = waitsOf([]);
    await observe();
    expect(cleared()).toEqual(['A', 'B']);
    expect(await value(metrics.recoveryWaitingWrites)).toBe(0);
    expect(await value(metrics.recoveryOldestWait)).toBe(0);

    answer = waitsOf([blocking('A', 20 * MINUTE)]);
    await observe();
    expect(warned()).toEqual(['A', 'B', 'A']);
  });

  it('logs a failed count and keeps the last values', async () => {
    answer = waitsOf([blocking('A', 5 * MINUTE, 4)]);
    await observe();
    answer = Promise.reject(new Error('no such table')) as unknown as Waits;
    watch = new WaitWatch({ waits: () => answer } as unknown as RecoveryLeases, WARN_AFTER);
    await observe();
    expect(log).toEqual([
      expect.objectContaining({
        level: 'error',
        message: 'transaction recovery could not count the writes waiting on their line',
      }),
    ]);
    expect(await value(metrics.recoveryWaitingWrites)).toBe(4);
  });

  it('forgets no write warned of while the list is cut short: it may be beyond it', async () => {
    answer = waitsOf([blocking('A', 20 * MINUTE)]);
    await observe();
    answer = waitsOf(Array.from({ length: WAITS_LISTED }, (_, index) => blocking(`X${index}`, 30 * MINUTE)));
    await observe();
    expect(cleared()).toEqual([]);
  });
});
