// Runs the paced load generator (paced.ts) in a child process and answers its result: the
// requests are built here, from a bench scenario, and handed over in a file before the clock starts.

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Scenario } from './load.js';
import type { PacedOptions, PacedRequest, PacedResult } from './paced.js';

const main = new URL('./paced-main.ts', import.meta.url).pathname;
// tsx resolves from the working directory: the repository's, wherever the caller runs.
const root = new URL('../..', import.meta.url).pathname;

/** Scenario requests 0…count−1 as wire requests. */
export function wireRequests(scenario: Scenario, count: number): PacedRequest[] {
  return Array.from({ length: count }, (_, n) => {
    const next = scenario.next(n);
    return {
      method: next.method,
      path: next.path,
      headers: {
        ...(next.token ? { authorization: `Bearer ${next.token}` } : {}),
        ...(next.body ? { 'content-type': 'application/json' } : {}),
      },
      ...(next.body !== undefined && { body: next.body }),
    };
  });
}

export async function pacedLoad(
  scenario: Scenario,
  options: {
    rate: number;
    durationS: number;
    warmupS?: number;
    graphqlErrorsFail?: boolean;
    connections?: number;
    cpuPid?: number;
  },
): Promise<PacedResult> {
  const warmup = Math.round(options.rate * (options.warmupS ?? 1));
  const count = warmup + Math.round(options.rate * options.durationS);
  const paced: PacedOptions = {
    origin: new URL(scenario.url).origin,
    requests: wireRequests(scenario, count),
    rate: options.rate,
    warmup,
    ...(options.connections !== undefined && { connections: options.connections }),
    ...(options.graphqlErrorsFail !== undefined && { graphqlErrorsFail: options.graphqlErrorsFail }),
    ...(options.cpuPid !== undefined && { cpuPid: options.cpuPid }),
  };
  const dir = mkdtempSync(join(tmpdir(), 'line-gateway-paced-'));
  try {
    const file = join(dir, 'options.json');
    writeFileSync(file, JSON.stringify(paced));
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', main, file], {
      cwd: root,
      maxBuffer: 1 << 20,
    });
    return JSON.parse(stdout) as PacedResult;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
