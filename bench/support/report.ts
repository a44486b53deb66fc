// The benchmark's verdicts against bench/targets.json and its Markdown report.

import { median, type LoadResult } from './load.js';
import type { BulkRun } from './bulk.js';
import type { CarrierClientCost } from './carrier-client-cost.js';
import type { PacedResult } from './paced.js';
import { IMAGE_RUNTIME_ENV } from './processes.js';

export interface ScenarioFigures {
  /** Median over rounds of req/s ÷ bare Yoga's req/s in the run just before. */
  ratio: number;
  /** Median of bare Yoga's CPU ms per request ÷ the scenario's: the ratio an idle machine would show when CPU-bound. */
  cpuRatio: number;
  cpuMsPerRequest: number;
  /** Highest gateway RSS at the end of one of its runs, MB. */
  highestRssMb: number;
  requestsPerSecond: number;
  yogaRequestsPerSecond: number;
  p50: number;
  p99: number;
  /** non-2xx, socket errors and timeouts, and answers the scenario's check refused, all rounds. */
  failures: number;
  /** Users the requests rotate through (1: the hot user). */
  users: number;
  /** Each user's requests per second in the scenario's fastest round. */
  busiestUserRate: number;
  /** SQL statements the gateway sent per request over all rounds (its background loops included). */
  statementsPerRequest: number;
  rounds: ScenarioRound[];
}

export interface ScenarioRound {
  yoga: LoadResult;
  scenario: LoadResult;
  /** SQL statements the gateway sent during the scenario's run. */
  databaseStatements: number;
}

export interface Measured {
  machine: {
    cores: number;
    cpu: string;
    memoryGiB: number;
    node: string;
    loadAverage: { atStart: number; atEnd: number };
  };
  setup: {
    users: number;
    rounds: number;
    durationS: number;
    connections: number;
    gatewayEnv: Record<string, string>;
    gatewayFlags: string[];
  };
  scenarios: Record<string, ScenarioFigures>;
  /**
   * GraphQL `usage` at a fixed rate, and bare Yoga at the same rate with the same generator (the
   * floor of the harness and the machine), in interleaved rounds; p99s are medians over rounds.
   */
  fixedRate?: {
    rate: number;
    durationS: number;
    p99: number;
    yogaP99: number;
    rounds: { gateway: PacedResult; yoga: PacedResult; loadAverage: number }[];
  };
  bulk?: BulkRun & {
    sims: number;
    directMs: number;
    ratio: number;
    coldMs: number;
    secondMs: number;
    /** Interleaved pairs (the direct calls, then a job); the figure is the median pair's. */
    rounds: { ms: number; directMs: number; ratio: number }[];
  };
  /** One carrier `usage` read's CPU in the bench process, through the project's client and without ky. */
  carrierClient?: CarrierClientCost;
  memory: {
    idleMb: number;
    peakMb: number;
    highestSampleMb: number;
    /** What the bench was doing at the highest sample. */ highestDuring?: string;
  };
}

export interface Verdict {
  row: string;
  value: number | null;
  target: string;
  pass: boolean;
}

interface Bound {
  min?: number;
  max?: number;
}

function check(row: string, value: number | undefined, bound: Bound | undefined, unit = ''): Verdict | null {
  if (!bound) return null;
  const target = bound.min !== undefined ? `≥ ${bound.min}${unit}` : `≤ ${bound.max}${unit}`;
  if (value === undefined || !Number.isFinite(value)) return { row, value: null, target, pass: false };
  const pass = (bound.min === undefined || value >= bound.min) && (bound.max === undefined || value <= bound.max);
  return { row, value, target, pass };
}

/**
 * GraphQL `usage` against REST `usage`, the same operation: the median over rounds of GraphQL's
 * req/s ÷ REST's in the same round (seconds apart). The quotient of the two rows' ratios divides
 * by two different bare Yoga runs as well, whose own swings (±5–10 % from one run to the next)
 * have nothing to do with either lane: it is reported beside, not judged.
 */
