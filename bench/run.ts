// The load benchmark (`npm run bench`): the compiled gateway (`node dist/main.js`), a standalone
// sandbox (`dist/sandbox/main.js`) and a bare graphql-yoga "hello" server, each its own process,
// driven by autocannon (50 connections) in interleaved rounds: bare Yoga, then a scenario, for
// every scenario, BENCH_ROUNDS times. Each scenario is reported as the median over rounds of its
// req/s divided by the bare Yoga run just before it, so load from other processes on the machine
// moves both. Then p99 of GraphQL `usage` at a fixed 300 req/s (an open-loop generator in its own
// process, support/paced.ts, beside bare Yoga at the same rate), bulk activation against the same
// carrier calls made directly, what one carrier call costs through the project's client and without
// ky (support/carrier-client-cost.ts), and the gateway's memory. Writes bench/results/latest.md and .json; exits 1 when a
// target of bench/targets.json is missed. Nothing here runs in the test suite.
//
// BENCH_DURATION (s per run, 5), BENCH_ROUNDS (5), BENCH_BULK_ROUNDS (3), BENCH_USERS (20000), BENCH_ONLY (scenario
// names, comma-separated; `fixed-rate` alone runs only the fixed-rate part), BENCH_FIXED_DURATION
// (s measured at the fixed rate per round, 10), BENCH_CARRIER_CALLS (calls per way and round
// of the carrier-client measurement, 10000; `carrier-client` in BENCH_ONLY runs it alone), BENCH_PROFILE (a directory: the gateway writes a .cpuprofile there),
// BENCH_GATEWAY_ENV (JSON of extra gateway variables, e.g. '{"LOG_LEVEL":"warn"}'), BENCH_GATEWAY_FLAGS
// (node flags for the gateway, space-separated, e.g. '--heap-growing-percent=70'; they appear in the report).

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { bulkActivate, directActivations, type BulkRun } from './support/bulk.js';
import { CONNECTIONS, load, median, type Scenario } from './support/load.js';
import type { PacedResult } from './support/paced.js';
import { pacedLoad } from './support/paced-process.js';
import {
  benchEnv,
  cpuMs,
  freePort,
  IMAGE_RUNTIME_ENV,
  memoryOf,
  sampleMemory,
  startNode,
  stop,
  waitFor,
} from './support/processes.js';
import { measureCarrierClientCost, type CarrierClientCost } from './support/carrier-client-cost.js';
import { databaseStatements } from './support/database-statements.js';
import { evaluate, render, type Measured, type ScenarioRound } from './support/report.js';
import { seed, simOf, type Seeded } from './support/seed.js';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
// Enough that each stays under one request per second in every scenario but the hot user's (the
// regime per-user rate limits force in real life): `me` runs at ~14,000 req/s here.
const USERS = Number(process.env.BENCH_USERS ?? 20_000);
const ONLY = process.env.BENCH_ONLY?.split(',');
const BULK_SIMS = 1000;
const GATEWAY_FLAGS = process.env.BENCH_GATEWAY_FLAGS?.split(' ').filter(Boolean) ?? [];
const BULK_ROUNDS = Number(process.env.BENCH_BULK_ROUNDS ?? 3);
const FIXED_RATE = 300;
// Carrier calls per way and round of the carrier-client measurement (~1 s each here).
const CARRIER_CLIENT_CALLS = Number(process.env.BENCH_CARRIER_CALLS ?? 10_000);
const FIXED_S = Number(process.env.BENCH_FIXED_DURATION ?? 10);
const root = new URL('..', import.meta.url).pathname;
const log = (line: string) => process.stdout.write(`${line}\n`);
const pacedLine = (r: PacedResult) =>
  `p50 ${r.p50} ms, p90 ${r.p90} ms, p99 ${r.p99} ms, max ${r.max} ms (send lag p99 ${r.sendLagP99} ms), ${r.answered}/${r.sent} answered, non-2xx ${r.non2xx}, GraphQL errors ${r.graphqlErrors}, errors ${r.errors}, CPU ${r.cpuMsPerRequest} ms/req (${r.cpuMsPerSecond} ms/s); p99 by second ${r.seconds.map((s) => Math.round(s.p99)).join(' ')}`;

/** Clients send values as variables: one document per scenario, parsed and validated once (Yoga caches by document). */
const graphql = (query: string, variables?: Record<string, unknown>) => JSON.stringify({ query, variables });
const withoutErrors = (body: string) => (body.includes('"errors"') ? 'refused' : 'ok');

