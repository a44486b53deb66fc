// Bulk activation as a job on GraphQL: startBulkActivation answers an id at once and the job
// activates in order in the background with the spec's per-SIM rules; bulkActivation(id) shows
// progress and pages of outcomes, to its owner or a superuser only; a bad item refuses the whole
// job (nothing stored, nothing activated); cancel stops it between SIMs; and the REST batch
// is the same runner (its answer is the job's entries).

import { beforeAll, describe, expect, it } from 'vitest';
import { noData } from '../../support/gateway.js';
import { eventually } from '../../support/eventually.js';
import { createPlans } from '../../support/plans.js';
import { camelInput } from '../../support/surfaces.js';
import { useGateway } from '../../support/use-gateway.js';
import { setFaults } from '../../recovery/support.js';
import { activationBody } from './activations.js';

// A body of 10,001 SIMs (~1.4 MB) must reach validation: the default MAX_BODY_BYTES is 1 MB.
const gateway = useGateway({ env: { MAX_BODY_BYTES: '4000000' } });
beforeAll(async () => {
  await createPlans(gateway);
});

const JOB_FIELDS = `id status transactionId total processed succeeded failed createdAt startedAt finishedAt nextCursor
  results { sim status transactionId mdn message error warning wfcStatus }`;

interface Job {
  id: string;
  status: string;
  transactionId: string | null;
  total: number;
  processed: number;
  succeeded: number;
  failed: number;
  startedAt: string | null;
  finishedAt: string | null;
  nextCursor: string | null;
  results: { sim: string; status: string; transactionId: string; mdn: string | null; message: string }[];
}

const bulkUser = async () => (await gateway.user({ plans: ['BASIC', 'BPLAN', 'WFC', 'BAD'] })).token;

async function start(token: string, items: Record<string, unknown>[], transactionId?: string) {
  return gateway.graphql<{ startBulkActivation: Job | null }>(
    `mutation ($input: StartBulkActivationInput!) { startBulkActivation(input: $input) { ${JOB_FIELDS} } }`,
    { token, variables: { input: { activations: items.map(camelInput), ...(transactionId && { transactionId }) } } },
  );
}

async function view(token: string, id: string, page: { first?: number; after?: string } = {}) {
  return gateway.graphql<{ bulkActivation: Job | null }>(
    `query ($id: String!, $first: Int, $after: String) { bulkActivation(id: $id, first: $first, after: $after) { ${JOB_FIELDS} } }`,
    { token, variables: { id, ...page } },
  );
}

async function cancel(token: string, id: string) {
  return gateway.graphql<{ cancelBulkActivation: Job }>(
    `mutation ($id: String!) { cancelBulkActivation(input: { id: $id }) { ${JOB_FIELDS} } }`,
    { token, variables: { id } },
  );
}

async function finished(token: string, id: string): Promise<Job> {
  let job: Job | null = null;
  const done = await eventually(
    async () => {
      job = (await view(token, id)).data?.bulkActivation ?? null;
      return job !== null && !['QUEUED', 'RUNNING'].includes(job.status);
    },
    60_000,
    50,
  );
  expect(done, JSON.stringify(job)).toBe(true);
  return job!;
}

