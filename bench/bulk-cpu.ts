// The gateway's CPU per SIM of a bulk activation job, on its own (`npx tsx bench/bulk-cpu.ts`):
// the compiled gateway and the standalone sandbox, then BULK_JOBS jobs of 1,000 SIMs one after
// the other (the first warms the JIT up), each followed over SSE as the bench does. Per job it
// prints the wall time and the gateway's and the sandbox's CPU (utime + stime from /proc) ÷ SIMs:
// steadier than the bench's one cold job, and what a change to the job's per-SIM work moves.
//
// BULK_ROOT (a package root whose dist/ to run, default this checkout: compare a build of
// another commit in alternating runs), BULK_JOBS (4), BULK_SIMS (1000), BULK_PROFILE (a
// directory: the gateway writes a .cpuprofile there, and the jobs' windows go to windows.json
// beside it: each job's start and end in the profile's clock, µs).

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { bulkActivate, directActivations } from './support/bulk.js';
import { benchEnv, cpuMs, freePort, startNode, stop, waitFor } from './support/processes.js';
import { seed, simOf } from './support/seed.js';

const JOBS = Number(process.env.BULK_JOBS ?? 4);
const SIMS = Number(process.env.BULK_SIMS ?? 1000);
const here = new URL('..', import.meta.url).pathname;
const root = process.env.BULK_ROOT ?? here;
const profile = process.env.BULK_PROFILE;
const log = (line: string) => process.stdout.write(`${line}\n`);
/** The monotonic clock V8's profiles are stamped with, in µs. */
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/** Write syscalls the process has made (`syscw` of /proc/<pid>/io): socket, log and WAL writes alike. */
const writeSyscalls = (pid: number) => Number(/syscw: (\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? 0);

async function main(): Promise<void> {
  if (
    root === here &&
    spawnSync(process.execPath, [join(here, 'scripts/ensure-build.mjs')], { stdio: 'inherit' }).status
  )
    throw new Error('build failed');
  const dir = mkdtempSync(join(tmpdir(), 'line-gateway-bulk-cpu-'));
  const [gatewayPort, port321, portB] = await Promise.all([freePort(), freePort(), freePort()]);
  const env = benchEnv(dir, { gateway: gatewayPort, carrier321: port321, carrierB: portB });
  const sandbox = startNode(join(root, 'dist/sandbox/main.js'), [], env);
  let gateway: ReturnType<typeof startNode> | undefined;
  try {
    await waitFor(`http://127.0.0.1:${port321}/_sandbox/clock`);
    const config = loadConfig(env);
    // A job per user: startBulkActivation allows each 10 an hour.
    const seeded = await seed(config, { users: JOBS, sharedLines: 0, log });
    if (profile) mkdirSync(profile, { recursive: true });
    gateway = startNode(join(root, 'dist/main.js'), [], env, profile ? ['--cpu-prof', '--cpu-prof-dir', profile] : []);
    const base = `http://127.0.0.1:${gatewayPort}`;
    await waitFor(`${base}/livez`);
    const sims = (block: number) => Array.from({ length: SIMS }, (_, i) => simOf(block, i));
    const directMs = await directActivations(config, sims(9));
    log(`root ${root}; direct calls of ${SIMS} SIMs: ${Math.round(directMs)} ms`);
    const windows: { startUs: number; endUs: number }[] = [];
    for (let job = 0; job < JOBS; job++) {
      const gatewayBefore = cpuMs(gateway.pid!);
      const writesBefore = writeSyscalls(gateway.pid!);
      const sandboxBefore = cpuMs(sandbox.pid!);
      const startUs = nowUs();
      const run = await bulkActivate(base, [seeded.users[job]!.token], sims(10 + job));
      windows.push({ startUs, endUs: nowUs() });
      const perSim = (ms: number) => (ms / SIMS).toFixed(2);
      log(
        `job ${job + 1}: ${Math.round(run.ms)} ms (ratio ${(run.ms / directMs).toFixed(2)}), ${run.activated} activated, gateway CPU ${perSim(cpuMs(gateway.pid!) - gatewayBefore)} ms/SIM, sandbox ${perSim(cpuMs(sandbox.pid!) - sandboxBefore)} ms/SIM, ${((writeSyscalls(gateway.pid!) - writesBefore) / SIMS).toFixed(1)} write syscalls/SIM, load ${loadavg()[0]!.toFixed(1)}`,
      );
    }
    if (profile) writeFileSync(join(profile, 'windows.json'), JSON.stringify(windows));
  } finally {
    if (gateway) await stop(gateway);
    await stop(sandbox);
  }
}

await main();
