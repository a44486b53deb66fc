// Shared set-up for tests that run the carrier_b sandbox server on loopback.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCarrierBSandboxServer } from '../../../src/sandbox/carrier-b/server.js';
import { SandboxCarrier } from '../../../src/sandbox/core/index.js';
import type { SandboxServer } from '../../../src/sandbox/http-kit.js';

export const CREDENTIALS = { accountId: 'sandbox-b-account', apiSecret: 'sandbox-b-secret' };
export const ADDRESS = { address1: '1 Main St', city: 'Springfield', state: 'IL', zipCode: '62701' };

export interface RunningSandbox {
  core: SandboxCarrier;
  server: SandboxServer;
  url: string;
}

export async function startSandbox(): Promise<RunningSandbox> {
  const core = new SandboxCarrier({ carrier: 'carrier_b', startTime: new Date('2026-01-02T03:04:05Z') });
  const server = createCarrierBSandboxServer({ core, credentials: CREDENTIALS });
  return { core, server, url: await server.listen() };
}

export async function setFaults(
  url: string,
  faults: { latency_ms?: number; error_rate?: number; drop_rate?: number; garbage_rate?: number },
): Promise<void> {
  const response = await fetch(`${url}/_sandbox/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(faults),
  });
  if (response.status !== 200) throw new Error(`could not set sandbox faults: HTTP ${response.status}`);
}

/** A loopback URL on which nothing listens (a port that was just released). */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** The error a promise rejects with (fails the test if it resolves). */
export async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );
}