/** The scenarios, by name; each request rotates through the users (user n mod USERS). */
function scenarios(base: string, seeded: Seeded): Record<string, Scenario> {
  const { users, sharedMdns } = seeded;
  const userOf = (n: number) => users[n % users.length]!;
  const suspended = new Set<string>();
  return {
    'rest-usage': {
      url: base,
      users: users.length,
      next: (n) => ({ method: 'GET', path: `/sim/usage/${userOf(n).mdn}`, token: userOf(n).token }),
    },
    'graphql-usage': {
      url: base,
      users: users.length,
      next: (n) => ({
        method: 'POST',
        path: '/graphql',
        token: userOf(n).token,
        body: graphql(
          'query Usage($mdn: String!) { usage(mdn: $mdn) { status planName balanceDetails { talk text data } } }',
          {
            mdn: userOf(n).mdn,
          },
        ),
      }),
      classify: withoutErrors,
    },
    'graphql-me': {
      url: base,
      users: users.length,
      next: (n) => ({
        method: 'POST',
        path: '/graphql',
        token: userOf(n).token,
        body: graphql('{ me { name superuser } }'),
      }),
      classify: withoutErrors,
    },
    'lines-screen': {
      url: base,
      users: users.length,
      next: (n) => ({
        method: 'POST',
        path: '/graphql',
        token: userOf(n).token,
        body: graphql(
          'query Screen($mdns: [String!]!) { lines(mdns: $mdns) { mdn usage { status planName } networkStatus { status } } }',
          { mdns: sharedMdns },
        ),
      }),
      classify: withoutErrors,
    },
    // Each user suspends, then restores, the one line they own. The bench follows each line's
    // state from the answers; a request still in flight when a run ends is acted on but its
    // answer is never read, so the next one on that line may be refused as redundant (935:
    // already suspended, GENS-0033: not suspended): that answer only resyncs the state.
    mutation: {
      url: base,
      users: users.length,
      next: (n) => {
        const user = userOf(n);
        const field = suspended.has(user.mdn) ? 'restoreLine' : 'suspendLine';
        return {
          method: 'POST',
          path: '/graphql',
          token: user.token,
          body: graphql(`mutation Toggle($mdn: String!) { ${field}(input: { mdn: $mdn }) { status mdn errorCode } }`, {
            mdn: user.mdn,
          }),
        };
      },
      classify: (body) => {
        const answer =
          /"(suspendLine|restoreLine)":\{"status":"(SUCCESS|FAILURE)","mdn":"(\d+)","errorCode":(null|"[^"]*")/.exec(
            body,
          );
        if (!answer) return 'refused';
        const [, field, status, mdn, code] = answer;
        const nowSuspended = field === 'suspendLine';
        const redundant = code === (nowSuspended ? '"935"' : '"GENS-0033"');
        if (status === 'FAILURE' && !redundant) return 'refused';
        if (nowSuspended) suspended.add(mdn!);
        else suspended.delete(mdn!);
        return status === 'SUCCESS' ? 'ok' : 'resynced';
      },
    },
    // One user, every request: `me` has no per-operation rate limit and costs no budget, so
    // nothing needs raising (a hot user's `usage` would meet its 60/min limit by design).
    'hot-user-me': {
      url: base,
      users: 1,
      next: () => ({
        method: 'POST',
        path: '/graphql',
        token: users[0]!.token,
        body: graphql('{ me { name superuser } }'),
      }),
      classify: withoutErrors,
    },
  };
}

