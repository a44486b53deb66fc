// What recovery holds back is visible. A line's lost writes are re-sent oldest first, so an older
// write that can never be re-sent (here: its user no longer exists) keeps the line's later lost
// write waiting. After a sweep, the gauges count it, a warning names the older write (once, not
// at every sweep), and `recovery waiting` lists it with the write behind it; once the operator
// gives the older write back what it lacked, the next sweep re-sends both, in order, and the
// gauges, the listing and the warning clear.
//
// Recovery runs only when the test says (the writing gateway's reconciler is stopped; a replica
// on its database and sandbox carriers sweeps). The waits are made long by dating the rows back,
// not by waiting: the warning threshold is the default RECOVERY_WAIT_WARN_MS (10 minutes).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/logger.js';
import type { Metrics } from '../../src/metrics.js';
import { startGateway, startReplica, type TestGateway } from '../support/gateway.js';
import { eventually } from '../support/eventually.js';
import { seedLine } from '../support/lines.js';
import { postgresAvailable } from '../support/postgres.js';
import { lostWrite, runAdmin, sandboxEnv } from './support.js';

const MINUTE = 60_000;
const DATABASES: ('sqlite' | 'postgresql')[] = (await postgresAvailable()) ? ['sqlite', 'postgresql'] : ['sqlite'];
const WARNING = 'lost writes wait behind an older unresolved write on their line';
const CLEARED = 'no lost write waits behind this write any more';

interface LogEntry {
  level: string;
  message: string;
  transactionId?: string;
  [field: string]: unknown;
}

const gauge = async (metric: Metrics['recoveryWaitingWrites']) => (await metric.get()).values[0]?.value;

describe.each(DATABASES)('on %s', (database) => {
  let gateway: TestGateway;
  let replica: TestGateway;
  const log: LogEntry[] = [];

  beforeAll(async () => {
    gateway = await startGateway({
      database,
      env: { CARRIER_TIMEOUT_MS: '300', CARRIER_RETRIES: '0', RECOVERY_SWEEP_MS: '3600000' },
    });
    await gateway.app.services.recovery.stop();
    replica = await startReplica(
      gateway,
      { ...sandboxEnv(gateway), CARRIER_RETRIES: '0', RECOVERY_SWEEP_MS: '3600000', LOG_LEVEL: 'info' },
      { logger: createLogger('info', (line) => log.push(JSON.parse(line) as LogEntry)) },
    );
  }, 60_000);
  afterAll(async () => {
    await replica?.close();
    await gateway?.close();
  });

  const db = () => gateway.app.services.db;
  const row = (id: string) => gateway.app.services.transactions.find(id);
  const warnings = (id: string) => log.filter((entry) => entry.message === WARNING && entry.transactionId === id);
  const waitingNow = async () => {
    const { code, stdout, stderr } = await runAdmin(gateway, ['recovery', 'waiting']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    return JSON.parse(stdout) as {
      waiting: number;
      blocking: number;
      blockingWrites: {
        transactionId: string;
        operation: string;
        status: string;
        waiting: number;
        waitingSince: string;
      }[];
    };
  };

  it('counts, warns of and lists a write held back by an older one that cannot be re-sent, and clears once it is', async () => {
    const { user, token } = await gateway.user();
    const line = await seedLine(gateway);
    const stamp = Date.now();
    const suspend = `W-SUS-${stamp}`;
    const restore = `W-RES-${stamp}`;
    await lostWrite(gateway, token, '/sim/suspend/', { mdn: line.mdn, transaction_id: suspend });
    await lostWrite(gateway, token, '/sim/restore/', { mdn: line.mdn, transaction_id: restore });
    // Lost half an hour and twenty minutes ago; the suspend's user is gone since (re-sending it
    // needs the user), so it can never be re-sent as it is.
    await db().transaction.update({
      where: { id: suspend },
      data: { userId: `deleted-${stamp}`, createdAt: new Date(stamp - 30 * MINUTE) },
    });
    await db().transaction.update({ where: { id: restore }, data: { createdAt: new Date(stamp - 20 * MINUTE) } });
    const { metrics } = replica.app.services;

    await replica.app.services.recovery.sweep();

    // The suspend was tried (and backs off), the restore waits behind it, unclaimed.
    expect(await row(suspend)).toMatchObject({ status: 'unknown', attempts: 1 });
    expect(await row(restore)).toMatchObject({ status: 'unknown', attempts: 0 });
    expect(await gauge(metrics.recoveryWaitingWrites)).toBe(1);
    expect(await gauge(metrics.recoveryOldestWait)).toBeGreaterThanOrEqual(20 * 60);
    expect(warnings(suspend)).toEqual([
      expect.objectContaining({
        level: 'warn',
        operation: 'suspendLine',
        status: 'unknown',
        waitingWrites: 1,
        waitedMs: expect.any(Number),
        ageMs: expect.any(Number),
      }),
    ]);
    expect(warnings(suspend)[0]!.waitedMs).toBeGreaterThanOrEqual(20 * MINUTE);
    expect(warnings(suspend)[0]!.ageMs).toBeGreaterThanOrEqual(30 * MINUTE);
    // Nothing of the line or the user in the line.
    expect(JSON.stringify(warnings(suspend))).not.toContain(line.mdn);
    expect(JSON.stringify(warnings(suspend))).not.toContain(user.id);

    const listed = await waitingNow();
    expect(listed).toMatchObject({ waiting: 1, blocking: 1 });
    expect(listed.blockingWrites).toEqual([
      expect.objectContaining({ transactionId: suspend, operation: 'suspendLine', status: 'unknown', waiting: 1 }),
    ]);
    expect(new Date(listed.blockingWrites[0]!.waitingSince).getTime()).toBe(stamp - 20 * MINUTE);

    // The next sweep finds the same wait: counted again, not warned of again.
    await replica.app.services.recovery.sweep();
    expect(await gauge(metrics.recoveryWaitingWrites)).toBe(1);
    expect(warnings(suspend)).toHaveLength(1);

    // The operator gives the suspend its user back. Its own retry (made due here rather than
    // after its backoff) re-sends it, then the restore it wakes; the next sweep counts again.
    await db().transaction.update({ where: { id: suspend }, data: { userId: user.id, leaseUntil: null } });
    replica.app.services.recovery.resolveSoon(suspend);
    expect(await eventually(async () => (await row(restore))?.status === 'success', 20_000, 20)).toBe(true);
    await replica.app.services.recovery.sweep();

    expect(await row(suspend)).toMatchObject({ status: 'success', resolvedAt: expect.any(Date) });
    expect(await row(restore)).toMatchObject({ status: 'success', resolvedAt: expect.any(Date) });
    expect(await gauge(metrics.recoveryWaitingWrites)).toBe(0);
    expect(await gauge(metrics.recoveryOldestWait)).toBe(0);
    expect(log.filter((entry) => entry.message === CLEARED && entry.transactionId === suspend)).toHaveLength(1);
    expect(await waitingNow()).toEqual({ waiting: 0, blocking: 0, blockingWrites: [] });
  });
});
