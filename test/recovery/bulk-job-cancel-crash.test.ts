// A bulk activation job cancelled while its replica runs it (the cancel flags it, as one made on
// another replica does), the replica killed (SIGKILL) before it could notice: the next gateway
// takes the job over once the lease has expired and finishes it as cancelled, sending no SIM
// more to the carrier. The compiled gateway on a SQLite file, carrier 321 a sandbox in this
// process so that its state survives.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openData, type DataServices } from '../../src/app/data.js';
import { loadConfig } from '../../src/config.js';
import { cancelJob } from '../../src/operations/activation/bulk-jobs/job-store.js';
import { SandboxCarrier } from '../../src/sandbox/core/sandbox-carrier.js';
import type { SandboxServer } from '../../src/sandbox/http-kit.js';
import { eventually } from '../support/eventually.js';
import { startTestGateway } from '../support/gateway.js';
import { freshSim } from '../support/lines.js';
import { type RunningProcess, startCompiledGateway } from '../support/processes.js';
import { bulkCrashCaller, bulkCrashEnv, crashTestCarrier, setSandboxFaults, startJob } from './support.js';

const API_KEY = 'bulk-cancel-crash-321-key';
const SIMS = 200;

let dir: string;
const core = new SandboxCarrier({ carrier: '321' });
let carrier: SandboxServer;
let carrierUrl: string;
let data: DataServices;
let env: Record<string, string>;
let child: RunningProcess | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'line-gateway-bulk-cancel-crash-'));
  ({ carrier, url: carrierUrl } = await crashTestCarrier(core, API_KEY, 10));
  // 4 SIMs in flight on the replica that dies, 16 on the one that takes over: the new run has
  // room for SIMs of its own beside settling the 4 it finds sent.
  env = bulkCrashEnv({ dir, carrierUrl, apiKey: API_KEY, concurrency: 4 });
  data = await openData(loadConfig(env));
});
afterAll(async () => {
  if (child && child.child.exitCode === null) child.child.kill('SIGKILL');
  await data?.close();
  await carrier?.close();
  rmSync(dir, { recursive: true, force: true });
});

const setLatency = (latencyMs: number) => setSandboxFaults(carrierUrl, { latency_ms: latencyMs });

it('a job cancelled and then orphaned by a crash sends no SIM more when it is taken over', async () => {
  const { token } = await bulkCrashCaller(data, 'bulk-cancel-crash', 'BULKCANCEL');
  const gateway = await startCompiledGateway({ ...env, PORT: '0' });
  child = gateway.running;
  const sims = Array.from({ length: SIMS }, () => freshSim());
  const jobId = await startJob(gateway.url, token, sims, 'BULKCANCEL');

  const received = () => sims.filter((sim) => core.activationCalls(sim).requests > 0).length;
  expect(await eventually(async () => received() >= 40, 60_000, 5)).toBe(true);
  // The carrier stalls, so the runner writes nothing more; the cancel lands (flagged: the job's
  // lease is live) and the replica dies before its next write could tell it.
  await setLatency(5_000);
  await cancelJob(data.db, jobId);
  child.child.kill('SIGKILL');
  await child.done;
  expect((await data.db.bulkActivationJob.findUnique({ where: { id: jobId } }))?.cancelRequested).toBe(true);
  await setLatency(0);
  // The calls in flight at the kill still reach the carrier (its latency has them waiting).
  await new Promise((resolve) => setTimeout(resolve, 5_500));
  // What the dead run had taken: the SIMs whose transaction id it reserved.
  const reserved = async () => {
    const items = await data.db.bulkActivationItem.findMany({ where: { jobId }, orderBy: { position: 'asc' } });
    const rows = await data.db.transaction.findMany({
      where: { id: { in: items.map((item) => item.transactionId) } },
      select: { id: true },
    });
    const ids = new Set(rows.map((row) => row.id));
    return { items, sims: items.filter((item) => ids.has(item.transactionId)).map((item) => sims[item.position]!) };
  };
  const takenBefore = (await reserved()).sims;
  expect(takenBefore.length).toBeLessThan(SIMS);

  const next = await startTestGateway({
    env: { ...env, DATA_DIR: join(dir, 'next'), LOG_LEVEL: 'warn', BULK_JOB_CONCURRENCY: '16' },
  });
  try {
    const ended = await eventually(
      async () => (await data.db.bulkActivationJob.findUnique({ where: { id: jobId } }))?.status === 'cancelled',
      30_000,
      100,
    );
    expect(ended).toBe(true);
    // Not one SIM more reserved or sent to the carrier than the dead run had taken...
    const after = await reserved();
    expect(after.sims).toEqual(takenBefore);
    expect(sims.filter((sim) => core.activationCalls(sim).requests > 0)).toEqual(takenBefore);
    // ...and each of those keeps its outcome, those in flight at the kill included.
    expect(after.items.slice(0, takenBefore.length).map((item) => item.status)).toEqual(
      takenBefore.map(() => 'success'),
    );
    expect(after.items.slice(takenBefore.length).every((item) => item.status === 'pending')).toBe(true);
    const view = await next.graphql<{ bulkActivation: { status: string; processed: number } }>(
      'query ($id: String!) { bulkActivation(id: $id, first: 0) { status processed } }',
      { token, variables: { id: jobId } },
    );
    expect(view.data?.bulkActivation).toEqual({ status: 'CANCELLED', processed: takenBefore.length });
  } finally {
    await next.close();
  }
}, 120_000);
