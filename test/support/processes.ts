// Helpers for the tests that launch the real commands (npm start, the sandbox, node
// dist/main.js, the admin CLI): running a command with exactly its environment, who descends
// from a pid, whether a pid still lives, a free port.

import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { eventually } from './eventually.js';

export const REPO_ROOT = new URL('../..', import.meta.url).pathname;

export interface ProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunningProcess {
  child: ChildProcess;
  /** Output so far. */
  output: { stdout: string; stderr: string };
  /** Resolves once the process has exited and its output is read. */
  done: Promise<ProcessResult>;
}

/** Starts a command in the repository with exactly `env` (plus PATH and HOME). */
export function spawnIn(command: string, args: string[], env: Record<string, string>): RunningProcess {
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString('utf8')));
  const done = new Promise<ProcessResult>((resolve) => {
    child.once('close', (code, signal) => resolve({ code, signal, ...output }));
  });
  return { child, output, done };
}

/** Runs a command to its end (killed after `timeoutMs`) and collects its output. */
export async function run(
  command: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<ProcessResult> {
  const running = spawnIn(command, args, env);
  const timer = setTimeout(() => running.child.kill('SIGKILL'), timeoutMs);
  try {
    return await running.done;
  } finally {
    clearTimeout(timer);
  }
}

/** Parent pid and state of a live process, from /proc; null when it is gone. */
function stat(pid: number): { ppid: number; state: string } | null {
  try {
    // The command name (field 2) is in parentheses and may hold spaces: read after the last ')'.
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(ppid), state: state ?? '?' };
  } catch {
    return null;
  }
}

/** Every live descendant of `root` (children, grandchildren…). */
export function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const info = stat(Number(entry));
    if (info) parents.set(Number(entry), info.ppid);
  }
  const found: number[] = [];
  const visit = (pid: number) => {
    for (const [child, parent] of parents) {
      if (parent === pid) {
        found.push(child);
        visit(child);
      }
    }
  };
  visit(root);
  return found;
}

/** True while the process exists and is not a zombie (exited, waiting to be reaped). */
export function alive(pid: number): boolean {
  const info = stat(pid);
  return info !== null && info.state !== 'Z';
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Whether something accepts connections on 127.0.0.1:port. */
export function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Resolves with the URL a gateway process logs once it listens; throws with its output if it exits or takes 40 s. */
export async function listeningUrl(running: RunningProcess): Promise<string> {
  let url: string | undefined;
  const up = await eventually(async () => {
    url = /listening on (http:\/\/[^\s"]+)/.exec(running.output.stderr)?.[1];
    return url !== undefined || running.child.exitCode !== null;
  }, 40_000);
  if (!up || !url) throw new Error(`gateway did not start: ${running.output.stderr}`);
  return url;
}

/**
 * The compiled gateway under node itself (no npm, no tsx: a signal reaches the process serving
 * the requests), with exactly `env`; dist/ is built by the suite's global setup.
 */
export async function startCompiledGateway(
  env: Record<string, string>,
): Promise<{ running: RunningProcess; url: string }> {
  const running = spawnIn(process.execPath, ['dist/main.js'], env);
  return { running, url: await listeningUrl(running) };
}