describe('startBulkActivation', () => {
  it('answers a job id at once; the job activates each SIM in order with per-SIM rules', async () => {
    const token = await bulkUser();
    const items = [
      activationBody(),
      activationBody({ plan_id: 'PREMIUM' }),
      activationBody({ plan_id: 'BPLAN' }),
      activationBody({ zip_code: '99999' }),
      activationBody({ plan_id: 'WFC', address1: 'INVALID' }),
    ];
    const started = await start(token, items, `JOB-${Date.now()}`);
    expect(started.errors).toBeUndefined();
    const job = started.data!.startBulkActivation!;
    expect(job).toMatchObject({ total: 5, results: [], transactionId: expect.stringMatching(/^JOB-/) });
    expect(['QUEUED', 'RUNNING', 'COMPLETED']).toContain(job.status);

    const done = await finished(token, job.id);
    expect(done).toMatchObject({ status: 'COMPLETED', total: 5, processed: 5, succeeded: 3, failed: 2 });
    expect(done.startedAt).not.toBeNull();
    expect(done.finishedAt).not.toBeNull();
    expect(done.results.map((entry) => entry.sim)).toEqual(items.map((item) => item.sim));
    expect(done.results.map((entry) => entry.status)).toEqual(['SUCCESS', 'FAILURE', 'SUCCESS', 'FAILURE', 'SUCCESS']);
    expect(done.results[0]!.transactionId).toMatch(new RegExp(`^BULK_${String(items[0]!.sim)}_\\d{13}$`));
    expect(done.results[1]!.message).toBe('Plan PREMIUM is not authorized for this user');
    expect(done.results[2]!.mdn).toMatch(/^646555/);
    expect(done.results[3]!.message).toMatch(/\(GENS-0289\)$/);
    // Each SIM's transaction is in the log under the id the job gave it.
    const record = await gateway.rest('GET', `/transactions/${done.results[0]!.transactionId}`, { token });
    expect(record.body).toMatchObject({ status: 'success', operation: 'activateSim' });
  });

  it('pages the outcomes with first/after', async () => {
    const token = await bulkUser();
    const items = Array.from({ length: 5 }, () => activationBody({ plan_id: 'PREMIUM' }));
    const id = (await start(token, items)).data!.startBulkActivation!.id;
    await finished(token, id);
    const first = (await view(token, id, { first: 2 })).data!.bulkActivation!;
    expect(first.results.map((entry) => entry.sim)).toEqual([items[0]!.sim, items[1]!.sim]);
    const second = (await view(token, id, { first: 2, after: first.nextCursor! })).data!.bulkActivation!;
    expect(second.results.map((entry) => entry.sim)).toEqual([items[2]!.sim, items[3]!.sim]);
    const last = (await view(token, id, { first: 2, after: second.nextCursor! })).data!.bulkActivation!;
    expect(last.results.map((entry) => entry.sim)).toEqual([items[4]!.sim]);
    expect(last.nextCursor).toBeNull();
    // A full page that holds the last outcome has no next page either.
    const whole = (await view(token, id, { first: 5 })).data!.bulkActivation!;
    expect(whole.results).toHaveLength(5);
    expect(whole.nextCursor).toBeNull();
    const fullLast = (await view(token, id, { first: 1, after: second.nextCursor! })).data!.bulkActivation!;
    expect(fullLast.results.map((entry) => entry.sim)).toEqual([items[4]!.sim]);
    expect(fullLast.nextCursor).toBeNull();
    const bad = await view(token, id, { after: 'x' });
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', status: 422 });
  });

  it('refuses the whole job when one item is invalid: nothing stored, nothing activated', async () => {
    const token = await bulkUser();
    const items = [activationBody(), activationBody({ state: 'ga' })];
    const answer = await start(token, items);
    expect(noData(answer)).toBe(true);
    expect(answer.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      status: 422,
      issues: [{ loc: ['input', 'activations', 1, 'state'] }],
    });
    expect(await gateway.app.services.db.bulkActivationItem.count({ where: { sim: String(items[0]!.sim) } })).toBe(0);
    expect(await gateway.sandboxes.cores['321'].getSimDetails(String(items[0]!.sim))).toMatchObject({
      iccidStatus: 'AVAILABLE',
    });
    const tooMany = await start(
      token,
      Array.from({ length: 10_001 }, () => ({ ...activationBody(), sim: '89010000000000000001' })),
    );
    expect(tooMany.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(tooMany.errors?.[0]?.message).toMatch(/at most 10000 activations/);
  });

  it('refuses a repeated job transaction id with DUPLICATE_TRANSACTION and stores nothing', async () => {
    const token = await bulkUser();
    const batchId = `JOBDUP-${Date.now()}`;
    expect((await start(token, [activationBody({ plan_id: 'PREMIUM' })], batchId)).errors).toBeUndefined();
    const before = await gateway.app.services.db.bulkActivationJob.count();
    const again = await start(token, [activationBody()], batchId);
    expect(again.errors?.[0]?.extensions).toMatchObject({ code: 'DUPLICATE_TRANSACTION', status: 409 });
    expect(await gateway.app.services.db.bulkActivationJob.count()).toBe(before);
  });
});

