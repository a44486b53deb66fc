// Rate limits without Redis: with REDIS_URL at a closed port, rate-limited operations answer
// normally on REST and GraphQL and the limit still applies per replica, one warning is logged
// and every stderr line of the process is JSON; with a real redis-server that stops mid-run,
// the replicas fall back to their own counters and share them again once it is back.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openData } from '../../src/app/data.js';
import { createLogger } from '../../src/lib/logger.js';
import { eventually } from '../support/eventually.js';
import { type RunningProcess, startCompiledGateway } from '../support/processes.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

interface Line {
  level: string;
  message: string;
}

const UNKNOWN_MDN = '5550009999';

/** A port nothing listens on (taken from the OS, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function capture(): { lines: Line[]; logger: ReturnType<typeof createLogger> } {
  const lines: Line[] = [];
  return { lines, logger: createLogger('info', (line) => lines.push(JSON.parse(line) as Line)) };
}

const suspend = (gateway: TestGateway, token: string) =>
  gateway.rest('POST', '/sim/suspend/', { token, body: { mdn: UNKNOWN_MDN } });

async function spend(gateway: TestGateway, token: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await suspend(gateway, token)).status);
  return statuses;
}

const warnings = (lines: Line[]) =>
  lines.filter((line) => line.level === 'warn' && line.message.startsWith('redis unreachable'));
const recoveries = (lines: Line[]) =>
  lines.filter((line) => line.level === 'info' && line.message.startsWith('redis is back'));

async function metric(gateway: TestGateway, name: string): Promise<number> {
  const text = await gateway.app.services.metrics.registry.getSingleMetricAsString(name);
  return Number(/\s(\S+)$/.exec(text.trim())?.[1]);
}

describe('REDIS_URL at a closed port', () => {
  let gateway: TestGateway;
  const log = capture();

  beforeAll(async () => {
    gateway = await startTestGateway({
      env: { REDIS_URL: `redis://127.0.0.1:${await closedPort()}` },
      logger: log.logger,
    });
  });
  afterAll(() => gateway.close());

  it('answers rate-limited operations on REST and GraphQL, and still limits them per replica', async () => {
    const { token } = await gateway.user();
    expect(await spend(gateway, token, 20)).toEqual(Array(20).fill(400));
    const refused = await suspend(gateway, token);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      status: 'failure',
      message: 'Rate limit exceeded: 20 per 1 minute',
      code: 'HTTP_429',
    });

    const { token: other } = await gateway.user();
    const graphql = await gateway.graphql(`mutation { suspendLine(input: { mdn: "${UNKNOWN_MDN}" }) { status } }`, {
      token: other,
    });
    expect(graphql.errors).toBeUndefined();
    expect(graphql.data).toEqual({ suspendLine: { status: 'FAILURE' } });
    const usage = await gateway.graphql(`{ usage(mdn: "${UNKNOWN_MDN}") { status } }`, { token: other });
    expect(usage.errors).toBeUndefined();
  });

  it('logs exactly one warning for the outage and reports it as metrics', async () => {
    expect(await eventually(async () => warnings(log.lines).length > 0, 10_000)).toBe(true);
    expect(warnings(log.lines)).toHaveLength(1);
    expect(log.lines.filter((line) => line.level === 'error')).toEqual([]);
    expect(await metric(gateway, 'line_gateway_redis_up')).toBe(0);
    expect(await metric(gateway, 'line_gateway_rate_limit_fallback_total')).toBeGreaterThanOrEqual(21);
  });
});

describe('the gateway process with REDIS_URL at a closed port', () => {
  let dir: string;
  let running: RunningProcess | undefined;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'line-gateway-redis-'));
  });
  afterAll(() => {
    if (running?.child.exitCode === null) running.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes only JSON lines on stderr while answering rate-limited requests', async () => {
    const env = {
      DATABASE_URL: `file:${join(dir, 'gateway.db')}`,
      DATA_DIR: dir,
      PORT: '0',
      LOG_LEVEL: 'debug',
      REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
    };
    // The compiled gateway (dist/ is built by the suite's global setup), as in production.
    const started = await startCompiledGateway(env);
    running = started.running;
    const { url } = started;
    const data = await openData(loadConfig(env));
    const token = await data.directory
      .createUser({ name: `redis-${Date.now()}` })
      .then((user) => data.tokens.issue(user, '1h'))
      .finally(() => data.close());
    for (let i = 0; i < 3; i++) {
      const answer = await fetch(`${url}/sim/suspend/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ mdn: UNKNOWN_MDN }),
      });
      expect(answer.status).toBe(400);
    }
    running.child.kill('SIGTERM');
    const exit = await running.done;
    expect(exit.code).toBe(0);
    const lines = exit.stderr.trim().split('\n');
    const notJson = lines.filter((line) => {
      try {
        return typeof JSON.parse(line) !== 'object';
      } catch {
        return true;
      }
    });
    expect(notJson).toEqual([]);
    expect(lines.filter((line) => line.includes('redis unreachable'))).toHaveLength(1);
  }, 90_000);
});

/** A redis-server of our own on a free port, which the test stops and starts again. */
async function redisServerAvailable(): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = spawn('redis-server', ['--version'], { stdio: 'ignore' });
    probe.on('error', () => resolve(false));
    probe.on('exit', (code) => resolve(code === 0));
  });
}