export function graphqlOverRestOf(
  measured: Pick<Measured, 'scenarios'>,
): { sameRound: number; ofRatios: number } | null {
  const graphql = measured.scenarios['graphql-usage'];
  const rest = measured.scenarios['rest-usage'];
  if (!graphql || !rest) return null;
  const rounds = Math.min(graphql.rounds.length, rest.rounds.length);
  const perRound = Array.from(
    { length: rounds },
    (_, index) => graphql.rounds[index]!.scenario.requestsPerSecond / rest.rounds[index]!.scenario.requestsPerSecond,
  );
  return { sameRound: median(perRound), ofRatios: graphql.ratio / rest.ratio };
}

export function evaluate(measured: Measured, targets: Record<string, unknown>): Verdict[] {
  const ratios = (targets.ratios ?? {}) as Record<string, Bound>;
  const verdicts: (Verdict | null)[] = [];
  for (const [name, figures] of Object.entries(measured.scenarios)) {
    const verdict = check(`${name} ÷ bare Yoga`, figures.ratio, ratios[name]);
    // A scenario whose answers were wrong measured something else: it fails whatever its speed.
    if (verdict) verdicts.push({ ...verdict, pass: verdict.pass && figures.failures === 0 });
    else if (figures.failures > 0)
      verdicts.push({ row: `${name} answers`, value: figures.failures, target: '0 failures', pass: false });
  }
  const graphqlOverRest = graphqlOverRestOf(measured);
  if (graphqlOverRest)
    verdicts.push(check('GraphQL usage ÷ REST usage', graphqlOverRest.sameRound, targets.graphqlOverRest as Bound));
  if (measured.bulk)
    verdicts.push(
      check(
        `bulk ${measured.bulk.sims} SIMs ÷ direct carrier calls`,
        measured.bulk.ratio,
        targets.bulkOverDirect as Bound,
      ),
    );
  if (measured.fixedRate) {
    const { p99, rate, rounds } = measured.fixedRate;
    const verdict = check(`GraphQL usage p99 at ${rate} req/s`, p99, targets.fixedRateP99Ms as Bound, ' ms');
    // Failed or unanswered requests would leave the slowest out of the tail.
    const failures = rounds.reduce((sum, r) => sum + failuresOf(r.gateway), 0);
    if (verdict) verdicts.push({ ...verdict, pass: verdict.pass && failures === 0 });
  }
  verdicts.push(check('idle RSS', measured.memory.idleMb, targets.idleRssMb as Bound, ' MB'));
  verdicts.push(check('peak RSS', measured.memory.peakMb, targets.peakRssMb as Bound, ' MB'));
  return verdicts.filter((verdict): verdict is Verdict => verdict !== null);
}

const failuresOf = (r: PacedResult) => r.sent - r.answered + r.non2xx + r.graphqlErrors;

const fixed = (value: number, digits = 3) => value.toFixed(digits).replace(/\.?0+$/, '');

function fixedRateSection({ rate, durationS, p99, yogaP99, rounds }: NonNullable<Measured['fixedRate']>): string[] {
  const row = (name: string, round: number, r: PacedResult, loadAverage: number) =>
    `| ${round} | ${name} | ${r.p50} | ${r.p90} | ${r.p99} | ${r.max} | ${r.sendLagP99} | ${r.cpuMsPerRequest ?? '–'} | ${r.cpuMsPerSecond ?? '–'} | ${r.answered}/${r.sent} | ${failuresOf(r)} | ${fixed(loadAverage, 2)} |`;
  return [
    `Tail latency at a fixed ${rate} req/s: GraphQL \`usage\` p99 ${fixed(p99, 1)} ms, bare Yoga \`{ hello }\` at the same rate ${fixed(yogaP99, 1)} ms (medians of ${rounds.length} interleaved rounds of ${durationS} s; the gateway after 3 s at the rate, Yoga after 1 s). An open-loop generator in a process of its own (bench/support/paced.ts, undici keep-alive pool of 64 connections) sends request i at t0 + i × ${fixed(1000 / rate, 2)} ms whatever the earlier answers did, and each latency runs from that scheduled time to the end of the answer, so time spent queued behind a slow answer counts (no coordinated omission). "send lag" is how late the generator itself sent; bare Yoga's figures are the floor that the harness and the machine's other load leave. CPU is the server's, over the measured requests.`,
    '',
    '| Round | At a fixed rate | p50 (ms) | p90 | p99 | max | send lag p99 | CPU ms/req | CPU ms/s | answered | failures | load avg |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rounds.flatMap((r, i) => [
      row('bare Yoga hello', i + 1, r.yoga, r.loadAverage),
      row('GraphQL usage', i + 1, r.gateway, r.loadAverage),
    ]),
    '',
  ];
}