describe('who may see and cancel a job', () => {
  it('is the owner or a superuser; another user is told the job does not exist', async () => {
    const owner = await bulkUser();
    const other = await bulkUser();
    const { token: admin } = await gateway.user({ superuser: true });
    const id = (await start(owner, [activationBody({ plan_id: 'PREMIUM' })])).data!.startBulkActivation!.id;
    await finished(owner, id);

    const seen = await view(other, id);
    expect(seen.data?.bulkActivation).toBeNull();
    expect(seen.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    const unknown = await view(other, '00000000-0000-0000-0000-000000000000');
    expect(unknown.errors?.[0]?.message.replace('00000000-0000-0000-0000-000000000000', id)).toBe(
      seen.errors?.[0]?.message,
    );
    const cancel = await gateway.graphql(
      `mutation ($id: String!) { cancelBulkActivation(input: { id: $id }) { status } }`,
      { token: other, variables: { id } },
    );
    expect(cancel.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND' });
    expect((await view(admin, id)).data?.bulkActivation).toMatchObject({ id, status: 'COMPLETED' });
    expect((await view(owner, id)).data?.bulkActivation?.status).toBe('COMPLETED');
  });
});

describe('cancelBulkActivation', () => {
  it('stops the job between SIMs: the SIMs before keep their outcome, the rest stay untouched', async () => {
    const token = await bulkUser();
    // ~0.4 s at the carrier at the default concurrency (16 in flight): the cancel lands mid-way.
    const items = Array.from({ length: 120 }, () => activationBody());
    await setFaults(gateway, '321', { latency_ms: 50 });
    try {
      const id = (await start(token, items)).data!.startBulkActivation!.id;
      expect(
        await eventually(async () => ((await view(token, id)).data?.bulkActivation?.processed ?? 0) >= 1, 30_000),
      ).toBe(true);
      const cancelled = await cancel(token, id);
      expect(cancelled.errors).toBeUndefined();
      const answered = cancelled.data!.cancelBulkActivation;
      const done = await finished(token, id);
      expect(done.status).toBe('CANCELLED');
      expect(done.processed).toBeLessThan(items.length);
      expect(done.results).toHaveLength(done.processed);
      // The cancel answered the outcomes the job had then (at least the one waited for), in
      // request order: the first page, as bulkActivation(id) answers it.
      expect(answered.results.length).toBeGreaterThanOrEqual(1);
      expect(answered.results).toEqual(done.results.slice(0, answered.results.length));
      if (answered.results.length < 100) expect(answered.nextCursor).toBeNull();
      expect(done.results.every((entry) => entry.status === 'SUCCESS')).toBe(true);
      const core = gateway.sandboxes.cores['321'];
      for (const item of items.slice(done.processed))
        expect((await core.getSimDetails(String(item.sim))).iccidStatus).toBe('AVAILABLE');
      // Cancelling again changes nothing.
      const again = await gateway.graphql<{ cancelBulkActivation: Job }>(
        `mutation ($id: String!) { cancelBulkActivation(input: { id: $id }) { status processed } }`,
        { token, variables: { id } },
      );
      expect(again.data?.cancelBulkActivation).toEqual({ status: 'CANCELLED', processed: done.processed });
    } finally {
      await setFaults(gateway, '321', { latency_ms: 0 });
    }
  });
});

describe('cancelBulkActivation’s answer', () => {
  it('is the job with the first page of its outcomes, exactly as bulkActivation(id) answers it by default', async () => {
    const token = await bulkUser();
    // Plan PREMIUM is not this user's: every SIM fails at once, with no carrier call.
    const items = Array.from({ length: 103 }, () => activationBody({ plan_id: 'PREMIUM' }));
    const id = (await start(token, items)).data!.startBulkActivation!.id;
    const done = await finished(token, id);
    expect(done).toMatchObject({ status: 'COMPLETED', processed: 103 });
    expect(done.results).toHaveLength(100);
    expect(done.nextCursor).not.toBeNull();

    const cancelled = await cancel(token, id);
    expect(cancelled.errors).toBeUndefined();
    // A finished job is answered unchanged, first page and cursor included.
    expect(cancelled.data!.cancelBulkActivation).toEqual(done);
    expect(cancelled.data!.cancelBulkActivation.results.map((entry) => entry.sim)).toEqual(
      items.slice(0, 100).map((item) => item.sim),
    );
    const rest = (await view(token, id, { after: cancelled.data!.cancelBulkActivation.nextCursor! })).data!
      .bulkActivation!;
    expect(rest.results.map((entry) => entry.sim)).toEqual(items.slice(100).map((item) => item.sim));
    expect(rest.nextCursor).toBeNull();
  });
});

describe('the REST batch', () => {
  it('is a job of the same runner: its answer is the job’s entries', async () => {
    const token = await bulkUser();
    const items = [activationBody(), activationBody({ plan_id: 'PREMIUM' })];
    const answer = await gateway.rest<{ results: { transaction_id: string }[]; processed: number }>(
      'POST',
      '/sim/activate/bulk/',
      { token, body: { activations: items } },
    );
    expect(answer.status).toBe(200);
    const job = await gateway.app.services.db.bulkActivationJob.findFirst({
      where: { items: { some: { sim: String(items[0]!.sim) } } },
    });
    expect(job).toMatchObject({ status: 'completed', total: 2, processed: 2, succeeded: 1 });
    const stored = await gateway.app.services.db.bulkActivationItem.findMany({
      where: { jobId: job!.id },
      orderBy: { position: 'asc' },
    });
    expect(stored.map((item) => item.transactionId)).toEqual(answer.body.results.map((entry) => entry.transaction_id));
    // Addresses are not kept once each SIM has its outcome.
    expect(stored.every((item) => item.input === null)).toBe(true);
  });
});
