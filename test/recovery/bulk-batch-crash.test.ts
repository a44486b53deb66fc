// POST /sim/activate/bulk/ with a batch transaction_id, its gateway process killed (SIGKILL)
// mid-batch: the compiled gateway (node dist/main.js), carrier 321 a sandbox in this process so
// that its state survives. The batch id's row was stored with the job, `pending`; the next
// gateway resumes the job once the dead replica's lease has expired and, in the database
// transaction that ends it, answers the batch id with every SIM's entry (`recovered`, since the
// caller never got that answer). GET /transactions/{id} and `transaction(id)` then show it, a
// retry with the same id is the spec's 409, and every SIM was activated once. On SQLite, and on
// PostgreSQL where one answers.

import type { RestBulkAnswer } from '../support/bulk.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openData, type DataServices } from '../../src/app/data.js';
import { loadConfig } from '../../src/config.js';
import { SandboxCarrier } from '../../src/sandbox/core/sandbox-carrier.js';
import type { SandboxServer } from '../../src/sandbox/http-kit.js';
import { eventually } from '../support/eventually.js';
import { startTestGateway } from '../support/gateway.js';
import { freshSim } from '../support/lines.js';
import { createPostgresSchema, postgresAvailable, type PostgresSchema } from '../support/postgres.js';
import { type RunningProcess, startCompiledGateway } from '../support/processes.js';
import { bulkCrashCaller, bulkCrashEnv, crashTestCarrier } from './support.js';

const API_KEY = 'batch-crash-321-key';
const SIMS = 60;

const DATABASES: ('sqlite' | 'postgresql')[] = (await postgresAvailable()) ? ['sqlite', 'postgresql'] : ['sqlite'];

describe.each(DATABASES)('a REST bulk activation with a batch id, its gateway killed mid-batch, on %s', (database) => {
  let dir: string;
  let postgres: PostgresSchema | null = null;
  const core = new SandboxCarrier({ carrier: '321' });
  let carrier: SandboxServer;
  let data: DataServices;
  let env: Record<string, string>;
  let child: RunningProcess | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `line-gateway-batch-crash-${database}-`));
    if (database === 'postgresql') postgres = await createPostgresSchema();
    // Each activation takes 20 ms at the carrier, one SIM at a time: the batch is killed while it runs.
    const started = await crashTestCarrier(core, API_KEY, 20);
    carrier = started.carrier;
    const carrierUrl = started.url;
    env = bulkCrashEnv({ dir, databaseUrl: postgres?.url, carrierUrl, apiKey: API_KEY, concurrency: 1 });
    data = await openData(loadConfig(env));
  });
  afterAll(async () => {
    if (child && child.child.exitCode === null) child.child.kill('SIGKILL');
    await data?.close();
    await carrier?.close();
    await postgres?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves the batch id answered with every SIM’s entry once the next gateway has finished the batch', async () => {
    const { token } = await bulkCrashCaller(data, `batch-crash-${database}`, 'BATCHCRASH');

    const started = await startCompiledGateway({ ...env, PORT: '0' });
    child = started.running;
    const { url } = started;

    const batchId = `BATCH-CRASH-${database}-${Date.now()}`;
    const sims = Array.from({ length: SIMS }, () => freshSim());
    const activations = sims.map((sim) => ({
      sim,
      plan_id: 'BATCHCRASH',
      zip_code: '30301',
      address1: '1 Main St',
      city: 'Atlanta',
      state: 'GA',
    }));
    const bulk = (body: unknown) =>
      fetch(`${url}/sim/activate/bulk/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
    // The caller never gets this answer: the process dies under it.
    const cut = bulk({ activations, transaction_id: batchId }).then(
      () => 'answered',
      () => 'cut',
    );

    const received = () => sims.filter((sim) => core.activationCalls(sim).requests > 0).length;
    expect(await eventually(async () => received() >= 20, 30_000, 5)).toBe(true);
    child.child.kill('SIGKILL');
    await child.done;
    expect(await cut).toBe('cut');
    expect(received()).toBeLessThan(SIMS);
    // What the crash left: the batch id stored with its job, unanswered.
    expect(await data.db.transaction.findUnique({ where: { id: batchId } })).toMatchObject({
      status: 'pending',
      operation: 'activateSims',
    });
    const job = await data.db.bulkActivationJob.findFirstOrThrow({ where: { transactionId: batchId } });
    expect(job.status).toBe('running');

    const next = await startTestGateway({ env: { ...env, DATA_DIR: join(dir, 'next'), LOG_LEVEL: 'warn' } });
    try {
      expect(
        await eventually(
          async () => (await data.db.transaction.findUnique({ where: { id: batchId } }))?.status === 'success',
          60_000,
          100,
        ),
      ).toBe(true);
      expect(await data.db.bulkActivationJob.findUnique({ where: { id: job.id } })).toMatchObject({
        status: 'completed',
        processed: SIMS,
        succeeded: SIMS,
        unresolved: 0,
      });
      const items = await data.db.bulkActivationItem.findMany({
        where: { jobId: job.id },
        orderBy: { position: 'asc' },
      });

      const record = await next.rest('GET', `/transactions/${batchId}`, { token });
      expect(record.status).toBe(200);
      expect(record.body).toMatchObject({
        id: batchId,
        operation: 'activateSims',
        status: 'success',
        http_status: 200,
        recovered: true,
        resolved_at: expect.any(String),
      });
      const answer = JSON.parse(record.body.response as string) as RestBulkAnswer;
      expect(answer.total).toBe(SIMS);
      expect(answer.processed).toBe(SIMS);
      expect(answer.results).toEqual(
        sims.map((sim, position) => ({
          sim,
          status: 'success',
          transaction_id: items[position]!.transactionId,
          mdn: expect.stringMatching(/^321555\d{4}$/),
          message: 'Success',
        })),
      );
      const onGraphQL = await next.graphql<{ transaction: Record<string, unknown> }>(
        'query ($id: String!) { transaction(id: $id) { status httpStatus response recovered } }',
        { token, variables: { id: batchId } },
      );
      expect(onGraphQL.data?.transaction).toEqual({
        status: 'SUCCESS',
        httpStatus: 200,
        response: answer,
        recovered: true,
      });

      // A retry with the batch id: the spec's 409, nothing stored or sent again.
      const again = await next.rest('POST', '/sim/activate/bulk/', {
        token,
        body: { activations: [{ ...activations[0]!, sim: freshSim() }], transaction_id: batchId },
      });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ status: 'failure', message: expect.stringContaining(batchId), code: 'HTTP_409' });
      expect(await data.db.bulkActivationJob.count({ where: { transactionId: batchId } })).toBe(1);

      // Every SIM activated once, under the id the job gave it.
      for (const [position, sim] of sims.entries())
        expect(core.activationCalls(sim).transactionIds, sim).toEqual([items[position]!.transactionId]);
    } finally {
      await next.close();
    }
  }, 120_000);
});