async function main(): Promise<void> {
  log('building dist/ when stale…');
  if (spawnSync(process.execPath, [join(root, 'scripts/ensure-build.mjs')], { stdio: 'inherit' }).status !== 0)
    throw new Error('build failed');
  const dir = mkdtempSync(join(tmpdir(), 'line-gateway-bench-'));
  const [gatewayPort, yogaPort, port321, portB] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const env = benchEnv(dir, { gateway: gatewayPort, carrier321: port321, carrierB: portB });
  const loadAtStart = loadavg();
  const sandbox = startNode(join(root, 'dist/sandbox/main.js'), [], env);
  const yoga = startNode(join(root, 'bench/yoga-hello.mjs'), [String(yogaPort)], {});
  const profile = process.env.BENCH_PROFILE;
  let gateway: ReturnType<typeof startNode> | undefined;
  try {
    await waitFor(`http://127.0.0.1:${port321}/_sandbox/clock`);
    log(`seeding ${USERS} users with tokens and one line each, and 10 shared lines…`);
    const config = loadConfig(env);
    const seeded = await seed(config, { users: USERS, sharedLines: 10, log });
    gateway = startNode(join(root, 'dist/main.js'), [], { ...IMAGE_RUNTIME_ENV, ...env }, [
      ...GATEWAY_FLAGS,
      ...(profile ? ['--cpu-prof', '--cpu-prof-dir', profile] : []),
    ]);
    const base = `http://127.0.0.1:${gatewayPort}`;
    const yogaUrl = `http://127.0.0.1:${yogaPort}`;
    await waitFor(`${base}/livez`);
    await waitFor(`${yogaUrl}/graphql?query=%7Bhello%7D`);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const idle = memoryOf(gateway.pid!);
    log(`gateway idle: ${idle.rssMb} MB RSS`);
    const sampler = sampleMemory(gateway.pid!);

    const onGateway = { pid: gateway.pid! };
    const bareYoga: Scenario = {
      url: yogaUrl,
      next: () => ({ method: 'POST', path: '/graphql', body: graphql('{ hello }') }),
    };
    const all = scenarios(base, seeded);
    const chosen = Object.entries(all).filter(([name]) => !ONLY || ONLY.includes(name));
    const runs: Record<string, ScenarioRound[]> = {};
    // Steady state: every user's token, user record and line home read once (then cached for
    // minutes, invalidated by events), as a replica that has served them before has them.
    // Without it the first round of the first scenarios also measures USERS first reads.
    log(`warming the caches: one REST usage request per user…`);
    sampler.phase = 'the cache warm-up';
    await load(all['rest-usage']!, { durationS: 0, amount: USERS });
    const rounds = async (phase: [string, Scenario][]) => {
      for (const [name, scenario] of phase) {
        sampler.phase = `the ${name} warm-up`;
        await load(scenario, { durationS: 1 }); // warm-up: JIT, connections, first-use caches
        runs[name] = [];
      }
      await load(bareYoga, { durationS: 1 });
      for (let round = 1; round <= ROUNDS; round++) {
        for (const [name, scenario] of phase) {
          const yogaRun = await load(bareYoga, { durationS: DURATION_S, pid: yoga.pid! });
          // The sandbox stands in for carriers on other machines, yet shares these two cores.
          const sandboxCpuBefore = cpuMs(sandbox.pid!);
          sampler.phase = `the ${name} rounds`;
          const statementsBefore = await databaseStatements(base);
          const run = await load(scenario, { durationS: DURATION_S, ...onGateway });
          const statements = (await databaseStatements(base)) - statementsBefore;
          const sandboxCpu = (cpuMs(sandbox.pid!) - sandboxCpuBefore) / Math.max(1, run.requestsPerSecond * DURATION_S);
          runs[name]!.push({ yoga: yogaRun, scenario: run, databaseStatements: statements });
          log(
            `round ${round} ${name}: ${run.requestsPerSecond} req/s (bare Yoga ${yogaRun.requestsPerSecond}), ratio ${(run.requestsPerSecond / yogaRun.requestsPerSecond).toFixed(3)}, CPU ${run.cpuMsPerRequest!.toFixed(2)} ms/req (bare Yoga ${yogaRun.cpuMsPerRequest!.toFixed(3)}, sandbox ${sandboxCpu.toFixed(2)}), RSS ${run.rssMbAfter} MB, ${statements} SQL statements, p50 ${run.p50} ms, p99 ${run.p99} ms, non-2xx ${run.non2xx}, refused ${run.refused}, resynced ${run.resynced}, errors ${run.errors}`,
          );
        }
      }
    };
    // The writes run after the reads and the fixed rate: a round of the mutation scenario
    // changes the status of ~5,000 lines, and a changed line's home is dropped from the cache
    // (its status is part of it), so the next read of each is a database read. Interleaved, the
    // REST rounds that followed it paid ~0.7 statements a request, and GraphQL's after it none.
    const writes = new Set(['mutation']);
    await rounds(chosen.filter(([name]) => !writes.has(name)));

    let fixedRate: Measured['fixedRate'];
    if (!ONLY || ONLY.includes('graphql-usage') || ONLY.includes('fixed-rate')) {
      sampler.phase = 'the fixed rate';
      // Alone, it first runs GraphQL usage for 3 s (its code JIT-compiled), as the throughput runs
      // do before it otherwise; the caches are warm already (above).
      if (ONLY && !ONLY.includes('graphql-usage')) await load(all['graphql-usage']!, { durationS: 3 });
      // Open loop, from its own process, latency from each request's due time (paced.ts), in
      // interleaved rounds like the throughput runs: bare Yoga at the same rate with the same
      // generator (the floor of the harness and the machine), then the gateway after 3 s at the
      // rate (it has just been idle while Yoga was measured: the first seconds after idle are
      // slower, see docs/performance.md, "Tail latency").
      const rounds: { gateway: PacedResult; yoga: PacedResult; loadAverage: number }[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        const yogaPaced = await pacedLoad(bareYoga, { rate: FIXED_RATE, durationS: FIXED_S, cpuPid: yoga.pid! });
        log(`round ${round} bare Yoga at ${FIXED_RATE} req/s: ${pacedLine(yogaPaced)}`);
        const gatewayPaced = await pacedLoad(all['graphql-usage']!, {
          rate: FIXED_RATE,
          durationS: FIXED_S,
          warmupS: 3,
          graphqlErrorsFail: true,
          cpuPid: gateway.pid!,
        });
        log(`round ${round} graphql-usage at ${FIXED_RATE} req/s: ${pacedLine(gatewayPaced)}`);
        rounds.push({ gateway: gatewayPaced, yoga: yogaPaced, loadAverage: loadavg()[0]! });
      }
      fixedRate = {
        rate: FIXED_RATE,
        durationS: FIXED_S,
        p99: median(rounds.map((r) => r.gateway.p99)),
        yogaP99: median(rounds.map((r) => r.yoga.p99)),
        rounds,
      };
    }

    await rounds(chosen.filter(([name]) => writes.has(name)));

    let bulk: Measured['bulk'];
    if (!ONLY || ONLY.includes('bulk')) {
      const sims = (block: number) => Array.from({ length: BULK_SIMS }, (_, i) => simOf(block, i));
      const tokens = (from: number, to?: number) => seeded.users.slice(from, to).map((user) => user.token);
      // Each job has ten users of its own (a user may start 10 jobs or batches an hour).
      const usersOf = (job: number) =>
        seeded.users.length >= 10 * (job + 1) ? tokens(-10 * (job + 1), -10 * job || undefined) : tokens(0, 1);
      // The direct calls run in this process, whose adapter is warm from seeding (2,000+
      // activations); the gateway's bulk path (job runner, batches, prepared statements) is
      // compiled by its first jobs: measured with bench/bulk-cpu.ts, a fresh gateway's jobs cost
      // ~1.6, ~1.1–1.3, then 0.85–0.98 ms of CPU a SIM from the third on. Like every other
      // scenario the judged jobs are warm ones: two jobs run first and are reported beside.
      // Then BULK_ROUNDS interleaved pairs (the direct calls, then a job of the same size), as the
      // other scenarios' rounds: the figure is the median pair's ratio.
      sampler.phase = 'bulk activation';
      const cold = await bulkActivate(base, usersOf(0), sims(6));
      const second = await bulkActivate(base, usersOf(1), sims(5));
      const pairs: { ms: number; directMs: number; ratio: number; run: BulkRun }[] = [];
      for (let round = 0; round < BULK_ROUNDS; round++) {
        const directMs = await directActivations(config, sims(20 + 2 * round));
        const run = await bulkActivate(base, usersOf(2 + round), sims(21 + 2 * round));
        pairs.push({ ms: run.ms, directMs, ratio: run.ms / directMs, run });
        log(
          `bulk round ${round + 1}: ${Math.round(run.ms)} ms through the gateway (${run.driver}), ${Math.round(directMs)} ms of direct carrier calls, ratio ${(run.ms / directMs).toFixed(3)}`,
        );
      }
      const judged = [...pairs].sort((x, y) => x.ratio - y.ratio)[Math.floor(pairs.length / 2)]!;
      bulk = {
        ...judged.run,
        sims: BULK_SIMS,
        directMs: judged.directMs,
        ratio: judged.ratio,
        coldMs: cold.ms,
        secondMs: second.ms,
        rounds: pairs.map(({ ms, directMs, ratio }) => ({ ms, directMs, ratio })),
      };
      log(`bulk ${BULK_SIMS} SIMs: the first job ${Math.round(cold.ms)} ms, the second ${Math.round(second.ms)} ms`);
    }
    const during = sampler.stop();

    // With the gateway idle: what the carrier client makes of a `usage` read's one carrier call,
    // in this process, through ky and without it (carrier-client-cost.ts).
    let carrierClient: CarrierClientCost | undefined;
    if (!ONLY || ONLY.includes('rest-usage') || ONLY.includes('carrier-client')) {
      carrierClient = await measureCarrierClientCost(
        {
          baseUrl: config.CARRIER_321_URL!,
          headers: { 'X-Api-Key': config.CARRIER_321_API_KEY!, accept: 'application/json' },
          path: `v1/subscribers/${encodeURIComponent(seeded.users[0]!.mdn)}/balances`,
          timeoutMs: config.CARRIER_TIMEOUT_MS,
          retries: config.CARRIER_RETRIES,
        },
        { calls: CARRIER_CLIENT_CALLS, inFlight: 20, rounds: ROUNDS },
      );
      for (const [index, r] of carrierClient.rounds.entries())
        log(
          `carrier client round ${index + 1}: ${r.client.toFixed(1)} µs a call through the client, ${r.ky.toFixed(1)} through ky alone, ${r.dispatch.toFixed(1)} dispatched`,
        );
    }

    const measured: Measured = {
      machine: {
        cores: cpus().length,
        cpu: cpus()[0]?.model ?? 'unknown',
        memoryGiB: Math.round(totalmem() / 2 ** 30),
        node: process.version,
        loadAverage: { atStart: loadAtStart[0]!, atEnd: loadavg()[0]! },
      },
      setup: {
        users: USERS,
        rounds: ROUNDS,
        durationS: DURATION_S,
        connections: CONNECTIONS,
        gatewayEnv: JSON.parse(process.env.BENCH_GATEWAY_ENV ?? '{}') as Record<string, string>,
        gatewayFlags: GATEWAY_FLAGS,
      },
      scenarios: Object.fromEntries(
        Object.entries(runs).map(([name, list]) => [
          name,
          {
            ratio: median(list.map((r) => r.scenario.requestsPerSecond / r.yoga.requestsPerSecond)),
            cpuRatio: median(list.map((r) => r.yoga.cpuMsPerRequest! / r.scenario.cpuMsPerRequest!)),
            cpuMsPerRequest: median(list.map((r) => r.scenario.cpuMsPerRequest!)),
            highestRssMb: Math.max(...list.map((r) => r.scenario.rssMbAfter!)),
            requestsPerSecond: median(list.map((r) => r.scenario.requestsPerSecond)),
            yogaRequestsPerSecond: median(list.map((r) => r.yoga.requestsPerSecond)),
            p50: median(list.map((r) => r.scenario.p50)),
            p99: median(list.map((r) => r.scenario.p99)),
            failures: list.reduce((sum, r) => sum + r.scenario.non2xx + r.scenario.errors + r.scenario.refused, 0),
            users: all[name]!.users!,
            busiestUserRate: Math.max(...list.map((r) => r.scenario.requestsPerSecond)) / all[name]!.users!,
            statementsPerRequest:
              list.reduce((sum, r) => sum + r.databaseStatements, 0) /
              Math.max(
                1,
                list.reduce((sum, r) => sum + r.scenario.requests, 0),
              ),
            rounds: list,
          },
        ]),
      ),
      fixedRate,
      bulk,
      carrierClient,
      memory: {
        idleMb: idle.rssMb,
        peakMb: Math.max(during.rssMb, during.peakMb),
        highestSampleMb: during.rssMb,
        highestDuring: during.highestDuring,
      },
    };
    const targets = JSON.parse(readFileSync(join(root, 'bench/targets.json'), 'utf8')) as Record<string, unknown>;
    const verdicts = evaluate(measured, targets);
    const report = render(measured, verdicts);
    mkdirSync(join(root, 'bench/results'), { recursive: true });
    writeFileSync(join(root, 'bench/results/latest.md'), report);
    writeFileSync(
      join(root, 'bench/results/latest.json'),
      `${JSON.stringify({ ...measured, verdicts, passed: verdicts.every((v) => v.pass) }, null, 2)}\n`,
    );
    log(`\n${report}`);
    process.exitCode = verdicts.every((v) => v.pass) ? 0 : 1;
  } finally {
    await Promise.all([gateway && stop(gateway), stop(sandbox), stop(yoga)]);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