export function render(measured: Measured, verdicts: Verdict[]): string {
  const { machine, setup } = measured;
  const passed = verdicts.every((verdict) => verdict.pass);
  const gatewayEnv = Object.entries(setup.gatewayEnv);
  const command = ['node', ...setup.gatewayFlags, 'dist/main.js'].join(' ');
  const imageEnv = Object.entries(IMAGE_RUNTIME_ENV)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');
  return [
    '# Benchmark result',
    '',
    `${new Date().toISOString()} — ${machine.cores} cores (${machine.cpu}), ${machine.memoryGiB} GiB, Node ${machine.node}; load average ${fixed(machine.loadAverage.atStart, 2)} at the start, ${fixed(machine.loadAverage.atEnd, 2)} at the end.`,
    '',
    `Compiled gateway (\`${command}\` with the Docker image's ${imageEnv}, SQLite, default settings and limits${gatewayEnv.length ? `, plus ${gatewayEnv.map(([k, v]) => `${k}=${v}`).join(' ')}` : ''}), standalone sandbox (\`dist/sandbox/main.js\`), a bare graphql-yoga "hello" server and autocannon (${setup.connections} connections), each its own process on this machine. ${setup.users} users with tokens, one line each; every request rotates to the next user, so each user is seen at most once per ${setup.users}/(req/s) seconds. Steady state: before the rounds, one REST \`usage\` request per user reads every token, user and line home once (then cached for minutes, invalidated by events). ${setup.rounds} interleaved rounds of ${setup.durationS} s (bare Yoga, then the scenario), after a 1 s warm-up each (the mutation rounds after the read rounds and the fixed rate: a changed line's cached home is dropped, and the next read of it reads the database); figures are medians over rounds, ratios are to the bare Yoga run just before. "req/s per user" is the fastest round's req/s ÷ the users it rotates through; "SQL statements per request" counts all the gateway sent during the rounds (line_gateway_db_queries_total), its background loops included. The targets judge the req/s ratio; the CPU ratio (bare Yoga's CPU time per request ÷ the gateway's, from /proc/<pid>/stat) is what the req/s ratio would be on an otherwise idle machine where both are CPU-bound, and it is far steadier when other processes load the cores.`,
    '',
    '| Scenario | ÷ bare Yoga (req/s) | req/s | bare Yoga req/s | p50 / p99 (ms) | gateway CPU ms/req | ÷ bare Yoga (CPU/req) | users | req/s per user | SQL statements per request | RSS after (MB) | failures |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...Object.entries(measured.scenarios).map(
      ([name, f]) =>
        `| ${name} | ${fixed(f.ratio)} | ${Math.round(f.requestsPerSecond)} | ${Math.round(f.yogaRequestsPerSecond)} | ${f.p50} / ${f.p99} | ${fixed(f.cpuMsPerRequest, 2)} | ${fixed(f.cpuRatio)} | ${f.users} | ${fixed(f.busiestUserRate, 2)} | ${fixed(f.statementsPerRequest, 4)} | ${f.highestRssMb} | ${f.failures} |`,
    ),
    '',
    ...graphqlOverRestSection(measured),
    ...(measured.fixedRate ? fixedRateSection(measured.fixedRate) : []),
    ...(measured.bulk
      ? [
          `Bulk activation of ${measured.bulk.sims} SIMs: ${Math.round(measured.bulk.ms)} ms through the gateway (${measured.bulk.driver}, ${measured.bulk.activated} activated) against ${Math.round(measured.bulk.directMs)} ms for the same ${measured.bulk.sims} carrier activations made directly, one after the other, with the project's carrier adapter: ratio ${fixed(measured.bulk.ratio, 2)}. The median of ${measured.bulk.rounds.length} interleaved pairs (the direct calls, then a job of the same size): ${measured.bulk.rounds.map((r) => `${Math.round(r.ms)} / ${Math.round(r.directMs)} ms = ${fixed(r.ratio, 2)}`).join(', ')}. The jobs timed are warm, as every scenario is measured: the gateway's first (a fresh process compiling the bulk path) took ${Math.round(measured.bulk.coldMs)} ms, ratio ${fixed(measured.bulk.coldMs / measured.bulk.directMs, 2)}, its second ${Math.round(measured.bulk.secondMs)} ms, ratio ${fixed(measured.bulk.secondMs / measured.bulk.directMs, 2)}.${measured.bulk.note ? ` Note: ${measured.bulk.note}.` : ''}`,
          '',
        ]
      : []),
    ...(measured.carrierClient
      ? [carrierClientSection(measured.carrierClient, measured.scenarios['rest-usage']), '']
      : []),
    `Gateway memory (VmRSS from /proc): ${measured.memory.idleMb} MB idle 3 s after start-up; peak ${measured.memory.peakMb} MB (VmHWM, start-up included; highest 250 ms sample ${measured.memory.highestSampleMb} MB${measured.memory.highestDuring ? `, during ${measured.memory.highestDuring}` : ''}).`,
    '',
    '| Target | measured | target | verdict |',
    '|---|---|---|---|',
    ...verdicts.map(
      (v) => `| ${v.row} | ${v.value === null ? '—' : fixed(v.value)} | ${v.target} | ${v.pass ? 'PASS' : 'FAIL'} |`,
    ),
    '',
    `Overall: ${passed ? 'PASS' : 'FAIL'}`,
    '',
  ].join('\n');
}

