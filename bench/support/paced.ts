// An open-loop load generator at a fixed rate: request i is due at t0 + i × 1000/rate ms whatever
// the answers before it did, and its latency is counted from that due time, not from when it left.
// A closed-loop generator (autocannon, even with `overallRate`) waits for an answer before a
// connection sends again, so a slow answer silently postpones the requests behind it and they
// never show in the tail ("coordinated omission"); counting from the due time puts that wait back.

import { Pool } from 'undici';
import { cpuMs } from './processes.js';

/** One request as it goes on the wire; built beforehand so that sending costs no scenario work. */
export interface PacedRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface PacedOptions {
  /** Origin of the server, e.g. http://127.0.0.1:4000. */
  origin: string;
  requests: PacedRequest[];
  /** Requests per second. */
  rate: number;
  /** The first `warmup` requests are sent at the same pace but left out of the figures (connections, JIT). */
  warmup?: number;
  /**
   * Keep-alive connections: enough that every request finds one free when it is due, so a slow
   * answer never holds back the next send (in flight ≈ rate × latency; 64 covers 200 ms at 300/s).
   */
  connections?: number;
  /** A 2xx whose body holds a GraphQL `errors` member is a failure. */
  graphqlErrorsFail?: boolean;
  /** Per-request limit, ms: an answer later than this is a failure (and its latency is not kept). */
  timeoutMs?: number;
  /** A server process whose CPU time over the measured requests is reported (Linux /proc). */
  cpuPid?: number;
}

export interface PacedResult {
  rate: number;
  /** Requests measured (after the warm-up) and how many of them got an answer. */
  sent: number;
  answered: number;
  /** Latency from each request's due time to the end of its answer's body, ms, over measured answers. */
  p50: number;
  p90: number;
  p99: number;
  max: number;
  non2xx: number;
  /** 2xx answers carrying GraphQL errors (only with `graphqlErrorsFail`). */
  graphqlErrors: number;
  /** Socket errors and timeouts. */
  errors: number;
  /** How late the generator itself sent, ms (send time − due time): its own floor, not the server's. */
  sendLagP99: number;
  sendLagMax: number;
  /** Wall time from the first measured due time to the last answer, s. */
  elapsedS: number;
  /** Per second of due time (measured requests): answers, p99 and max, ms; shows whether the tail is steady or in bursts. */
  seconds: { answered: number; p99: number; max: number }[];
  /** CPU time of `cpuPid` from the first measured due time to the last answer, per measured request, ms (null without a pid). */
  cpuMsPerRequest: number | null;
  /** The same CPU time per second of wall time, ms/s: how busy the server was at this rate (1000 = one core). */
  cpuMsPerSecond: number | null;
}

/** Nearest-rank percentile of ascending `sorted` (p in 0–100); 0 for no values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** Due time of request `i` relative to t0, ms. */
export const dueAt = (i: number, rate: number): number => (i * 1000) / rate;

const round = (ms: number) => Math.round(ms * 10) / 10;

export async function runPaced(options: PacedOptions): Promise<PacedResult> {
  const { requests, rate } = options;
  const warmup = Math.min(options.warmup ?? 0, requests.length);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const pool = new Pool(options.origin, {
    connections: options.connections ?? 64,
    pipelining: 1,
    keepAliveTimeout: 60_000,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const latencies: number[] = [];
  const lags: number[] = [];
  const bySecond: number[][] = [];
  let non2xx = 0;
  let graphqlErrors = 0;
  let errors = 0;
  let lastAnswer = 0;

  const send = async (request: PacedRequest, due: number, measured: boolean): Promise<void> => {
    const sentAt = performance.now();
    try {
      const answer = await pool.request({
        method: request.method,
        path: request.path,
        headers: request.headers,
        ...(request.body !== undefined && { body: request.body }),
      });
      const body = await answer.body.text();
      const end = performance.now();
      if (!measured) return;
      lastAnswer = Math.max(lastAnswer, end);
      lags.push(sentAt - due);
      latencies.push(end - due);
      const second = Math.floor((due - measuredStart) / 1000);
      (bySecond[second] ??= []).push(end - due);
      if (answer.statusCode < 200 || answer.statusCode >= 300) non2xx++;
      else if (options.graphqlErrorsFail && body.includes('"errors"')) graphqlErrors++;
    } catch {
      if (measured) errors++;
    }
  };

  const inFlight: Promise<void>[] = [];
  let cpuAtStart: number | null = null;
  // A small head start so that request 0 is not already late when the loop first looks.
  const t0 = performance.now() + 5;
  const measuredStart = t0 + dueAt(warmup, rate);
  await new Promise<void>((resolve) => {
    let next = 0;
    const tick = () => {
      const now = performance.now();
      // Timers fire up to ~1 ms late: everything due by now goes at once, on its own due time.
      while (next < requests.length && t0 + dueAt(next, rate) <= now) {
        if (next === warmup && options.cpuPid) cpuAtStart = cpuMs(options.cpuPid);
        inFlight.push(send(requests[next]!, t0 + dueAt(next, rate), next >= warmup));
        next++;
      }
      if (next >= requests.length) return resolve();
      setTimeout(tick, Math.max(0, t0 + dueAt(next, rate) - performance.now()));
    };
    tick();
  });
  await Promise.all(inFlight);
  const cpuSpent = cpuAtStart !== null && options.cpuPid ? cpuMs(options.cpuPid) - cpuAtStart : null;
  await pool.close();

  latencies.sort((a, b) => a - b);
  lags.sort((a, b) => a - b);
  return {
    rate,
    sent: requests.length - warmup,
    answered: latencies.length,
    p50: round(percentile(latencies, 50)),
    p90: round(percentile(latencies, 90)),
    p99: round(percentile(latencies, 99)),
    max: round(latencies.at(-1) ?? 0),
    non2xx,
    graphqlErrors,
    errors,
    sendLagP99: round(percentile(lags, 99)),
    sendLagMax: round(lags.at(-1) ?? 0),
    elapsedS: round(Math.max(0, lastAnswer - measuredStart) / 1000),
    cpuMsPerRequest:
      cpuSpent === null ? null : Math.round((cpuSpent / Math.max(1, requests.length - warmup)) * 100) / 100,
    cpuMsPerSecond:
      cpuSpent === null ? null : Math.round(cpuSpent / Math.max(0.001, (lastAnswer - measuredStart) / 1000)),
    seconds: Array.from(bySecond, (values = []) => {
      values.sort((a, b) => a - b);
      return { answered: values.length, p99: round(percentile(values, 99)), max: round(values.at(-1) ?? 0) };
    }),
  };
}
