// One autocannon run and the figures the report keeps.

import autocannon from 'autocannon';
import { cpuMs, memoryOf } from './processes.js';

export const CONNECTIONS = 50;

export interface LoadResult {
  requestsPerSecond: number;
  /** Requests answered in the run. */
  requests: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** Answers the scenario's own check refused (a 200 carrying a GraphQL error or a FAILURE). */
  refused: number;
  /**
   * CPU time the serving process spent per request, ms: unlike req/s, hardly moved by other
   * processes competing for the cores (null when no pid was given).
   */
  cpuMsPerRequest: number | null;
  /** RSS of the serving process as the run ends, MB (null when no pid was given). */
  rssMbAfter: number | null;
  /** Answers that only put the bench's idea of a line's state right (see the mutation scenario). */
  resynced: number;
}

/** What one request of a scenario sends; `n` counts the scenario's requests from 0. */
export interface ScenarioRequest {
  method: 'GET' | 'POST';
  path: string;
  token?: string;
  body?: string;
}

export interface Scenario {
  url: string;
  /** How many users its requests rotate through: its req/s ÷ this is each user's rate (none: bare Yoga). */
  users?: number;
  next(n: number): ScenarioRequest;
  /** Judges a 2xx answer: a wrong one (e.g. a GraphQL error) is counted as `refused`. */
  classify?(body: string): 'ok' | 'refused' | 'resynced';
}

export async function load(
  scenario: Scenario,
  /** `amount`: stop after that many requests instead of after `durationS`. */
  options: { durationS: number; amount?: number; connections?: number; overallRate?: number; pid?: number },
): Promise<LoadResult> {
  const cpuBefore = options.pid ? cpuMs(options.pid) : 0;
  let n = 0;
  let refused = 0;
  let resynced = 0;
  const result = await autocannon({
    url: scenario.url,
    connections: options.connections ?? CONNECTIONS,
    ...(options.amount ? { amount: options.amount } : { duration: options.durationS }),
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
    requests: [
      {
        setupRequest: (request) => {
          const next = scenario.next(n++);
          return {
            ...request,
            method: next.method,
            path: next.path,
            headers: {
              ...(next.token ? { authorization: `Bearer ${next.token}` } : {}),
              ...(next.body ? { 'content-type': 'application/json' } : {}),
            },
            ...(next.body ? { body: next.body } : {}),
          };
        },
        ...(scenario.classify && {
          onResponse: (status: number, body: string) => {
            if (status >= 300) return;
            const verdict = scenario.classify!(body);
            if (verdict === 'resynced') resynced++;
            if (verdict !== 'refused') return;
            // BENCH_DEBUG=1 shows the first refused answers of each run.
            if (process.env.BENCH_DEBUG && refused < 3) process.stderr.write(`refused: ${body.slice(0, 300)}\n`);
            refused++;
          },
        }),
      },
    ],
  });
  const cpuMsPerRequest = options.pid ? (cpuMs(options.pid) - cpuBefore) / Math.max(1, result.requests.total) : null;
  return {
    cpuMsPerRequest,
    rssMbAfter: options.pid ? memoryOf(options.pid).rssMb : null,
    requestsPerSecond: Math.round(result.requests.average),
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    refused,
    resynced,
  };
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
