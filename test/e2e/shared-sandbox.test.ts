// Staging shape: one sandbox process (`npm run sandbox`'s compiled dist/sandbox/main.js; the npm
// command itself is tested in test/process/signals.test.ts), two gateways (each with its own database)
// pointed at it by URL and credentials. Both reach the same carrier state.

import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { freshSim } from '../support/lines.js';

const REPO_ROOT = new URL('../..', import.meta.url).pathname;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer`);
}

let sandbox: ChildProcess;
let first: TestGateway;
let second: TestGateway;

beforeAll(async () => {
  const [port321, portB] = await Promise.all([freePort(), freePort()]);
  sandbox = spawn(process.execPath, ['dist/sandbox/main.js'], {
    cwd: REPO_ROOT,
    env: { ...process.env, SANDBOX_321_PORT: String(port321), SANDBOX_CARRIER_B_PORT: String(portB) },
    stdio: 'ignore',
    detached: true,
  });
  await Promise.all([
    waitFor(`http://127.0.0.1:${port321}/_sandbox/clock`),
    waitFor(`http://127.0.0.1:${portB}/_sandbox/clock`),
  ]);
  const env = {
    CARRIER_321_URL: `http://127.0.0.1:${port321}`,
    CARRIER_321_API_KEY: 'sandbox-321-key',
    CARRIER_B_URL: `http://127.0.0.1:${portB}`,
    CARRIER_B_ACCOUNT_ID: 'sandbox-b-account',
    CARRIER_B_API_SECRET: 'sandbox-b-secret',
    SANDBOX_CARRIERS: 'off',
  };
  [first, second] = await Promise.all([startGateway({ env }), startGateway({ env })]);
}, 60_000);

afterAll(async () => {
  await Promise.all([first?.close(), second?.close()]);
  // Stop the whole process group (the sandbox was started detached, as its own group).
  if (sandbox?.pid) process.kill(-sandbox.pid, 'SIGTERM');
});

describe('two gateways on one standalone sandbox', () => {
  it('see the same lines: activated through one, queried and suspended through the other', async () => {
    const { token: firstToken } = await first.user({ plans: ['BASIC'] });
    const { token: secondToken } = await second.user();
    const sim = freshSim();
    const activated = await first.rest('POST', '/sim/activate/', {
      token: firstToken,
      body: { sim, plan_id: 'BASIC', zip_code: '30301', address1: '1 Main St', city: 'Atlanta', state: 'GA' },
    });
    expect(activated.status).toBe(200);
    const mdn = String(activated.body.mdn);

    const usage = await second.rest('GET', `/sim/usage/${mdn}`, { token: secondToken });
    expect(usage.status).toBe(200);
    expect(usage.body).toMatchObject({ mdn, sim, status: 'ACTIVE' });

    const suspended = await second.rest('POST', '/sim/suspend/', { token: secondToken, body: { mdn } });
    expect(suspended.status).toBe(200);
    const service = await first.rest('GET', `/sim/service/${mdn}`, { token: firstToken });
    expect(service.body).toMatchObject({ mdn, status: 'SUSPENDED' });
  });

  it('report the carriers as configured without an in-process sandbox', async () => {
    const health = await second.rest('GET', '/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', checks: { carriers: { '321': 'ok', carrier_b: 'ok' } } });
    expect(second.app.carriers.sandboxes).toBeNull();
  });
});