async function startRedisServer(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--enable-debug-command',
      'local',
    ],
    { stdio: 'ignore' },
  );
  const up = await eventually(
    () =>
      new Promise<boolean>((resolve) => {
        const socket = createServer();
        // The port is taken once redis-server listens on it.
        socket.once('error', () => resolve(true));
        socket.listen(port, '127.0.0.1', () => socket.close(() => resolve(false)));
      }),
    10_000,
  );
  if (!up) throw new Error('redis-server did not start');
  return child;
}

async function stopRedisServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

const canRun = await redisServerAvailable();
if (!canRun) process.stdout.write('Redis outage test skipped: no redis-server on PATH\n');

describe.skipIf(!canRun)('a Redis that goes away and comes back', () => {
  let port: number;
  let redis: ChildProcess;
  let first: TestGateway;
  let second: TestGateway;
  const log = capture();

  beforeAll(async () => {
    port = await closedPort();
    redis = await startRedisServer(port);
    const env = { REDIS_URL: `redis://127.0.0.1:${port}` };
    first = await startTestGateway({ env, logger: log.logger });
    second = await startTestGateway({ env: { ...env, DATABASE_URL: first.app.services.config.DATABASE_URL } });
    expect(
      await eventually(
        async () =>
          (await metric(first, 'line_gateway_redis_up')) === 1 && (await metric(second, 'line_gateway_redis_up')) === 1,
        10_000,
      ),
    ).toBe(true);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    if (redis) await stopRedisServer(redis);
  });

  /** 10 calls on each replica, then one more: 429 when they share a budget. */
  async function sharedBudget(): Promise<boolean> {
    const { token } = await first.user();
    expect(await spend(first, token, 10)).toEqual(Array(10).fill(400));
    expect(await spend(second, token, 10)).toEqual(Array(10).fill(400));
    return (await suspend(first, token)).status === 429;
  }

  it('shares one budget while Redis runs', async () => {
    expect(await sharedBudget()).toBe(true);
    expect(warnings(log.lines)).toEqual([]);
  });

  it('falls back to per-replica budgets when Redis stops, with one warning', async () => {
    await stopRedisServer(redis);
    expect(await eventually(async () => warnings(log.lines).length > 0, 10_000)).toBe(true);
    expect(await sharedBudget()).toBe(false);
    // Each replica still enforces its own budget.
    const { token } = await first.user();
    expect(await spend(first, token, 20)).toEqual(Array(20).fill(400));
    expect((await suspend(first, token)).status).toBe(429);
    expect(warnings(log.lines)).toHaveLength(1);
  });

  it('shares the budget again once Redis is back, saying so once', async () => {
    redis = await startRedisServer(port);
    expect(
      await eventually(
        async () => recoveries(log.lines).length > 0 && (await metric(second, 'line_gateway_redis_up')) === 1,
        20_000,
      ),
    ).toBe(true);
    expect(recoveries(log.lines)).toHaveLength(1);
    expect(await sharedBudget()).toBe(true);
  });

  it('answers while Redis hangs (connected but silent) and shares again afterwards', async () => {
    const { token } = await first.user();
    const fallbacks = await metric(first, 'line_gateway_rate_limit_fallback_total');
    // DEBUG SLEEP blocks the server with its connections open: commands time out instead of failing.
    const sleeper = spawn('redis-cli', ['-p', String(port), 'DEBUG', 'SLEEP', '3'], { stdio: 'ignore' });
    const slept = new Promise((resolve) => sleeper.once('exit', resolve));
    expect(
      await eventually(
        async () =>
          (await suspend(first, token)).status === 400 &&
          (await metric(first, 'line_gateway_rate_limit_fallback_total')) > fallbacks,
        10_000,
      ),
    ).toBe(true);
    expect(warnings(log.lines)).toHaveLength(2);
    await slept;
    // Once Redis answers again (after the pause), the next call goes to it and says so.
    const { token: later } = await first.user();
    expect(
      await eventually(
        async () => (await suspend(first, later)).status === 400 && recoveries(log.lines).length === 2,
        20_000,
        500,
      ),
    ).toBe(true);
  });
});
