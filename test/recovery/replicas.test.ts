// Two replicas on one PostgreSQL database never work on the same unresolved row: each row is
// claimed by exactly one of them (a conditional UPDATE of its lease), re-sent once and resolved
// once, however their sweeps overlap. Skipped with a printed reason when PostgreSQL is absent.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { postgresAvailable } from '../support/postgres.js';
import { createPlans } from '../support/plans.js';
import { startReplica } from '../support/gateway.js';
import { pendingActivation, sandboxEnv } from './support.js';

const ROWS = 24;

let available = false;
let first: TestGateway | undefined;
let second: TestGateway | undefined;

beforeAll(async () => {
  available = await postgresAvailable();
  if (!available) return;
  // Long sweep periods: the test drives the sweeps itself, all at once.
  const env = { RECOVERY_SWEEP_MS: '3600000' };
  first = await startGateway({ database: 'postgresql', env });
  second = await startReplica(first, { ...env, ...sandboxEnv(first) });
  await createPlans(first);
}, 60_000);
afterAll(async () => {
  await second?.close();
  await first?.close();
});

describe('two replicas on PostgreSQL', () => {
  it('resolve each of many unknown rows exactly once between them', async (context) => {
    if (!available) return context.skip('PostgreSQL is not available');
    const a = first!;
    const b = second!;
    const { user } = await a.user({ plans: ['A321'] });
    const stamp = Date.now();
    const ids = Array.from({ length: ROWS }, (_, index) => `REPLICA-${stamp}-${index}`);
    for (const id of ids) await pendingActivation(a, user.id, id, 'A321', { minutesAgo: 0, status: 'unknown' });

    const before = { a: await recovered(a), b: await recovered(b) };
    // Both replicas sweep the same rows at the same moment, twice over.
    await Promise.all([
      a.app.services.recovery.sweep(),
      b.app.services.recovery.sweep(),
      a.app.services.recovery.sweep(),
      b.app.services.recovery.sweep(),
    ]);
    await Promise.all([a.app.services.recovery.sweep(), b.app.services.recovery.sweep()]);

    const rows = await Promise.all(ids.map((id) => a.app.services.transactions.find(id)));
    expect(rows.map((row) => row?.status)).toEqual(ids.map(() => 'success'));
    // One claim per row: a second claimant would have counted a second attempt.
    expect(rows.map((row) => row?.attempts)).toEqual(ids.map(() => 1));
    const byA = (await recovered(a)) - before.a;
    const byB = (await recovered(b)) - before.b;
    expect(byA + byB).toBe(ROWS);
    // Every activation happened once at the carrier: ROWS distinct numbers.
    const mdns = rows.map((row) => (row!.response as { mdn: string }).mdn);
    expect(new Set(mdns).size).toBe(ROWS);
    process.stdout.write(`two replicas resolved ${ROWS} rows: ${byA} by the first, ${byB} by the second\n`);
  });
});

async function recovered(gateway: TestGateway): Promise<number> {
  const metric = await gateway.app.services.metrics.recoveries.get();
  return metric.values
    .filter((value) => value.labels.outcome === 'success')
    .reduce((sum, value) => sum + value.value, 0);
}
