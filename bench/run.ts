// The load benchmark: starts a sandbox process and a gateway process (as in a deployment),
// seeds users, a plan and a line, then drives scenarios with autocannon (50 connections),
// and writes bench/results/latest.md and .json. Exits 1 when a target of targets.json is
// missed. Run with `npm run bench`; nothing here runs in the test suite.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { openData } from '../src/app/data.js';
import { loadConfig } from '../src/config.js';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const ONLY = process.env.BENCH_ONLY?.split(',');
const CONNECTIONS = 50;
/** Users per scenario: each scenario draws on its own pool so that the per-user rate limits
 * (60/min for a query, shared by REST and GraphQL) are not what is measured. */
const USERS_PER_SCENARIO = 600;
const TOKEN_SCENARIOS = ['rest-usage', 'graphql-usage', 'graphql-me'];

interface Targets {
  [scenario: string]: { minRequestsPerSecond: number } | number | string;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function start(args: string[], env: NodeJS.ProcessEnv, profile = false): ChildProcess {
  // BENCH_PROFILE=dir writes a CPU profile of the gateway there (open it in Chrome DevTools).
  const flags = profile && process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE] : [];
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', () => undefined);
  return child;
}

async function waitFor(url: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not come up`);
}

function rssMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'line-gateway-bench-'));
  const [gatewayPort, port321, portB] = await Promise.all([freePort(), freePort(), freePort()]);
  const env = {
    DATABASE_URL: `file:${join(dir, 'gateway.db')}`,
    DATA_DIR: dir,
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
    LOG_LEVEL: 'error',
    PORT: String(gatewayPort),
    SANDBOX_321_PORT: String(port321),
    SANDBOX_CARRIER_B_PORT: String(portB),
    CARRIER_321_URL: `http://127.0.0.1:${port321}`,
    CARRIER_321_API_KEY: 'sandbox-321-key',
    CARRIER_B_URL: `http://127.0.0.1:${portB}`,
    CARRIER_B_ACCOUNT_ID: 'sandbox-b-account',
    CARRIER_B_API_SECRET: 'sandbox-b-secret',
  };

  // Seed users and a plan before the gateway starts (same database, same secret).
  const data = await openData(loadConfig(env));
  await data.directory.createPlan({ planId: 'BENCH', name: 'Bench plan', carrierPlanId: 'BASIC1GB' });
  const tokens: string[] = [];
  for (let i = 0; i < USERS_PER_SCENARIO * TOKEN_SCENARIOS.length; i++) {
    const user = await data.directory.createUser({ name: `bench${i}` });
    await data.directory.authorize(user.name, ['BENCH']);
    tokens.push((await data.tokens.issue(user, '2h')).token);
  }
  await data.close();

  const sandbox = start(['src/sandbox/main.ts'], env);
  const gateway = start(['src/main.ts'], env, true);
  const base = `http://127.0.0.1:${gatewayPort}`;
  try {
    await waitFor(`http://127.0.0.1:${port321}/_sandbox/clock`);
    await waitFor(`${base}/healthz`);
    const activation = await fetch(`${base}/sim/activate/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens[0]}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        sim: '89010000000000000077',
        plan_id: 'BENCH',
        zip_code: '30301',
        address1: '1 Main St',
        city: 'Atlanta',
        state: 'GA',
      }),
    });
    const line = (await activation.json()) as { mdn?: string };
    if (!line.mdn) throw new Error(`activation failed: ${JSON.stringify(line)}`);

    const idle = rssMb(gateway.pid!);
    const pools = new Map(
      TOKEN_SCENARIOS.map((name, index) => [
        name,
        tokens.slice(index * USERS_PER_SCENARIO, (index + 1) * USERS_PER_SCENARIO),
      ]),
    );
    let next = 0;
    const rotatingIn = (pool: string[]) => (request: autocannon.Request) => ({
      ...request,
      headers: { ...request.headers, authorization: `Bearer ${pool[next++ % pool.length]}` },
    });
    const rotating = (scenario: string) => rotatingIn(pools.get(scenario)!);
    const scenarios: Record<string, autocannon.Options> = {
      healthz: { url: `${base}/healthz` },
      'rest-usage': {
        url: base,
        requests: [{ method: 'GET', path: `/sim/usage/${line.mdn}`, setupRequest: rotating('rest-usage') }],
      },
      'graphql-usage': {
        url: base,
        requests: [
          {
            method: 'POST',
            path: '/graphql',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              query: `{ usage(mdn: "${line.mdn}") { status planName balanceDetails { talk text data } } }`,
            }),
            setupRequest: rotating('graphql-usage'),
          },
        ],
      },
      'graphql-me': {
        url: base,
        requests: [
          {
            method: 'POST',
            path: '/graphql',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query: '{ me { name superuser } }' }),
            setupRequest: rotating('graphql-me'),
          },
        ],
      },
    };

    const results: Record<
      string,
      { requestsPerSecond: number; p50: number; p99: number; non2xx: number; errors: number }
    > = {};
    for (const [name, options] of Object.entries(scenarios)) {
      if (ONLY && !ONLY.includes(name)) continue;
      await autocannon({ ...options, connections: CONNECTIONS, duration: 2 }); // warm-up
      const result = await autocannon({ ...options, connections: CONNECTIONS, duration: DURATION_S });
      results[name] = {
        requestsPerSecond: Math.round(result.requests.average),
        p50: result.latency.p50,
        p99: result.latency.p99,
        non2xx: result.non2xx,
        errors: result.errors,
      };
      process.stdout.write(
        `${name}: ${results[name].requestsPerSecond} req/s, p50 ${results[name].p50} ms, p99 ${results[name].p99} ms, non-2xx ${result.non2xx}\n`,
      );
    }
    const memory = rssMb(gateway.pid!);

    const targets = JSON.parse(readFileSync(new URL('./targets.json', import.meta.url), 'utf8')) as Targets;
    const verdicts: string[] = [];
    for (const [name, result] of Object.entries(results)) {
      const target = targets[name] as { minRequestsPerSecond: number } | undefined;
      if (!target) continue;
      const ok = result.requestsPerSecond >= target.minRequestsPerSecond && result.non2xx === 0 && result.errors === 0;
      verdicts.push(
        `| ${name} | ${result.requestsPerSecond} | ≥ ${target.minRequestsPerSecond} | ${result.p50} / ${result.p99} | ${result.non2xx} | ${ok ? 'PASS' : 'FAIL'} |`,
      );
    }
    const memoryOk = idle.rss <= (targets.maxIdleRssMb as number) && memory.peak <= (targets.maxPeakRssMb as number);
    const passed = verdicts.every((row) => row.endsWith('PASS |')) && memoryOk;

    const report = [
      `# Benchmark result`,
      '',
      `${new Date().toISOString()} — ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}.`,
      `autocannon, ${CONNECTIONS} connections, ${DURATION_S} s per scenario after a 2 s warm-up; gateway, sandbox carriers and load generator as three processes on this machine; ${USERS_PER_SCENARIO} users with rotating tokens per scenario (so per-user rate limits are not what is measured).`,
      '',
      '| Scenario | req/s | target | latency p50 / p99 (ms) | non-2xx | verdict |',
      '|---|---|---|---|---|---|',
      ...verdicts,
      '',
      `Gateway memory: ${idle.rss} MB RSS when idle after start-up (target ≤ ${targets.maxIdleRssMb as number} MB), ${memory.rss} MB after the run, peak ${memory.peak} MB (target ≤ ${targets.maxPeakRssMb as number} MB): ${memoryOk ? 'PASS' : 'FAIL'}.`,
      "The idle floor is mostly Node with the tsx loader (~85 MB) and Prisma's query compiler (~80 MB, outside the JS heap); the JS heap itself is ~40 MB.",
      '',
      `Overall: ${passed ? 'PASS' : 'FAIL'}`,
      '',
    ].join('\n');
    mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
    writeFileSync(new URL('./results/latest.md', import.meta.url), report);
    writeFileSync(
      new URL('./results/latest.json', import.meta.url),
      `${JSON.stringify({ results, memory: { idle, ...memory }, passed }, null, 2)}\n`,
    );
    process.stdout.write(`\n${report}`);
    process.exitCode = passed ? 0 : 1;
  } finally {
    gateway.kill('SIGTERM');
    sandbox.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
