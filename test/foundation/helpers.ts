// Small helpers shared by the foundation tests: lines seeded on a sandbox carrier, a second
// gateway on the same database, hand-made JWTs, and child processes of the real commands.

import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { CarrierId } from '../../src/carriers/types.js';
import { startGateway, TEST_JWT_SECRET, type GraphQLAnswer, type TestGateway } from '../support/gateway.js';
import { seedLine } from '../support/lines.js';

export const REPO_ROOT = new URL('../..', import.meta.url).pathname;

/** An ACTIVE line seeded directly on a sandbox core (the gateway does not know it yet). */
export async function activeLine(gateway: TestGateway, carrier: CarrierId = '321'): Promise<{ mdn: string; sim: string }> {
  return seedLine(gateway, { carrier, carrierPlanId: 'SOC-BASIC', register: false });
}

/** A second gateway on the database of `first` (same JWT secret): another replica. */
export function startReplica(first: TestGateway, env: Record<string, string> = {}): Promise<TestGateway> {
  return startGateway({ env: { DATABASE_URL: first.app.services.config.DATABASE_URL, ...env } });
}

/**
 * The first GraphQL error's code and message. (Yoga turns `extensions.http` into the HTTP status
 * and headers of the answer and leaves it out of the body: assert `answer.status` for it.)
 */
export function errorOf(answer: GraphQLAnswer): { code: unknown; message: string | undefined } {
  const error = answer.errors?.[0];
  return { code: error?.extensions?.code, message: error?.message };
}

/** A token signed by hand with the gateway's claims (issuer, subject, jti); `exp: null` leaves expiry out. */
export function signToken(
  claims: { sub: string; jti?: string; exp?: number | null },
  options: { secret?: string; algorithm?: jwt.Algorithm; key?: jwt.Secret } = {},
): string {
  const { sub, jti = randomUUID(), exp = Math.floor(Date.now() / 1000) + 3600 } = claims;
  return jwt.sign({ su: false, sub, jti, iss: 'line-gateway', ...(exp === null ? {} : { exp }) }, options.key ?? options.secret ?? TEST_JWT_SECRET, {
    algorithm: options.algorithm ?? 'HS256',
  });
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An unsigned token (`alg: none`) carrying otherwise valid claims. */
export function unsignedToken(claims: { sub: string; jti: string }): string {
  const payload = { su: true, sub: claims.sub, jti: claims.jti, iss: 'line-gateway', iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 3600 };
  return `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(payload)}.`;
}

/** The jti of a token issued by the gateway. */
export function jtiOf(token: string): string {
  const decoded = jwt.decode(token, { json: true });
  if (!decoded?.jti) throw new Error('token without jti');
  return decoded.jti;
}

/** Polls `check` until it returns true or `withinMs` passes; answers whether it became true. */
export async function eventually(check: () => Promise<boolean>, withinMs: number, everyMs = 50): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

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
export async function run(command: string, args: string[], env: Record<string, string>, timeoutMs = 30_000): Promise<ProcessResult> {
  const running = spawnIn(command, args, env);
  const timer = setTimeout(() => running.child.kill('SIGKILL'), timeoutMs);
  try {
    return await running.done;
  } finally {
    clearTimeout(timer);
  }
}
