// A bulk activation job of 200 SIMs whose gateway process is killed (SIGKILL) mid-way, once
// running one SIM at a time and once 16 at a time (BULK_JOB_CONCURRENCY's default): the compiled
// gateway (node dist/main.js) on a SQLite file, carrier 321 a sandbox in this process so that its
// state survives. The SIMs in flight when the process died (one, or up to 16 reserved in one
// INSERT) are resolved by the next gateway through the recovery machinery (a re-send under the
// same id, or the first send of one the crash stopped before its call); it takes the job over
// once the dead replica's lease has expired, finishes the rest, and every SIM is activated exactly
// once: one transaction id at the carrier, one line, one line event.

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
import { type RunningProcess, startCompiledGateway } from '../support/processes.js';
import { bulkCrashCaller, bulkCrashEnv, crashTestCarrier, startJob } from './support.js';

const API_KEY = 'bulk-crash-321-key';
const SIMS = 200;

describe.each([
  { concurrency: 1, title: 'one SIM at a time' },
  { concurrency: 16, title: 'its SIMs side by side' },
])('a bulk activation job running $title, its gateway killed mid-way', ({ concurrency }) => {
  let dir: string;
  const core = new SandboxCarrier({ carrier: '321' });
  let carrier: SandboxServer;
  let data: DataServices;
  let env: Record<string, string>;
  let child: RunningProcess | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `line-gateway-bulk-crash-${concurrency}-`));
    // Each activation takes 10 ms at the carrier: the job is killed while it runs.
    const started = await crashTestCarrier(core, API_KEY, 10);
    carrier = started.carrier;
    env = bulkCrashEnv({ dir, carrierUrl: started.url, apiKey: API_KEY, concurrency });
    data = await openData(loadConfig(env));
  });
  afterAll(async () => {
    if (child && child.child.exitCode === null) child.child.kill('SIGKILL');
    await data?.close();
    await carrier?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('resumes after restart and activates each of its 200 SIMs exactly once', async () => {
    const { user, token } = await bulkCrashCaller(data, `bulk-crash-${concurrency}`, 'BULKCRASH');

    const gateway = await startCompiledGateway({ ...env, PORT: '0' });
    child = gateway.running;
    const { url } = gateway;

    const sims = Array.from({ length: SIMS }, () => freshSim());
    const jobId = await startJob(url, token, sims, 'BULKCRASH');

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

      // Exactly once: one transaction id per SIM at the carrier, the job's; a second request is
      // only ever the recovery's re-send (same id, answered from the first) of a SIM that was in
      // flight when the process died, and those were at most the job's concurrency.
      const resent: string[] = [];
      for (const [position, sim] of sims.entries()) {
        const item = items[position]!;
        const calls = core.activationCalls(sim);
        expect(calls.transactionIds, sim).toEqual([item.transactionId]);
        if (calls.requests > 1) resent.push(sim);
        expect((await core.getSimDetails(sim)).iccidStatus, sim).not.toBe('AVAILABLE');
        const row = await data.db.transaction.findUnique({ where: { id: item.transactionId } });
        expect(row?.status, sim).toBe('success');
        const lines = await data.db.line.findMany({ where: { sim } });
        expect(lines.map((line) => line.ownerId)).toEqual([user.id]);
        const events = await data.db.lineEvent.findMany({ where: { transactionId: item.transactionId } });
        expect(events.map((event) => event.mdn)).toEqual(lines.map((line) => line.mdn));
      }
      expect(resent.length).toBeLessThanOrEqual(concurrency);
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
