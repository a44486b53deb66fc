// A bulk activation job of 200 SIMs whose gateway process is killed (SIGKILL) mid-way: the
// compiled gateway (node dist/main.js) on a SQLite file, carrier 321 a sandbox in this process
// so that its state survives. The next gateway on the same database takes the job over once
// its lease has expired, resolves the SIM that was at the carrier through the recovery
// machinery, finishes the rest, and the carrier saw each SIM under one transaction id only.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openData, type DataServices } from '../../src/app/data.js';
import { loadConfig } from '../../src/config.js';
import { createCarrier321SandboxServer } from '../../src/sandbox/carrier-321/server.js';
import { SandboxCarrier } from '../../src/sandbox/core/sandbox-carrier.js';
import type { SandboxServer } from '../../src/sandbox/http-kit.js';
import { eventually } from '../support/eventually.js';
import { startTestGateway, TEST_JWT_SECRET } from '../support/gateway.js';
import { freshSim } from '../support/lines.js';
import { spawnIn, type RunningProcess } from '../support/processes.js';

const API_KEY = 'bulk-crash-321-key';
const SIMS = 200;

let dir: string;
const core = new SandboxCarrier({ carrier: '321' });
let carrier: SandboxServer;
let data: DataServices;
let env: Record<string, string>;
let child: RunningProcess | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'line-gateway-bulk-crash-'));
  // Each activation takes 10 ms at the carrier: the job is killed while it runs.
  carrier = createCarrier321SandboxServer({
    core,
    credentials: { apiKey: API_KEY },
    faults: { latencyMs: 10, errorRate: 0, dropRate: 0, garbageRate: 0 },
  });
  const carrierUrl = await carrier.listen(0, '127.0.0.1');
  env = {
    DATABASE_URL: `file:${join(dir, 'gateway.db')}`,
    DATA_DIR: dir,
    JWT_SECRET: TEST_JWT_SECRET,
    LOG_LEVEL: 'info',
    CARRIER_321_URL: carrierUrl,
    CARRIER_321_API_KEY: API_KEY,
    BULK_JOB_LEASE_MS: '2000',
    CARRIER_TIMEOUT_MS: '1000',
    CARRIER_RETRIES: '0',
    // One SIM at a time: then exactly one SIM can be at the carrier when the process dies
    // (bulk-job-crash-concurrent.test.ts kills a job running its SIMs side by side).
    BULK_JOB_CONCURRENCY: '1',
  };
  data = await openData(loadConfig(env));
});
afterAll(async () => {
  if (child && child.child.exitCode === null) child.child.kill('SIGKILL');
  await data?.close();
  await carrier?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a bulk activation job whose gateway is killed mid-way', () => {
  it('resumes after restart and activates each of its 200 SIMs exactly once', async () => {
    const user = await data.directory.createUser({ name: `bulk-crash-${Date.now()}` });
    await data.directory.createPlan({
      planId: 'BULKCRASH',
      name: 'Bulk crash',
      carrierPlanId: 'PLUS5GB',
      carrier: '321',
    });
    await data.directory.authorize(user.name, ['BULKCRASH']);
    const { token } = await data.tokens.issue(user, '1h');

    child = spawnIn(process.execPath, ['dist/main.js'], { ...env, PORT: '0' });
    let url: string | undefined;
    const up = await eventually(
      async () =>
        (url = /listening on (http:\/\/[^\s"]+)/.exec(child!.output.stderr)?.[1]) !== undefined ||
        child!.child.exitCode !== null,
      40_000,
    );
    expect(up && url, child.output.stderr).toBeTruthy();

    const sims = Array.from({ length: SIMS }, () => freshSim());
    const activations = sims.map((sim) => ({
      sim,
      planId: 'BULKCRASH',
      zipCode: '30301',
      address1: '1 Main St',
      city: 'Atlanta',
      state: 'GA',
    }));
    const started = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        query: 'mutation ($input: StartBulkActivationInput!) { startBulkActivation(input: $input) { id } }',
        variables: { input: { activations } },
      }),
    });
    const body = (await started.json()) as { data: { startBulkActivation: { id: string } } };
    const jobId = body.data.startBulkActivation.id;

    // Killed once a good part of the SIMs has reached the carrier.
    const received = () => sims.filter((sim) => core.activationCalls(sim).requests > 0).length;
    expect(await eventually(async () => received() >= 80, 60_000, 5)).toBe(true);
    child.child.kill('SIGKILL');
    await child.done;
    const atKill = received();
    expect(atKill).toBeLessThan(SIMS);
    const stopped = await data.db.bulkActivationJob.findUnique({ where: { id: jobId } });
    expect(stopped?.status).toBe('running');

    // The next start takes the job over once the dead replica's lease has expired.
    const next = await startTestGateway({ env: { ...env, DATA_DIR: join(dir, 'next'), LOG_LEVEL: 'warn' } });
    try {
      const finished = await eventually(
        async () => (await data.db.bulkActivationJob.findUnique({ where: { id: jobId } }))?.status === 'completed',
        90_000,
        200,
      );
      expect(finished).toBe(true);
      const job = await data.db.bulkActivationJob.findUnique({ where: { id: jobId } });
      expect(job).toMatchObject({ total: SIMS, processed: SIMS, succeeded: SIMS });
      const items = await data.db.bulkActivationItem.findMany({ where: { jobId }, orderBy: { position: 'asc' } });
      expect(items.map((item) => item.status)).toEqual(sims.map(() => 'success'));

      // Exactly once at the carrier: one transaction id per SIM, the job's; a second request is
      // only ever the recovery's re-send of the one SIM whose answer the crash lost.
      const resent: string[] = [];
      for (const [position, sim] of sims.entries()) {
        const calls = core.activationCalls(sim);
        expect(calls.transactionIds, sim).toEqual([items[position]!.transactionId]);
        expect(calls.requests, sim).toBeLessThanOrEqual(2);
        if (calls.requests === 2) resent.push(sim);
        expect((await core.getSimDetails(sim)).iccidStatus, sim).not.toBe('AVAILABLE');
      }
      expect(resent.length).toBeLessThanOrEqual(1);
      const view = await next.graphql<{ bulkActivation: { status: string; processed: number } }>(
        'query ($id: String!) { bulkActivation(id: $id, first: 0) { status processed } }',
        { token, variables: { id: jobId } },
      );
      expect(view.data?.bulkActivation).toEqual({ status: 'COMPLETED', processed: SIMS });
    } finally {
      await next.close();
    }
  }, 180_000);
});
