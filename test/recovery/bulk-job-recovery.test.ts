// A bulk activation SIM whose carrier call timed out after it was delivered: the batch answers
// it as a failure (its outcome unknown), its job's item is written `unknown` (counted in
// `unresolved`), and once recovery has re-sent it and learned that the SIM was activated, the
// job's entry shows the success with its MDN (`recovered`), the counts add up, and the REST
// batch's id answers the entries as they now are. A SIM the carrier truly refused stays a
// failure. The rewrite is conditional: resolving again counts nothing twice. The job's write and
// recovery's may meet (recovery re-sends at once): an entry written after recovery already
// learned the outcome is written with it. On SQLite, and on PostgreSQL where one answers.

import type { RestBulkAnswer, RestBulkEntry } from '../support/bulk.js';
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJob, findJob } from '../../src/operations/activation/bulk-jobs/job-store.js';
import { JobLeases } from '../../src/operations/activation/bulk-jobs/job-leases.js';
import { failedEntry } from '../../src/operations/activation/bulk-jobs/activate-item.js';
import { followRecoveredActivation } from '../../src/operations/activation/bulk-jobs/recovered-items.js';
import type { ActivationFields } from '../../src/operations/activation/fields.js';
import { startGateway, startReplica, type TestGateway } from '../support/gateway.js';
import { eventually } from '../support/eventually.js';
import { freshSim } from '../support/lines.js';
import { createPlans } from '../support/plans.js';
import { postgresAvailable } from '../support/postgres.js';
import { camelInput } from '../support/surfaces.js';
import { activationBody } from '../e2e/activation/activations.js';
import { pendingActivation, sandboxEnv, setFaults } from './support.js';

const DATABASES: ('sqlite' | 'postgresql')[] = (await postgresAvailable()) ? ['sqlite', 'postgresql'] : ['sqlite'];

const JOB = `query ($id: String!) { bulkActivation(id: $id, first: 100) {
  status total processed succeeded failed unresolved
  results { sim status transactionId mdn message error recovered } } }`;
const TRANSACTION = 'query ($id: String!) { transaction(id: $id) { status httpStatus response recovered } }';

interface JobView {
  status: string;
  total: number;
  processed: number;
  succeeded: number;
  failed: number;
  unresolved: number;
  results: {
    sim: string;
    status: string;
    transactionId: string;
    mdn: string | null;
    message: string;
    error: string[] | null;
    recovered: boolean | null;
  }[];
}

async function jobView(gateway: TestGateway, token: string, id: string): Promise<JobView> {
  const answer = await gateway.graphql<{ bulkActivation: JobView }>(JOB, { token, variables: { id } });
  expect(answer.errors).toBeUndefined();
  return answer.data!.bulkActivation;
}

/** The events of a bulkActivationProgress stream over SSE (in-process), read to its end. */
async function progressOf(gateway: TestGateway, token: string, jobId: string): Promise<unknown[]> {
  const response = await gateway.fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      query:
        'subscription ($id: String!) { bulkActivationProgress(id: $id) { status processed succeeded failed unresolved } }',
      variables: { id: jobId },
    }),
  });
  expect(response.status).toBe(200);
  return [...(await response.text()).matchAll(/^event: next\ndata: (.*)$/gm)].map(
    (match) => (JSON.parse(match[1]!) as { data: { bulkActivationProgress: unknown } }).data.bulkActivationProgress,
  );
}

/** Resolves every unresolved row once, on a replica (as the next start, or another replica's sweep, would). */
async function recover(gateway: TestGateway): Promise<void> {
  const replica = await startReplica(gateway, {
    ...sandboxEnv(gateway),
    CARRIER_TIMEOUT_MS: '5000',
    CARRIER_RETRIES: '0',
    RECOVERY_SWEEP_MS: '3600000',
  });
  try {
    // Joins the start-up sweep if it is still running: every unresolved row has been tried after it.
    await replica.app.services.recovery.sweep();
  } finally {
    await replica.close();
  }
}

