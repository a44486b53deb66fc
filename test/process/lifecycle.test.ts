// The gateway as a process, started as `npm start` runs it (node dist/main.js): health once up, a
// one-line message naming the variable for a bad environment, a JWT secret generated once in
// DATA_DIR and reused (tokens survive a restart) without ever being printed, and SIGTERM
// letting an in-flight request finish before exiting 0. Each bad variable's message is checked
// on loadConfig in this process; two of them also through the real process (exit 1, one line).

import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { openData } from '../../src/app/data.js';
import { run, spawnIn, type RunningProcess, listeningUrl } from '../support/processes.js';

// The compiled gateway (dist/ is built by the suite's global setup), as in production.
const GATEWAY = [process.execPath, ['dist/main.js']] as const;

let dir: string;
let env: Record<string, string>;
const started: RunningProcess[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'line-gateway-process-'));
  // No JWT_SECRET: the gateway generates one in DATA_DIR.
  env = { DATABASE_URL: `file:${join(dir, 'gateway.db')}`, DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'info' };
});
afterAll(() => {
  for (const running of started) if (running.child.exitCode === null) running.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the gateway process and resolves with its URL once it logs that it listens. */
async function startGateway(extra: Record<string, string> = {}): Promise<{ running: RunningProcess; url: string }> {
  const running = spawnIn(GATEWAY[0], [...GATEWAY[1]], { ...env, ...extra });
  started.push(running);
  return { running, url: await listeningUrl(running) };
}

/** A GET whose `sent` resolves once the request is on the wire (so it is in flight). */
function slowRequest(
  url: string,
  token: string,
): { sent: Promise<void>; answer: Promise<{ status: number; body: string }> } {
  let sent!: () => void;
  const sentPromise = new Promise<void>((resolve) => (sent = resolve));
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = httpRequest(url, { headers: { authorization: `Bearer ${token}` } }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    request.end(() => sent());
  });
  return { sent: sentPromise, answer };
}

/** A user and a token minted on the same database and DATA_DIR, as the admin CLI would. */
async function mintToken(): Promise<string> {
  const data = await openData(loadConfig(env));
  try {
    const user = await data.directory.createUser({ name: `u${Date.now()}` });
    return (await data.tokens.issue(user, '1h')).token;
  } finally {
    await data.close();
  }
}

const BAD_ENVIRONMENTS: [name: string, value: string][] = [
  ['PORT', 'abc'],
  ['DATABASE_URL', 'mysql://x'],
  ['LOG_LEVEL', 'loud'],
  ['JWT_SECRET', 'too-short-secret'],
  ['CARRIER_TIMEOUT_MS', '-5'],
  ['TOKEN_TTL', '99999999d'],
  ['CACHE_TTL_MS', '0x10'],
  ['GRAPHQL_MAX_ALIASES', '1e3'],
  // A Redis URL may carry a password: named, never echoed.
  ['REDIS_URL', 'http://:hunter2-redis-password@redis.internal:6379'],
  ['REDIS_URL', 'redis.internal:6379'],
];

/** The message the process prints (alone, on one line) for a bad environment: the ConfigError's. */
function configMessage(badEnv: Record<string, string>): string {
  try {
    loadConfig(badEnv);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('the environment was accepted');
}

describe('a bad environment', () => {
  it.each(BAD_ENVIRONMENTS)('%s=%s is refused with one line naming the variable', (name, value) => {
    const message = configMessage({ ...env, [name]: value });
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toMatch(new RegExp(`^Invalid ${name}: `));
    // The message names the variable, never echoes a secret's value.
    if (name === 'JWT_SECRET') expect(message).not.toContain(value);
    if (name === 'REDIS_URL') {
      expect(message).toMatch(/^Invalid REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL/);
      expect(message).not.toContain('hunter2');
      expect(message).not.toContain('redis.internal');
    }
  });

  it('takes a redis:// or rediss:// REDIS_URL', () => {
    for (const url of ['redis://redis.internal:6379/0', 'rediss://:secret@redis.internal:6380'])
      expect(loadConfig({ ...env, REDIS_URL: url }).REDIS_URL).toBe(url);
  });

  it('puts the embedded database in DATA_DIR unless DATABASE_URL says otherwise', () => {
    expect(loadConfig({}).DATABASE_URL).toBe('file:./data/gateway.db');
    expect(loadConfig({ DATA_DIR: '/var/lib/line-gateway/' }).DATABASE_URL).toBe(
      'file:/var/lib/line-gateway/gateway.db',
    );
    expect(loadConfig({ DATA_DIR: '/srv/gw', DATABASE_URL: 'file:/elsewhere/gw.db' }).DATABASE_URL).toBe(
      'file:/elsewhere/gw.db',
    );
  });

  it('takes a variable set to nothing (PORT= in a unit file) as unset: its default, not 0', () => {
    const blank = Object.fromEntries(
      ['PORT', 'CACHE_TTL_MS', 'CARRIER_RETRIES', 'GRAPHQL_MAX_ALIASES', 'JWT_SECRET'].map((name) => [name, ' ']),
    );
    const config = loadConfig({ DATA_DIR: dir, ...blank });
    const defaults = loadConfig({ DATA_DIR: dir });
    expect([config.PORT, config.CACHE_TTL_MS, config.CARRIER_RETRIES, config.GRAPHQL_MAX_ALIASES]).toEqual([
      4000,
      defaults.CACHE_TTL_MS,
      defaults.CARRIER_RETRIES,
      defaults.GRAPHQL_MAX_ALIASES,
    ]);
    expect(config.JWT_SECRET).toBeUndefined();
  });

  // The real process for two of them (a plain one and the secret): exit code, stderr, stdout.
  it.concurrent.each(BAD_ENVIRONMENTS.filter(([name]) => name === 'PORT' || name === 'JWT_SECRET'))(
    'the process with %s=%s exits 1 with that one line and prints nothing else',
    async (name, value) => {
      const result = await run(GATEWAY[0], [...GATEWAY[1]], { ...env, DATA_DIR: join(dir, 'unused'), [name]: value });
      expect(result.code).toBe(1);
      const lines = result.stderr.trim().split('\n');
      expect(lines).toEqual([configMessage({ ...env, [name]: value })]);
      if (name === 'JWT_SECRET') expect(lines[0]).not.toContain(value);
      expect(result.stdout).toBe('');
    },
  );
});

describe('the process', () => {
  it('generates a JWT secret once, keeps it across a restart, and drains an in-flight request on SIGTERM', async () => {
    // First start: slow carriers, so that a request is still in flight when SIGTERM comes.
    const first = await startGateway({ SANDBOX_FAULT_LATENCY_MS: '1500' });
    const health = await fetch(`${first.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });

    const secretFile = join(dir, 'jwt-secret');
    const secret = readFileSync(secretFile, 'utf8').trim();
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
    // The database it created holds webhook secrets: its user's alone too, and so its WAL.
    for (const file of ['gateway.db', 'gateway.db-wal']) expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
    expect(first.running.output.stderr).toMatch(/generated a JWT secret/);
    expect(first.running.output.stderr).not.toContain(secret);

    const token = await mintToken();
    const inFlight = slowRequest(`${first.url}/sim/usage/3215559999`, token);
    // The request is fully sent; the carrier answers after 1.5 s; SIGTERM comes meanwhile.
    await inFlight.sent;
    await new Promise((resolve) => setTimeout(resolve, 300));
    first.running.child.kill('SIGTERM');
    const answer = await inFlight.answer;
    expect(answer.status).toBe(400);
    expect((JSON.parse(answer.body) as { message: string }).message).toMatch(/\(918\)$/);
    const exit = await first.running.done;
    expect(exit.code).toBe(0);
    expect(exit.stderr).toMatch(/SIGTERM: draining/);
    expect(exit.stderr).not.toContain(token);

    // Second start: the same secret, no new one, and the token still works.
    const second = await startGateway();
    expect(readFileSync(secretFile, 'utf8').trim()).toBe(secret);
    expect(second.running.output.stderr).not.toMatch(/generated a JWT secret/);
    const again = await fetch(`${second.url}/sim/usage/3215559999`, { headers: { authorization: `Bearer ${token}` } });
    expect(again.status).toBe(400);
    second.running.child.kill('SIGTERM');
    const secondExit = await second.running.done;
    expect(secondExit.code).toBe(0);
    for (const output of [exit.stderr, exit.stdout, secondExit.stderr, secondExit.stdout]) {
      expect(output).not.toContain(secret);
      expect(output).not.toMatch(/sandbox-321-key|sandbox-b-secret/);
    }
  }, 90_000);
});
