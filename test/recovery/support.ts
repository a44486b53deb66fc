// Helpers of the recovery tests: sandbox fault control, a second gateway on the same sandbox
// carriers, a transaction row written exactly as the pipeline writes it at reservation, and the
// setting of the tests that kill a compiled gateway during a bulk job.

import { join } from 'node:path';
import { expect } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import type { DataServices } from '../../src/app/data.js';
import { createCarrier321SandboxServer } from '../../src/sandbox/carrier-321/server.js';
import type { SandboxCarrier } from '../../src/sandbox/core/sandbox-carrier.js';
import type { SandboxServer } from '../../src/sandbox/http-kit.js';
import type { ActivateRequest, CarrierId } from '../../src/carriers/types.js';
import type { UserRecord } from '../../src/directory/types.js';
import { TEST_JWT_SECRET, type TestGateway } from '../support/gateway.js';
import { freshSim } from '../support/lines.js';

export async function setFaults(
  gateway: TestGateway,
  carrier: CarrierId,
  faults: Record<string, number>,
): Promise<void> {
  await setSandboxFaults(gateway.sandboxes.urls[carrier], faults);
}

/** The faults of the sandbox carrier served at `url`. */
export async function setSandboxFaults(url: string, faults: Record<string, number>): Promise<void> {
  const response = await fetch(`${url}/_sandbox/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(faults),
  });
  if (response.status !== 200) throw new Error(`sandbox faults: ${response.status}`);
}

/** A write through the gateway whose connection the carrier drops before acting on it: row `unknown`. */
export async function lostWrite(
  gateway: TestGateway,
  token: string,
  path: string,
  body: Record<string, unknown>,
): Promise<void> {
  await setFaults(gateway, '321', { drop_rate: 1 });
  let answer;
  try {
    answer = await gateway.rest('POST', path, { token, body });
  } finally {
    await setFaults(gateway, '321', {});
  }
  expect(answer.status).not.toBe(200);
  expect((await gateway.app.services.transactions.find(body.transaction_id as string))?.status).toBe('unknown');
}

/** The admin command line against `gateway`'s database: exit code and what it printed. */
export async function runAdmin(
  gateway: TestGateway,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const output = { stdout: '', stderr: '' };
  const code = await runCli(args, {
    env: {
      DATABASE_URL: gateway.app.services.config.DATABASE_URL,
      DATA_DIR: gateway.app.services.config.DATA_DIR,
      JWT_SECRET: TEST_JWT_SECRET,
    },
    stdout: { write: (text: string) => (output.stdout += text) },
    stderr: { write: (text: string) => (output.stderr += text) },
  });
  return { code, ...output };
}

/** Environment for another gateway that talks to `gateway`'s in-process sandbox carriers. */
export function sandboxEnv(gateway: TestGateway): Record<string, string> {
  return {
    CARRIER_321_URL: gateway.sandboxes.urls['321'],
    CARRIER_321_API_KEY: 'sandbox-321-key',
    CARRIER_B_URL: gateway.sandboxes.urls.carrier_b,
    CARRIER_B_ACCOUNT_ID: 'sandbox-b-account',
    CARRIER_B_API_SECRET: 'sandbox-b-secret',
  };
}

/**
 * A `pending` activation row as the pipeline reserves it (validated input included), made
 * `minutesAgo` minutes ago; answers the carrier request the handler sends for it.
 */
export async function pendingActivation(
  gateway: TestGateway,
  userId: string,
  id: string,
  planId: string,
  options: { minutesAgo: number; status?: 'pending' | 'unknown'; carrier?: CarrierId; sim?: string },
): Promise<{ sim: string; carrierRequest: Omit<ActivateRequest, 'transactionId'> }> {
  const sim = options.sim ?? freshSim();
  const input = {
    ...activationOf(sim, planId),
    isEsim: 'N',
    language: 'ENGL',
    transactionId: id,
  };
  const createdAt = new Date(Date.now() - options.minutesAgo * 60_000);
  await gateway.app.services.db.transaction.create({
    data: {
      id,
      userId,
      operation: 'activateSim',
      carrier: options.carrier ?? '321',
      sim,
      status: options.status ?? 'pending',
      request: JSON.stringify(input),
      createdAt,
    },
  });
  const plan = await gateway.app.services.directory.plan(planId);
  return {
    sim,
    carrierRequest: {
      sim,
      carrierPlanId: plan!.carrierPlanId,
      zipCode: '30301',
      address: { address1: '1 Main St', city: 'Atlanta', state: 'GA', zipCode: '30301' },
      isEsim: false,
      language: 'ENGL',
    },
  };
}

/**
 * The environment of a compiled gateway killed mid-way through a bulk job: one carrier 321
 * sandbox, short leases (the next gateway takes the job over within seconds), one attempt per
 * carrier call, `concurrency` SIMs at the carrier at once.
 */
export function bulkCrashEnv(options: {
  dir: string;
  databaseUrl?: string;
  carrierUrl: string;
  apiKey: string;
  concurrency: number;
}): Record<string, string> {
  return {
    DATABASE_URL: options.databaseUrl ?? `file:${join(options.dir, 'gateway.db')}`,
    DATA_DIR: options.dir,
    JWT_SECRET: TEST_JWT_SECRET,
    LOG_LEVEL: 'info',
    CARRIER_321_URL: options.carrierUrl,
    CARRIER_321_API_KEY: options.apiKey,
    BULK_JOB_LEASE_MS: '2000',
    CARRIER_TIMEOUT_MS: '1000',
    CARRIER_RETRIES: '0',
    BULK_JOB_CONCURRENCY: String(options.concurrency),
  };
}

/** A user authorized for a carrier 321 plan `planId` (created here), and a token for them. */
export async function bulkCrashCaller(
  data: DataServices,
  name: string,
  planId: string,
): Promise<{ user: UserRecord; token: string }> {
  const user = await data.directory.createUser({ name: `${name}-${Date.now()}` });
  await data.directory.createPlan({ planId, name: planId, carrierPlanId: 'PLUS5GB', carrier: '321' });
  await data.directory.authorize(user.name, [planId]);
  return { user, token: (await data.tokens.issue(user, '1h')).token };
}

/**
 * A carrier 321 sandbox of a crash test's own, on a port of its own, answering after `latencyMs`:
 * its state outlives the gateways the test kills.
 */
export async function crashTestCarrier(
  core: SandboxCarrier,
  apiKey: string,
  latencyMs: number,
): Promise<{ carrier: SandboxServer; url: string }> {
  const carrier = createCarrier321SandboxServer({
    core,
    credentials: { apiKey },
    faults: { latencyMs, errorRate: 0, dropRate: 0, garbageRate: 0 },
  });
  return { carrier, url: await carrier.listen(0, '127.0.0.1') };
}

/** Starts a bulk activation job of `sims` on plan `planId` through the gateway at `url`; its id. */
export async function startJob(url: string, token: string, sims: readonly string[], planId: string): Promise<string> {
  const activations = sims.map((sim) => activationOf(sim, planId));
  const started = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      query: 'mutation ($input: StartBulkActivationInput!) { startBulkActivation(input: $input) { id } }',
      variables: { input: { activations } },
    }),
  });
  const body = (await started.json()) as { data: { startBulkActivation: { id: string } } };
  return body.data.startBulkActivation.id;
}

/** The activation fields the recovery tests send for `sim` (GraphQL's names; an Atlanta E911 address). */
function activationOf(sim: string, planId: string) {
  return { sim, planId, zipCode: '30301', address1: '1 Main St', city: 'Atlanta', state: 'GA' };
}
