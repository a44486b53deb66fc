// The gateway's commands as processes, under the signals that Docker, systemd and process
// managers send: SIGTERM to `npm start` drains and stops the gateway with no orphan left
// answering; the same for the sandbox and for `node dist/main.js`; a release without its
// migrations refuses to start. The `npm start` and `npm run sandbox` cases are about npm itself
// (npm's own start-up, its signal forwarding); the others run node directly.

import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { request } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openData } from '../../src/app/data.js';
import { loadConfig } from '../../src/config.js';
import { eventually } from '../support/eventually.js';
import { REPO_ROOT, run, spawnIn, type RunningProcess } from '../support/processes.js';
import { accepting, alive, descendants, freePort } from '../support/processes.js';

const dirs: string[] = [];
const running: RunningProcess[] = [];
/** Every pid a test saw in a launched tree, so that even a failed test leaves no orphan. */
const seen = new Set<number>();
afterEach(() => {
  for (const launched of running.splice(0)) if (launched.child.exitCode === null) launched.child.kill('SIGKILL');
  for (const pid of seen) if (alive(pid)) process.kill(pid, 'SIGKILL');
  seen.clear();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'line-gateway-prod-'));
  dirs.push(dir);
  return dir;
}

// INTROSPECTION public: the request held in flight is an anonymous `{ __typename }`, which a
// gateway otherwise refuses as a whole (401) before it could show that draining works.
function gatewayEnv(dir: string, port: number): Record<string, string> {
  return {
    DATA_DIR: dir,
    DATABASE_URL: `file:${join(dir, 'gateway.db')}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    JWT_SECRET: 'a-test-secret-that-is-long-enough-0123456789',
    LOG_LEVEL: 'info',
    INTROSPECTION: 'public',
  };
}

async function healthy(port: number): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200;
  } catch {
    return false;
  }
}

/**
 * A GraphQL request that is in flight at the gateway: its headers are in (the server's
 * automatic `100 Continue` says so) and its body is not. `finish()` sends the body.
 */
function inFlightRequest(port: number): Promise<{ finish(): Promise<{ status: number; body: string }> }> {
  const body = JSON.stringify({ query: '{ __typename }' });
  return new Promise((resolve, reject) => {
    const pending = request({
      host: '127.0.0.1',
      port,
      path: '/graphql',
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        expect: '100-continue',
      },
    });
    const answered = new Promise<{ status: number; body: string }>((done, fail) => {
      pending.on('response', (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        response.on('end', () => done({ status: response.statusCode ?? 0, body: text }));
      });
      pending.on('error', fail);
    });
    pending.on('continue', () => resolve({ finish: () => (pending.end(body), answered) }));
    pending.on('error', reject);
    pending.flushHeaders();
  });
}

/** Sends `signal` to the launched process and waits (bounded) until it and every descendant are gone. */
async function stopAndWait(launched: RunningProcess, signal: NodeJS.Signals): Promise<{ leftovers: number[] }> {
  const tree = [launched.child.pid!, ...descendants(launched.child.pid!)];
  for (const pid of tree) seen.add(pid);
  launched.child.kill(signal);
  await launched.done;
  await eventually(async () => tree.every((pid) => !alive(pid)), 30_000, 100);
  return { leftovers: tree.filter(alive) };
}

describe('signals', () => {
  it('SIGTERM to `npm start` drains the request in flight, closes the port and leaves no process', async () => {
    const dir = tempDir();
    const port = await freePort();
    const gateway = spawnIn('npm', ['start'], gatewayEnv(dir, port));
    running.push(gateway);
    expect(await eventually(() => healthy(port), 120_000, 200)).toBe(true);
    const tree = descendants(gateway.child.pid!);
    for (const pid of tree) seen.add(pid);
    expect(tree.length).toBeGreaterThan(0);

    const inFlight = await inFlightRequest(port);
    const stopped = stopAndWait(gateway, 'SIGTERM');
    // The gateway has begun to drain once it logs so; the request then still gets its answer.
    expect(await eventually(async () => gateway.output.stderr.includes('SIGTERM: draining'), 30_000)).toBe(true);
    const answer = await inFlight.finish();
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ data: { __typename: 'Query' } });

    const { leftovers } = await stopped;
    expect(leftovers).toEqual([]);
    expect(await accepting(port)).toBe(false);
    expect(gateway.output.stderr).toContain('"stopped"');
  }, 240_000);

  it('SIGINT to `node dist/main.js` stops it with exit code 0, every access line written first', async () => {
    const dir = tempDir();
    const port = await freePort();
    const gateway = spawnIn(process.execPath, ['dist/main.js'], gatewayEnv(dir, port));
    running.push(gateway);
    expect(await eventually(() => healthy(port), 120_000, 200)).toBe(true);
    // Log lines are written asynchronously (src/lib/logger.ts): a burst answered just before the
    // signal still has all its access lines on stderr, before the last line, once the process is gone.
    const burst = 300;
    const answers = await Promise.all(
      Array.from({ length: burst }, () =>
        fetch(`http://127.0.0.1:${port}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ __typename }' }),
        }).then((response) => response.status),
      ),
    );
    expect(answers.every((status) => status === 200)).toBe(true);
    const { leftovers } = await stopAndWait(gateway, 'SIGINT');
    expect(leftovers).toEqual([]);
    const { code, stderr } = await gateway.done;
    expect(code).toBe(0);
    expect(await accepting(port)).toBe(false);
    const lines = stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { message: string; route?: string });
    expect(lines.filter((line) => line.message === 'request' && line.route === '/graphql')).toHaveLength(burst);
    expect(lines.at(-1)?.message).toBe('stopped');
  }, 240_000);

  it('SIGTERM with a carrier that never answers: the process ends within its grace, not the carrier timeout', async () => {
    // A carrier that takes every request and never answers; each request's arrival is counted.
    let arrivals = 0;
    const hung: Server = createServer((socket) => socket.once('data', () => arrivals++));
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    try {
      const address = hung.address();
      const carrierPort = typeof address === 'object' && address ? address.port : 0;
      const dir = tempDir();
      const port = await freePort();
      const env = {
        ...gatewayEnv(dir, port),
        CARRIER_321_URL: `http://127.0.0.1:${carrierPort}`,
        CARRIER_321_API_KEY: 'a-key',
        CARRIER_TIMEOUT_MS: '60000',
        SHUTDOWN_GRACE_MS: '1000',
      };
      expect((await run(process.execPath, ['dist/cli/main.js', 'user', 'create', 'alice'], env)).code).toBe(0);
      const token = (await run(process.execPath, ['dist/cli/main.js', 'token', 'issue', 'alice'], env)).stdout.trim();
      const gateway = spawnIn(process.execPath, ['dist/main.js'], env);
      running.push(gateway);
      expect(await eventually(() => accepting(port), 120_000, 200)).toBe(true);
      const call = (path: string, body?: unknown) =>
        fetch(`http://127.0.0.1:${port}${path}`, {
          method: body ? 'POST' : 'GET',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: body ? JSON.stringify(body) : undefined,
        }).catch(() => null);
      const read = call('/sim/usage/3215550001');
      const write = call('/sim/suspend/', { mdn: '3215550001', transaction_id: 'HUNG-SUSPEND-1' });
      expect(await eventually(async () => arrivals >= 2, 30_000)).toBe(true);

      const signalled = performance.now();
      const { leftovers } = await stopAndWait(gateway, 'SIGTERM');
      const stoppedInMs = performance.now() - signalled;
      expect(leftovers).toEqual([]);
      const { code, stderr } = await gateway.done;
      expect(code).toBe(0);
      // The grace (1 s) and at least a second to close, far from the carrier's 60 s timeout.
      expect(stoppedInMs).toBeLessThan(15_000);
      expect(stderr).toContain('shutdown grace elapsed with work still in flight');
      expect(stderr.trim().split('\n').at(-1)).toContain('"stopped"');
      await Promise.all([read, write]);
      // The cut work did not keep the leases: the next start relays events at once, and the
      // write left in flight waits for recovery (pending), as after a crash.
      const data = await openData(loadConfig(env));
      try {
        expect(await data.db.outboxLease.findMany()).toEqual([]);
        expect((await data.db.transaction.findUnique({ where: { id: 'HUNG-SUSPEND-1' } }))?.status).toBe('pending');
      } finally {
        await data.close();
      }
    } finally {
      hung.close();
    }
  }, 240_000);

  it('SIGTERM to `npm run sandbox` closes both carriers and leaves no process', async () => {
    const [port321, portB] = [await freePort(), await freePort()];
    const sandbox = spawnIn('npm', ['run', 'sandbox'], {
      SANDBOX_321_PORT: String(port321),
      SANDBOX_CARRIER_B_PORT: String(portB),
    });
    running.push(sandbox);
    expect(await eventually(async () => (await accepting(port321)) && (await accepting(portB)), 120_000, 200)).toBe(
      true,
    );
    // A request held by a long injected latency does not keep the stopped sandbox alive.
    const faults = await fetch(`http://127.0.0.1:${port321}/_sandbox/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latency_ms: 120_000 }),
    });
    expect(faults.status).toBe(200);
    const held = fetch(`http://127.0.0.1:${port321}/v1/coverage/10001`, {
      headers: { 'x-api-key': 'sandbox-321-key' },
    }).catch(() => null);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const signalled = performance.now();
    const { leftovers } = await stopAndWait(sandbox, 'SIGTERM');
    expect(leftovers).toEqual([]);
    expect(performance.now() - signalled).toBeLessThan(20_000);
    expect(await accepting(port321)).toBe(false);
    expect(await accepting(portB)).toBe(false);
    await held;
  }, 240_000);
});

describe('runtime assets', () => {
  it('refuses to start, naming the folder, when the migrations are missing', async () => {
    // A release laid out without prisma/: the compiled gateway and its package.json only.
    const release = tempDir();
    cpSync(join(REPO_ROOT, 'dist'), join(release, 'dist'), { recursive: true });
    cpSync(join(REPO_ROOT, 'package.json'), join(release, 'package.json'));
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(release, 'node_modules'));
    const data = tempDir();
    const result = await run(
      process.execPath,
      [join(release, 'dist', 'main.js')],
      gatewayEnv(data, await freePort()),
      120_000,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `the database migrations folder ${join(release, 'prisma', 'sqlite', 'migrations')} is missing`,
    );
    expect(result.stderr).not.toContain('listening');
  }, 180_000);
});
