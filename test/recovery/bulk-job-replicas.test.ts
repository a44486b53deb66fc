// Two replicas on one PostgreSQL database never both run a bulk activation job: the one holding
// its lease runs it while the other's sweeps (and direct attempts) find it taken; when the first
// stops, it frees the lease after its current SIM and the second finishes the job. Each SIM
// reaches the carrier once. Skipped with a printed reason when PostgreSQL is absent.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, startReplica, type TestGateway } from '../support/gateway.js';
import { eventually } from '../support/eventually.js';
import { postgresAvailable } from '../support/postgres.js';
import { createPlans } from '../support/plans.js';
import { camelInput } from '../support/surfaces.js';
import { activationBody } from '../e2e/activation/activations.js';
import { sandboxEnv, setFaults } from './support.js';

let available = false;
let first: TestGateway | undefined;
let second: TestGateway | undefined;

beforeAll(async () => {
  available = await postgresAvailable();
  if (!available) return;
  // A short lease: each replica sweeps for free jobs every 600 ms, and the holder renews every 200 ms.
  const env = { BULK_JOB_LEASE_MS: '600' };
  first = await startGateway({ database: 'postgresql', env });
  second = await startReplica(first, { ...env, ...sandboxEnv(first) });
  await createPlans(first);
}, 60_000);
afterAll(async () => {
  await second?.close();
  await first?.close();
});

async function startJob(gateway: TestGateway, token: string, items: Record<string, unknown>[]): Promise<string> {
  const answer = await gateway.graphql<{ startBulkActivation: { id: string } }>(
    'mutation ($input: StartBulkActivationInput!) { startBulkActivation(input: $input) { id } }',
    { token, variables: { input: { activations: items.map(camelInput) } } },
  );
  expect(answer.errors).toBeUndefined();
  return answer.data!.startBulkActivation.id;
}

async function completed(gateway: TestGateway, id: string): Promise<boolean> {
  return eventually(
    async () => (await gateway.app.services.db.bulkActivationJob.findUnique({ where: { id } }))?.status === 'completed',
    60_000,
    50,
  );
}

function expectEachSimSentOnce(gateway: TestGateway, items: Record<string, unknown>[]): void {
  const core = gateway.sandboxes.cores['321'];
  for (const item of items) expect(core.activationCalls(String(item.sim)).requests, String(item.sim)).toBe(1);
}

describe('a bulk activation job on two replicas sharing PostgreSQL', () => {
  it('runs on the replica holding its lease only', async (context) => {
    if (!available) return context.skip('PostgreSQL is not available');
    const a = first!;
    const b = second!;
    const { token } = await a.user({ plans: ['BASIC'] });
    const items = Array.from({ length: 30 }, () => activationBody());
    await setFaults(a, '321', { latency_ms: 20 });
    try {
      const id = await startJob(a, token, items);
      // The other replica tries too, over and over, while its sweeps run.
      const attempts = Array.from({ length: 10 }, (_, index) =>
        new Promise((resolve) => setTimeout(resolve, index * 50)).then(() => b.app.services.bulkJobs.runHere(id)),
      );
      await Promise.all(attempts);
      expect(await completed(a, id)).toBe(true);
      expectEachSimSentOnce(a, items);
      const job = await a.app.services.db.bulkActivationJob.findUnique({ where: { id } });
      expect(job).toMatchObject({ processed: 30, succeeded: 30, leaseOwner: null });
    } finally {
      await setFaults(a, '321', { latency_ms: 0 });
    }
  });

  it('is taken over by the other replica when the first stops', async (context) => {
    if (!available) return context.skip('PostgreSQL is not available');
    const a = first!;
    const b = second!;
    const { token } = await a.user({ plans: ['BASIC'] });
    // Long enough at the default concurrency (16 SIMs in flight) for the first replica to stop mid-way.
    const items = Array.from({ length: 80 }, () => activationBody());
    await setFaults(a, '321', { latency_ms: 50 });
    try {
      const id = await startJob(a, token, items);
      const db = a.app.services.db;
      expect(
        await eventually(
          async () => ((await db.bulkActivationJob.findUnique({ where: { id } }))?.processed ?? 0) > 0,
          30_000,
          20,
        ),
      ).toBe(true);
      // The first replica stops running jobs (as at shutdown): it finishes its SIM and frees the lease.
      await a.app.services.bulkJobs.stop();
      const handedOver = await db.bulkActivationJob.findUnique({ where: { id } });
      expect(handedOver?.processed).toBeLessThan(items.length);
      expect(await completed(b, id)).toBe(true);
      expectEachSimSentOnce(a, items);
      expect(await db.bulkActivationJob.findUnique({ where: { id } })).toMatchObject({
        processed: items.length,
        succeeded: items.length,
      });
    } finally {
      await setFaults(a, '321', { latency_ms: 0 });
    }
  });
});
