// A real crash: the gateway process is killed (SIGKILL) while an activation is at the carrier,
// leaving its row `pending`; the carrier completes the activation anyway. The next gateway on
// the same database resolves the row at start-up with the carrier's answer, and the carrier
// activated the SIM once.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openData, type DataServices } from '../../src/app/data.js';
import { SandboxCarrier } from '../../src/sandbox/core/sandbox-carrier.js';
import type { SandboxServer } from '../../src/sandbox/http-kit.js';
import { startTestGateway, TEST_JWT_SECRET } from '../support/gateway.js';
import { freshSim } from '../support/lines.js';
import { eventually } from '../support/eventually.js';
import { type RunningProcess, startCompiledGateway } from '../support/processes.js';
import { crashTestCarrier } from './support.js';

const API_KEY = 'crash-321-key';

let dir: string;
const core = new SandboxCarrier({ carrier: '321' });
let carrier: SandboxServer;
let carrierUrl: string;
/** Activation requests the carrier has received (counted on arrival, before its latency). */
let activationsReceived = 0;
let data: DataServices;
let env: Record<string, string>;
let child: RunningProcess | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'line-gateway-crash-'));
  // The carrier takes 2 s to answer: long enough to kill the gateway while it waits.
  ({ carrier, url: carrierUrl } = await crashTestCarrier(core, API_KEY, 2000));
  carrier.server.on(
    'request',
    (request: { method?: string }) => void (request.method === 'POST' && activationsReceived++),
  );
  // carrier_b stays an in-process sandbox of each gateway (unused here).
  env = {
    DATABASE_URL: `file:${join(dir, 'gateway.db')}`,
    DATA_DIR: dir,
    JWT_SECRET: TEST_JWT_SECRET,
    LOG_LEVEL: 'info',
    CARRIER_321_URL: carrierUrl,
    CARRIER_321_API_KEY: API_KEY,
  };
  data = await openData(loadConfig(env));
});
afterAll(async () => {
  if (child && child.child.exitCode === null) child.child.kill('SIGKILL');
  await data?.close();
  await carrier?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a gateway killed during an activation', () => {
  it('leaves the row pending, and the next start-up records the carrier’s answer', async () => {
    const user = await data.directory.createUser({ name: `crash-${Date.now()}` });
    await data.directory.createPlan({ planId: 'CRASH', name: 'Crash', carrierPlanId: 'PLUS5GB', carrier: '321' });
    await data.directory.authorize(user.name, ['CRASH']);
    const { token } = await data.tokens.issue(user, '1h');

    // The compiled gateway under node itself (no npm, no tsx), so that SIGKILL reaches the process
    // holding the request; dist/ is built by the suite's global setup.
    const started = await startCompiledGateway({
      ...env,
      PORT: '0',
      CARRIER_TIMEOUT_MS: '20000',
      CARRIER_RETRIES: '0',
    });
    child = started.running;
    const { url } = started;

    const sim = freshSim();
    const id = `KILLED-${Date.now()}`;
    const body = {
      sim,
      plan_id: 'CRASH',
      zip_code: '30301',
      address1: '1 Main St',
      city: 'Atlanta',
      state: 'GA',
      transaction_id: id,
    };
    const lost = fetch(`${url}/sim/activate/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    }).catch((error: unknown) => error);
    // Killed once the activation is at the carrier (which answers only 2 s later).
    expect(await eventually(async () => activationsReceived === 1, 20_000, 10)).toBe(true);
    expect((await data.db.transaction.findUnique({ where: { id } }))?.status).toBe('pending');
    child.child.kill('SIGKILL');
    await child.done;
    expect(await lost).toBeInstanceOf(Error);

    // The carrier still performs the write it had received.
    expect(await eventually(async () => (await core.getSimDetails(sim)).iccidStatus !== 'AVAILABLE', 10_000, 50)).toBe(
      true,
    );
    expect((await data.db.transaction.findUnique({ where: { id } }))?.status).toBe('pending');
    carrier.faults = { latencyMs: 0, errorRate: 0, dropRate: 0, garbageRate: 0 };

    // Next start (in-process): the pending row is older than a carrier call can take, so it is re-sent.
    // 1 s leaves a busy machine room for the sandbox's answer (a timeout would be a second attempt).
    const next = await startTestGateway({
      env: { ...env, DATA_DIR: join(dir, 'next'), CARRIER_TIMEOUT_MS: '1000', CARRIER_RETRIES: '0' },
    });
    try {
      expect(
        await eventually(
          async () => (await next.app.services.transactions.find(id))?.status === 'success',
          30_000,
          100,
        ),
      ).toBe(true);
      const record = await next.rest('GET', `/transactions/${id}`, { token });
      expect(record.body).toMatchObject({ id, status: 'success', http_status: 200, recovered: true });
      const answer = JSON.parse(record.body.response as string) as { mdn: string; sim: string };
      expect(answer).toMatchObject({ status: 'success', sim, transaction_id: id });
      expect((await next.app.services.transactions.find(id))?.attempts).toBe(1);
      // The carrier activated once: its replay of the id is the same line, and the next number is the next one.
      expect(
        (
          await core.activate({
            sim,
            carrierPlanId: 'PLUS5GB',
            zipCode: '30301',
            address: { address1: '1 Main St', city: 'Atlanta', state: 'GA', zipCode: '30301' },
            isEsim: false,
            language: 'ENGL',
            transactionId: id,
          })
        ).mdn,
      ).toBe(answer.mdn);
      const other = await core.activate({
        sim: freshSim(),
        carrierPlanId: 'PLUS5GB',
        zipCode: '30301',
        address: { address1: '1 Main St', city: 'Atlanta', state: 'GA', zipCode: '30301' },
        isEsim: false,
        language: 'ENGL',
        transactionId: `OTHER-${id}`,
      });
      expect(Number(other.mdn)).toBe(Number(answer.mdn) + 1);
      // The line is routed to its carrier, as the original request would have recorded it.
      expect((await next.app.services.lines.byMdns([answer.mdn])).get(answer.mdn)?.carrier).toBe('321');
    } finally {
      await next.close();
    }
  }, 120_000);
});