/** What a carrier call costs above undici's dispatch (ky's part, the client's), and its share of a REST `usage` request. */
function carrierClientSection(cost: CarrierClientCost, restUsage: ScenarioFigures | undefined): string {
  const kyMicros = cost.ky - cost.dispatch;
  const requestMicros = restUsage ? restUsage.cpuMsPerRequest * 1000 : undefined;
  const share = requestMicros
    ? ` That is ${Math.round((100 * kyMicros) / requestMicros)} % of the gateway's CPU per REST \`usage\` request above (${Math.round(requestMicros)} µs, one carrier call each); the whole client, ${Math.round((100 * (cost.client - cost.dispatch)) / requestMicros)} %.`
    : '';
  return `Carrier client, µs of CPU a carrier 321 \`usage\` read costs the process making it (median of ${cost.rounds.length} interleaved rounds of ${cost.calls} calls each way, ${cost.inFlight} in flight, in the bench process against the sandbox with the gateway idle): ${fixed(cost.client, 1)} through the project's client (src/carriers/http-client.ts), ${fixed(cost.ky, 1)} through ky alone (the client's own ky instance for reads) over the same \`fetch\` (src/carriers/agent-fetch.ts), ${fixed(cost.dispatch, 1)} by that \`fetch\`'s undici dispatch alone (src/carriers/text-request.ts); each parses the answer's JSON. ky's per-call machinery is ${fixed(kyMicros, 1)} µs a call, the client's own ${fixed(cost.client - cost.ky, 1)}.${share} Rounds (client / ky / dispatch): ${cost.rounds.map((r) => `${fixed(r.client, 1)} / ${fixed(r.ky, 1)} / ${fixed(r.dispatch, 1)}`).join(', ')}.`;
}

function graphqlOverRestSection(measured: Measured): string[] {
  const figures = graphqlOverRestOf(measured);
  if (!figures) return [];
  const graphql = measured.scenarios['graphql-usage']!.rounds;
  const rest = measured.scenarios['rest-usage']!.rounds;
  const perRound = graphql
    .slice(0, rest.length)
    .map(
      (round, index) =>
        `${Math.round(round.scenario.requestsPerSecond)} / ${Math.round(rest[index]!.scenario.requestsPerSecond)}`,
    );
  return [
    `GraphQL \`usage\` ÷ REST \`usage\`: ${fixed(figures.sameRound)}, the median over rounds of GraphQL's req/s ÷ REST's in the same round (${perRound.join(', ')} req/s). The quotient of the two rows' ratios above, which also divides by two different bare Yoga runs, is ${fixed(figures.ofRatios)}.`,
    '',
  ];
}
