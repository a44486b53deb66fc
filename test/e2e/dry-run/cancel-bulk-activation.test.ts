// The dry run of cancelBulkActivation: the job as the call would leave it (a running job flagged
// and still RUNNING, one nobody runs CANCELLED at once, a finished one as it is), the same
// refusal as the call for a job that is not the caller's, and nothing changed.

import { beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { createPlans } from '../../support/plans.js';
import { camelInput } from '../../support/surfaces.js';
import { useGateway } from '../../support/use-gateway.js';
import { setFaults } from '../../recovery/support.js';
import { activationBody } from '../activation/activations.js';

const gateway = useGateway();
let token: string;
beforeAll(async () => {
  await createPlans(gateway);
  ({ token } = await gateway.user({ plans: ['BASIC'] }));
});

interface Job {
  id: string;
  status: string;
  processed: number;
  finishedAt: string | null;
  results: { sim: string }[];
  dryRun: {
    wouldSucceed: boolean;
    checks: { name: string; outcome: string; detail: string }[];
    unpredictable: string[];
  } | null;
}

const FIELDS = `id status processed finishedAt results { sim }
  dryRun { wouldSucceed checks { name outcome detail } unpredictable }`;

async function start(items: Record<string, unknown>[]): Promise<string> {
  const started = await gateway.graphql<{ startBulkActivation: { id: string } }>(
    'mutation ($input: StartBulkActivationInput!) { startBulkActivation(input: $input) { id } }',
    { token, variables: { input: { activations: items.map(camelInput) } } },
  );
  return started.data!.startBulkActivation.id;
}

const cancel = (id: string, dryRun: boolean, caller = token) =>
  gateway.graphql<{ cancelBulkActivation: Job | null }>(
    `mutation ($id: String!, $dryRun: Boolean) { cancelBulkActivation(input: { id: $id, dryRun: $dryRun }) { ${FIELDS} } }`,
    { token: caller, variables: { id, dryRun } },
  );

const row = (id: string) => gateway.app.services.db.bulkActivationJob.findUniqueOrThrow({ where: { id } });

const statusOf = async (id: string) =>
  (
    await gateway.graphql<{ bulkActivation: { status: string } }>(
      'query ($id: String!) { bulkActivation(id: $id) { status } }',
      { token, variables: { id } },
    )
  ).data!.bulkActivation.status;

describe('cancelBulkActivation dry run', () => {
  it('of a running job: still RUNNING, nothing flagged, and the job runs to its end', async () => {
    // ~0.5 s at the carrier (16 SIMs in flight): the dry run lands while the job runs.
    const items = Array.from({ length: 160 }, () => activationBody());
    await setFaults(gateway, '321', { latency_ms: 50 });
    try {
      const id = await start(items);
      expect(await eventually(async () => (await row(id)).processed >= 1, 30_000)).toBe(true);
      const dry = await cancel(id, true);
      expect(dry.errors).toBeUndefined();
      const job = dry.data!.cancelBulkActivation!;
      expect(job).toMatchObject({ id, status: 'RUNNING', finishedAt: null });
      expect(job.dryRun?.wouldSucceed).toBe(true);
      expect(job.dryRun?.checks.find((check) => check.name === 'jobStatus')).toMatchObject({
        outcome: 'PASSED',
        detail: expect.stringMatching(/stop before its next SIM/),
      });
      expect(job.dryRun?.unpredictable.join(' ')).toMatch(/How many more SIMs/);
      expect((await row(id)).cancelRequested).toBe(false);
      expect(await eventually(async () => (await statusOf(id)) === 'COMPLETED', 30_000)).toBe(true);
      expect((await row(id)).processed).toBe(items.length);
    } finally {
      await setFaults(gateway, '321', { latency_ms: 0 });
    }
  });

  it('of a job nobody runs: CANCELLED at once in the answer, and the stored job untouched', async () => {
    const id = await start([activationBody()]);
    expect(await eventually(async () => (await statusOf(id)) === 'COMPLETED', 30_000)).toBe(true);
    // As a crash leaves it: unfinished, its replica's lease long expired.
    const { db } = gateway.app.services;
    await db.bulkActivationJob.update({
      where: { id },
      data: { status: 'running', finishedAt: null, leaseUntil: new Date(Date.now() - 60_000) },
    });
    try {
      const before = await row(id);
      const job = (await cancel(id, true)).data!.cancelBulkActivation!;
      expect(job.status).toBe('CANCELLED');
      expect(job.finishedAt).not.toBeNull();
      expect(job.dryRun?.checks.find((check) => check.name === 'jobStatus')?.detail).toMatch(/end at once/);
      expect(await row(id)).toEqual(before);
    } finally {
      await db.bulkActivationJob.update({ where: { id }, data: { status: 'completed', finishedAt: new Date() } });
    }
  });

  it('of a finished job: the job as it is, as the call answers it', async () => {
    const id = await start([activationBody(), activationBody({ plan_id: 'PREMIUM' })]);
    expect(await eventually(async () => (await statusOf(id)) === 'COMPLETED', 30_000)).toBe(true);
    const dry = (await cancel(id, true)).data!.cancelBulkActivation!;
    const real = (await cancel(id, false)).data!.cancelBulkActivation!;
    expect({ ...dry, dryRun: null }).toEqual(real);
    expect(real.dryRun).toBeNull();
    expect(dry.dryRun?.checks.find((check) => check.name === 'jobStatus')?.detail).toMatch(/changes nothing/);
  });

  it("of another user's job: refused as the call is (NOT_FOUND), nothing changed", async () => {
    const id = await start([activationBody()]);
    const { token: other } = await gateway.user();
    const dry = await cancel(id, true, other);
    const real = await cancel('00000000-0000-0000-0000-000000000000', true, other);
    expect(dry.data?.cancelBulkActivation).toBeNull();
    expect(dry.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND' });
    expect(dry.errors?.[0]?.message.replace(id, 'ID')).toBe(
      real.errors?.[0]?.message.replace('00000000-0000-0000-0000-000000000000', 'ID'),
    );
    expect((await row(id)).cancelRequested).toBe(false);
  });
});
