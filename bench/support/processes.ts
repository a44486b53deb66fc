// The benchmark's processes: free ports, spawning a compiled entry (or any script) with its
// environment, waiting until it answers, and reading its memory from /proc.

import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * `node [flags] <script> [args]`; stdout is discarded, stderr (the gateway's JSON log: one access
 * line per request, written synchronously) goes to a file, as to a log collector in production.
 * A pipe read by this process would not do: autocannon keeps this event loop busy, the pipe
 * fills, and the server's synchronous log writes would stall it (a harness artefact).
 */
export function startNode(script: string, args: string[], env: NodeJS.ProcessEnv, flags: string[] = []): ChildProcess {
  const logDir = mkdtempSync(join(tmpdir(), 'line-gateway-bench-log-'));
  const logFile = join(logDir, `${basename(script)}.log`);
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, [...flags, script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', log],
  });
  closeSync(log);
  child.once('exit', (code) => {
    if (code && code !== 0)
      process.stderr.write(`${script} exited with ${code}:\n${readFileSync(logFile, 'utf8').slice(-2000)}\n`);
    // BENCH_KEEP_LOGS=1 keeps each process's log (the gateway's access lines: its own view of each request's time).
    if (process.env.BENCH_KEEP_LOGS) process.stderr.write(`kept ${logFile}\n`);
    else rmSync(logDir, { recursive: true, force: true });
  });
  return child;
}

export async function waitFor(url: string, init?: RequestInit): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      const response = await fetch(url, init);
      await response.arrayBuffer();
      if (response.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not come up`);
}

/** Resident memory now and its high-water mark, in MB. */
export interface Memory {
  rssMb: number;
  peakMb: number;
}

export function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) };
}

/** CPU time (user + system) a process has used so far, in ms (from /proc/<pid>/stat, 10 ms ticks). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces); utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Samples a process's RSS every 250 ms; `stop()` answers the highest sample and the kernel's VmHWM. */
export function sampleMemory(pid: number): { stop(): Memory & { highestDuring: string }; phase: string } {
  let highest = 0;
  let highestDuring = '';
  const sampler = {
    /** What the bench is doing now: the phase the highest sample is attributed to. */
    phase: 'start',
    stop() {
      clearInterval(timer);
      const last = memoryOf(pid);
      if (last.rssMb > highest) highestDuring = sampler.phase;
      return { rssMb: Math.max(highest, last.rssMb), peakMb: last.peakMb, highestDuring };
    },
  };
  const timer = setInterval(() => {
    const { rssMb } = memoryOf(pid);
    if (rssMb <= highest) return;
    highest = rssMb;
    highestDuring = sampler.phase;
  }, 250);
  return sampler;
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/**
 * What the Docker image's runtime stage sets for node beyond the gateway's own settings
 * (Dockerfile `ENV`), given to the gateway the bench measures so that it runs as deployed.
 */
export const IMAGE_RUNTIME_ENV: Record<string, string> = { MALLOC_ARENA_MAX: '2' };

export const BENCH_METRICS_TOKEN = 'bench-metrics-token-0123456789abcdef';

/**
 * The environment the benchmarks give the gateway and the standalone sandbox: a fresh SQLite
 * database in `dir`, the sandbox carriers on their own ports with their default credentials,
 * production mode, /metrics for the bench to read, and BENCH_GATEWAY_ENV's extra variables last.
 */
export function benchEnv(
  dir: string,
  ports: { gateway: number; carrier321: number; carrierB: number },
): Record<string, string> {
  return {
    NODE_ENV: 'production',
    DATABASE_URL: `file:${join(dir, 'gateway.db')}`,
    DATA_DIR: dir,
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
    PORT: String(ports.gateway),
    HOST: '127.0.0.1',
    SANDBOX_321_PORT: String(ports.carrier321),
    SANDBOX_CARRIER_B_PORT: String(ports.carrierB),
    CARRIER_321_URL: `http://127.0.0.1:${ports.carrier321}`,
    CARRIER_321_API_KEY: 'sandbox-321-key',
    CARRIER_B_URL: `http://127.0.0.1:${ports.carrierB}`,
    CARRIER_B_ACCOUNT_ID: 'sandbox-b-account',
    CARRIER_B_API_SECRET: 'sandbox-b-secret',
    // One line per bench user, the dashboard's ten and the bulk jobs' SIMs on carrier 321.
    SANDBOX_MDN_POOL_SIZE: '99990',
    METRICS_TOKEN: BENCH_METRICS_TOKEN,
    ...(JSON.parse(process.env.BENCH_GATEWAY_ENV ?? '{}') as Record<string, string>),
  };
}
