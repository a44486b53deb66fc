// Carrier 321 adapter under transport trouble and bad credentials: every failure is a
// CarrierFault of the right kind (never a half-parsed answer, never an unhandled rejection),
// writes report an unknown outcome when they may have reached the carrier, and the API key
// appears in no error.

import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCarrier321Adapter, type Carrier321Adapter } from '../../../src/carriers/carrier-321/adapter.js';
import { CarrierFault, type CarrierFaultKind } from '../../../src/carriers/errors.js';
import { createCarrier321SandboxServer } from '../../../src/sandbox/carrier-321/server.js';
import { SandboxCarrier } from '../../../src/sandbox/core/index.js';
import { NO_FAULTS, type SandboxServer } from '../../../src/sandbox/http-kit.js';
import { startRecordingServer, type RecordingServer } from '../../support/recording-server.js';

const KEY = 'fault-test-key-5f1c';
const MDN = '3215550001';

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => {
  unhandled.push(reason);
};

async function faultOf(promise: Promise<unknown>): Promise<CarrierFault> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CarrierFault);
  return error as CarrierFault;
}

function expectFault(fault: CarrierFault, kind: CarrierFaultKind, outcomeKnown: boolean): void {
  expect({ kind: fault.kind, outcomeKnown: fault.outcomeKnown, carrier: fault.carrier }).toEqual({
    kind,
    outcomeKnown,
    carrier: '321',
  });
}

/** Every place an error could carry the key when logged or serialised. */
function expectNoKey(error: unknown): void {
  const e = error as Error;
  for (const text of [String(e), e.message, e.stack ?? '', JSON.stringify(e), JSON.stringify(Object.entries(e))])
    expect(text).not.toContain(KEY);
}

const write = (adapter: Carrier321Adapter) => adapter.suspend({ transactionId: 'FAULT-TX-1', mdn: MDN });
const read = (adapter: Carrier321Adapter) => adapter.getUsage(MDN);

beforeAll(() => {
  process.on('unhandledRejection', onUnhandled);
});
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
  expect(unhandled).toEqual([]);
});

describe('against the sandbox with injected faults', () => {
  let server: SandboxServer;
  let baseUrl: string;
  const adapters: Carrier321Adapter[] = [];
  const adapter = (timeoutMs = 2000, apiKey = KEY): Carrier321Adapter => {
    const created = createCarrier321Adapter({ baseUrl, apiKey, timeoutMs, retries: 0 });
    adapters.push(created);
    return created;
  };

  beforeAll(async () => {
    server = createCarrier321SandboxServer({
      core: new SandboxCarrier({ carrier: '321' }),
      credentials: { apiKey: KEY },
    });
    baseUrl = await server.listen();
  });
  afterEach(() => {
    server.faults = { ...NO_FAULTS };
  });
  afterAll(async () => {
    await Promise.all(adapters.map((a) => a.close()));
    await server.close();
  });

  it('latency beyond the timeout is a timeout; a write then has an unknown outcome', async () => {
    server.faults = { ...NO_FAULTS, latencyMs: 400 };
    const slow = adapter(50);
    expectFault(await faultOf(read(slow)), 'timeout', true);
    expectFault(await faultOf(write(slow)), 'timeout', false);
  });

  it('a 5xx is a server_error', async () => {
    server.faults = { ...NO_FAULTS, errorRate: 1 };
    expectFault(await faultOf(read(adapter())), 'server_error', true);
    expectFault(await faultOf(write(adapter())), 'server_error', false);
  });

  it('a malformed JSON body is a bad_response', async () => {
    server.faults = { ...NO_FAULTS, garbageRate: 1 };
    expectFault(await faultOf(read(adapter())), 'bad_response', true);
    expectFault(await faultOf(write(adapter())), 'bad_response', false);
  });

  it('a dropped connection is unreachable; a write then has an unknown outcome', async () => {
    server.faults = { ...NO_FAULTS, dropRate: 1 };
    expectFault(await faultOf(read(adapter())), 'unreachable', true);
    expectFault(await faultOf(write(adapter())), 'unreachable', false);
  });

  it('a wrong API key is a fault whose message does not carry either key', async () => {
    const wrongKey = 'wrong-key-9d2e';
    const wrong = adapter(2000, wrongKey);
    for (const call of [read, write]) {
      const fault = await faultOf(call(wrong));
      expectFault(fault, 'unreachable', true);
      expectNoKey(fault);
      expect(fault.message).not.toContain(wrongKey);
    }
  });

  it('the adapter works again once faults are cleared', async () => {
    const ok = adapter();
    expect((await ok.getCoverage('62701')).covered).toBe(true);
  });
});

describe('against a closed port', () => {
  it('a refused connection is unreachable', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    const adapter = createCarrier321Adapter({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: KEY,
      timeoutMs: 2000,
      retries: 1,
    });
    try {
      const readFault = await faultOf(read(adapter));
      expectFault(readFault, 'unreachable', true);
      expectNoKey(readFault);
      // A refused connection never carried the write, so its outcome is known: nothing happened.
      expectFault(await faultOf(write(adapter)), 'unreachable', true);
    } finally {
      await adapter.close();
    }
  });
});

describe('against answers that are not the wire format', () => {
  let carrier: RecordingServer;
  let adapter: Carrier321Adapter;

  beforeAll(async () => {
    carrier = await startRecordingServer();
    adapter = createCarrier321Adapter({ baseUrl: carrier.url, apiKey: KEY, timeoutMs: 2000, retries: 0 });
  });
  afterAll(async () => {
    await adapter.close();
    await carrier.close();
  });

  it.each([
    ['a 2xx body of the wrong shape', { status: 200, body: { msisdn: MDN } }],
    [
      'a 2xx body with a domain-style timestamp',
      { status: 200, body: { msisdn: MDN, soc: 'X', name: 'X', effective_at: '2026-01-02 03:04:05' } },
    ],
    ['a 2xx body with an unknown line state', { status: 200, body: { msisdn: MDN, state: 'zombie' } }],
    ['an empty 2xx body', { status: 200, body: '' }],
    ['a 4xx without the error body', { status: 422, body: { message: 'nope' } }],
    ['a 3xx', { status: 304, body: '' }],
  ])('%s is a bad_response', async (_name, reply) => {
    carrier.respondWith(() => reply);
    expectFault(await faultOf(adapter.extended.getActivePlan(MDN)), 'bad_response', true);
  });

  it('a 5xx with the error body is still a server_error, not a rejection', async () => {
    carrier.respondWith(() => ({
      status: 500,
      body: { error: { code: 'API-500', description: 'Internal server error' } },
    }));
    expectFault(await faultOf(read(adapter)), 'server_error', true);
  });

  it('a 4xx with the error body is a rejection, numeric codes kept as strings', async () => {
    carrier.respondWith(() => ({
      status: 422,
      body: { error: { code: '935', description: 'Subscriber state not NEW or ACTIVE' } },
    }));
    const error: unknown = await write(adapter).catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'CarrierRejection',
      code: '935',
      message: 'Subscriber state not NEW or ACTIVE (935)',
    });
  });
});