describe.each(DATABASES)('on %s', (database) => {
  describe('a synchronous batch whose one SIM timed out after the carrier had it', () => {
    let gateway: TestGateway;

    beforeAll(async () => {
      gateway = await startGateway({
        database,
        // A timeout well above what a loaded machine takes to answer the other SIMs.
        env: { CARRIER_TIMEOUT_MS: '1500', CARRIER_RETRIES: '0', RECOVERY_SWEEP_MS: '3600000' },
      });
      // Recovery runs only when the test says (on a replica): the job's entry is written first.
      await gateway.app.services.recovery.stop();
      await createPlans(gateway);
    });
    afterAll(() => gateway.close());

    it('shows the SIM activated with its MDN once recovered, on GraphQL and in the batch id’s REST record; the refused SIM stays failed', async () => {
      const { user, token } = await gateway.user({ plans: ['A321', 'BPLAN'] });
      const batchId = `BATCH-${database}-${Date.now()}`;
      const items = [
        activationBody({ plan_id: 'A321' }),
        activationBody({ plan_id: 'BPLAN' }),
        activationBody({ plan_id: 'A321', zip_code: '99999' }),
      ];
      const [, slow] = items as [Record<string, unknown>, Record<string, unknown>, Record<string, unknown>];
      // carrier_b answers after the gateway's timeout, but activates the SIM.
      await setFaults(gateway, 'carrier_b', { latency_ms: 3000 });
      let answer;
      try {
        answer = await gateway.rest<RestBulkAnswer>('POST', '/sim/activate/bulk/', {
          token,
          body: { activations: items, transaction_id: batchId },
        });
      } finally {
        // The request in flight keeps the faults it arrived with.
        await setFaults(gateway, 'carrier_b', {});
      }
      expect(answer.status).toBe(200);
      expect(answer.body.total).toBe(3);
      expect(answer.body.processed).toBe(1);
      const [ok, lost, refused] = answer.body.results as [RestBulkEntry, RestBulkEntry, RestBulkEntry];
      expect(ok).toMatchObject({ status: 'success', mdn: expect.stringMatching(/^321555\d{4}$/) });
      expect(lost).toEqual({
        sim: slow.sim,
        status: 'failure',
        transaction_id: expect.stringMatching(/^BULK_/),
        message: expect.stringMatching(
          /outcome is unknown, look it up by transaction id before retrying \(CARRIER_TIMEOUT\)$/,
        ),
        error: [lost.message],
      });
      expect(refused).toMatchObject({ status: 'failure', message: expect.stringMatching(/\(GENS-0289\)$/) });
      const core = gateway.sandboxes.cores.carrier_b;
      expect(
        await eventually(
          async () => (await core.getSimDetails(String(slow.sim))).iccidStatus !== 'AVAILABLE',
          10_000,
          50,
        ),
      ).toBe(true);

      const db = gateway.app.services.db;
      const jobId = (await db.bulkActivationJob.findFirstOrThrow({ where: { transactionId: batchId } })).id;
      const before = await jobView(gateway, token, jobId);
      expect(before).toMatchObject({
        status: 'COMPLETED',
        total: 3,
        processed: 3,
        succeeded: 1,
        failed: 2,
        unresolved: 1,
      });
      expect(before.results.map((entry) => [entry.status, entry.recovered])).toEqual([
        ['SUCCESS', null],
        ['FAILURE', null],
        ['FAILURE', null],
      ]);
      // A subscriber of the ended job hears it once, unresolved SIM included, and the stream closes.
      expect(await progressOf(gateway, token, jobId)).toEqual([
        { status: 'COMPLETED', processed: 3, succeeded: 1, failed: 2, unresolved: 1 },
      ]);
      const batchBefore = await gateway.rest('GET', `/transactions/${batchId}`, { token });
      expect(batchBefore.body).toMatchObject({ status: 'success', http_status: 200, recovered: false });
      expect(JSON.parse(batchBefore.body.response as string)).toEqual(answer.body);

      await recover(gateway);

      const row = await gateway.app.services.transactions.find(lost.transaction_id);
      expect(row).toMatchObject({ status: 'success', resolvedAt: expect.any(Date) });
      const mdn = (row!.response as { mdn: string }).mdn;
      expect(mdn).toMatch(/^646555\d{4}$/);

      const after = await jobView(gateway, token, jobId);
      expect(after).toMatchObject({
        status: 'COMPLETED',
        total: 3,
        processed: 3,
        succeeded: 2,
        failed: 1,
        unresolved: 0,
      });
      expect(after.results[0]).toMatchObject({ status: 'SUCCESS', mdn: ok.mdn, recovered: null });
      expect(after.results[1]).toEqual({
        sim: slow.sim,
        status: 'SUCCESS',
        transactionId: lost.transaction_id,
        mdn,
        message: 'Success',
        error: null,
        recovered: true,
      });
      expect(after.results[2]).toMatchObject({ status: 'FAILURE', message: refused.message, recovered: null });
      // The line is the job owner's, on carrier_b, and answers there.
      const line = await db.line.findUnique({ where: { mdn } });
      expect(line).toMatchObject({ sim: slow.sim, carrier: 'carrier_b', ownerId: user.id });
      const usage = await gateway.rest('GET', `/sim/usage/${mdn}`, { token });
      expect(usage.body).toMatchObject({ mdn, sim: slow.sim, status: 'ACTIVE' });

      // The batch id answers the entries as they now are, in the spec's REST shape.
      const expected = {
        results: [
          ok,
          { sim: slow.sim, status: 'success', transaction_id: lost.transaction_id, mdn, message: 'Success' },
          refused,
        ],
        total: 3,
        processed: 2,
      };
      const batchAfter = await gateway.rest('GET', `/transactions/${batchId}`, { token });
      expect(batchAfter.body).toMatchObject({ status: 'success', http_status: 200, recovered: true });
      expect(JSON.parse(batchAfter.body.response as string)).toEqual(expected);
      const onGraphQL = await gateway.graphql<{ transaction: Record<string, unknown> }>(TRANSACTION, {
        token,
        variables: { id: batchId },
      });
      expect(onGraphQL.data?.transaction).toEqual({
        status: 'SUCCESS',
        httpStatus: 200,
        response: expected,
        recovered: true,
      });

      // Resolving again changes nothing: the rewrite is conditional on the item still being unknown.
      await recover(gateway);
      await db.$transaction((tx) =>
        followRecoveredActivation(tx, row!, { id: row!.id, status: 'failure', response: {}, resolvedAt: new Date() }),
      );
      expect(await jobView(gateway, token, jobId)).toEqual(after);

      // Retrying the batch with its id: 409 as the spec says, nothing sent again.
      const again = await gateway.rest('POST', '/sim/activate/bulk/', {
        token,
        body: { activations: [activationBody({ plan_id: 'A321' })], transaction_id: batchId },
      });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({
        status: 'failure',
        message: expect.stringContaining(batchId),
        code: 'HTTP_409',
      });
      expect(await db.bulkActivationJob.count({ where: { transactionId: batchId } })).toBe(1);
      expect(core.activationCalls(String(slow.sim)).transactionIds).toEqual([lost.transaction_id]);
    });

    it('writes an entry as its transaction row says when recovery learned the outcome before the job wrote it', async () => {
      const { user } = await gateway.user({ plans: ['A321'] });
      const db = gateway.app.services.db;
      const stamp = Date.now();
      const sims = [freshSim(), freshSim(), freshSim()];
      const ids = sims.map((_, index) => `RACE-${database}-${stamp}-${index}`);
      const jobId = await createJob(db, {
        ownerId: user.id,
        batch: undefined,
        items: sims.map((sim, index) => ({
          input: camelInput(activationBody({ plan_id: 'A321', sim })) as unknown as ActivationFields,
          transactionId: ids[index]!,
        })),
      });
      // This test runs the job's writes itself: held long enough that no runner takes the job.
      const leases = new JobLeases(db, `race-test-${stamp}`);
      expect(await leases.claim(jobId, 120_000)).toBe(true);
      const job = (await findJob(db, jobId))!;

      // SIM 0's outcome was lost and recovery has learned it already; SIM 1's is still lost;
      // SIM 2 failed before its id was reserved (no row: a plain failure).
      await pendingActivation(gateway, user.id, ids[0]!, 'A321', { minutesAgo: 0, status: 'unknown', sim: sims[0] });
      await recover(gateway);
      expect((await gateway.app.services.transactions.find(ids[0]!))?.status).toBe('success');
      await pendingActivation(gateway, user.id, ids[1]!, 'A321', { minutesAgo: 0, status: 'unknown', sim: sims[1] });

      const pending = await leases.pendingItems(jobId);
      const message =
        '321 did not answer in time; the outcome is unknown, look it up by transaction id before retrying';
      const recorded = await leases.record(
        job,
        pending.map((item) => ({
          item,
          entry: failedEntry(item.input.sim, item.transactionId, message),
          outcomeUnknown: true,
        })),
      );
      expect(recorded).toEqual({ state: 'running', learned: 1, unresolved: 1 });
      const statuses = async () =>
        (await db.bulkActivationItem.findMany({ where: { jobId }, orderBy: { position: 'asc' } })).map(
          (item) => item.status,
        );
      expect(await statuses()).toEqual(['success', 'unknown', 'failure']);
      expect(await findJob(db, jobId)).toMatchObject({ processed: 3, succeeded: 1, unresolved: 1 });

      await recover(gateway);
      expect(await statuses()).toEqual(['success', 'success', 'failure']);
      expect(await findJob(db, jobId)).toMatchObject({ processed: 3, succeeded: 2, unresolved: 0 });
      const entries = (await db.bulkActivationItem.findMany({ where: { jobId }, orderBy: { position: 'asc' } })).map(
        (item) => JSON.parse(item.result!) as Record<string, unknown>,
      );
      expect(entries.map((entry) => [entry.status, entry.recovered, typeof entry.mdn])).toEqual([
        ['success', true, 'string'],
        ['success', true, 'string'],
        ['failure', undefined, 'undefined'],
      ]);
      expect(await leases.finish(jobId, 'completed', false)).toBe(true);
    });
  });

  describe('a background job whose one SIM timed out after the carrier had it, recovery running', () => {
    let gateway: TestGateway;
    /** Requests carrier_b received (on arrival, before any injected fault). */
    let arrivals = 0;

    beforeAll(async () => {
      gateway = await startGateway({ database, env: { CARRIER_TIMEOUT_MS: '1500', CARRIER_RETRIES: '0' } });
      await createPlans(gateway);
      gateway.sandboxes.servers.carrier_b.server.on('request', (_request: IncomingMessage) => (arrivals += 1));
    });
    afterAll(() => gateway.close());

    it('ends with the SIM’s entry a recovered success and the counts adding up', async () => {
      const { user, token } = await gateway.user({ plans: ['A321', 'BPLAN'] });
      const items = [
        activationBody({ plan_id: 'A321' }),
        activationBody({ plan_id: 'BPLAN' }),
        activationBody({ plan_id: 'A321', zip_code: '99999' }),
        activationBody({ plan_id: 'A321' }),
      ];
      const slow = String(items[1]!.sim);
      await setFaults(gateway, 'carrier_b', { latency_ms: 3000 });
      const seen = arrivals;
      let jobId: string;
      try {
        const started = await gateway.graphql<{ startBulkActivation: { id: string } }>(
          'mutation ($input: StartBulkActivationInput!) { startBulkActivation(input: $input) { id } }',
          { token, variables: { input: { activations: items.map(camelInput) } } },
        );
        expect(started.errors).toBeUndefined();
        jobId = started.data!.startBulkActivation.id;
        // Once the SIM's call is at carrier_b (delayed past the timeout), recovery's re-send is answered at once.
        expect(await eventually(async () => arrivals > seen, 10_000, 5)).toBe(true);
      } finally {
        await setFaults(gateway, 'carrier_b', {});
      }

      let view: JobView | undefined;
      const settled = await eventually(
        async () => {
          view = await jobView(gateway, token, jobId);
          return view.status === 'COMPLETED' && view.unresolved === 0;
        },
        20_000,
        100,
      );
      expect(settled, JSON.stringify(view)).toBe(true);
      expect(view).toMatchObject({ total: 4, processed: 4, succeeded: 3, failed: 1, unresolved: 0 });
      expect(view!.results.map((entry) => [entry.status, entry.recovered])).toEqual([
        ['SUCCESS', null],
        ['SUCCESS', true],
        ['FAILURE', null],
        ['SUCCESS', null],
      ]);
      const entry = view!.results[1]!;
      expect(entry.mdn).toMatch(/^646555\d{4}$/);
      expect(view!.results[2]!.message).toMatch(/\(GENS-0289\)$/);
      // Activated once, under the job's id, and recorded as the owner's line.
      expect(gateway.sandboxes.cores.carrier_b.activationCalls(slow).transactionIds).toEqual([entry.transactionId]);
      const line = await gateway.app.services.db.line.findUnique({ where: { mdn: entry.mdn! } });
      expect(line).toMatchObject({ sim: slow, carrier: 'carrier_b', ownerId: user.id });
      const job = await gateway.app.services.db.bulkActivationJob.findUnique({ where: { id: jobId! } });
      expect(job).toMatchObject({ processed: 4, succeeded: 3, unresolved: 0 });
    });
  });
});
