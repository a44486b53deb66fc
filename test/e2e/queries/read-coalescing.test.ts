// Identical carrier reads in flight at once share one carrier call across requests
// (CARRIER_READ_COALESCING, src/pipeline/read-flights.ts), watched at the sandbox carrier: the
// carrier is held mid-call by the test, so "at once" does not depend on timing. Each request
// still takes its own steps (a stranger is refused while the call is in flight), gets its own
// fault, is not cancelled by another's abort, is charged as if it had called alone, and never
// joins a call older than a write on that carrier.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import '../../../src/graphql/dashboard.js';
import type { CarrierId } from '../../../src/carriers/types.js';
import type { CostExtension } from '../../../src/graphql/use-cost-budget.js';
import { startGateway, type TestGateway } from '../../support/gateway.js';
import { eventually } from '../../support/eventually.js';
import { seedLine, type SeededLine } from '../../support/lines.js';
import { useGateway } from '../../support/use-gateway.js';

const gateway = useGateway({ listen: true, env: { CARRIER_RETRIES: '0' } });

interface Held {
  /** Calls of the method the carrier has received so far. */
  calls(): number;
  /** Waits until the carrier has received `count` calls. */
  arrived(count: number): Promise<void>;
  /** Lets every held call answer (now and from now on). */
  release(): void;
  /** Cuts the connection of every call received so far, then lets them go: a fault at the gateway. */
  drop(): void;
}

const restores: (() => void)[] = [];

/**
 * Holds `method` of a sandbox core: each call reads the carrier's state at once (as a real
 * carrier answering late would have) but answers only once released.
 */
function hold(target: TestGateway, carrier: CarrierId, method: 'getUsage' | 'getServiceProfile' | 'suspend'): Held {
  const core = target.sandboxes.cores[carrier] as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const original = core[method]!;
  const own = Object.getOwnPropertyDescriptor(core, method);
  const server = target.sandboxes.servers[carrier].server;
  const sockets: { destroy(): void }[] = [];
  const onRequest = (request: { socket: { destroy(): void } }) => sockets.push(request.socket);
  server.on('request', onRequest);
  let calls = 0;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  // `suspend` is held before it acts (a write in flight); reads after they have read.
  const before = method === 'suspend';
  core[method] = async (...args: unknown[]) => {
    calls += 1;
    if (before) await gate;
    const answer = await original.apply(core, args);
    if (!before) await gate;
    return answer;
  };
  const restore = () => {
    if (own) Object.defineProperty(core, method, own);
    else delete core[method];
    server.off('request', onRequest);
    open();
  };
  restores.push(restore);
  return {
    calls: () => calls,
    arrived: async (count) => {
      if (!(await eventually(async () => calls >= count, 5_000, 5)))
        throw new Error(`${method}: ${calls} of ${count} calls arrived`);
    },
    release: () => open(),
    drop: () => {
      for (const socket of sockets) socket.destroy();
      open();
    },
  };
}

afterEach(() => {
  for (const restore of restores.splice(0)) restore();
});

async function joined(target: TestGateway, operation: string): Promise<number> {
  const metric = await target.app.services.metrics.carrierReadsJoined.get();
  return metric.values.find((value) => value.labels.operation === operation)?.value ?? 0;
}

async function operationCount(target: TestGateway, operation: string): Promise<number> {
  const metric = await target.app.services.metrics.operations.get();
  return metric.values
    .filter(
      (value) => value.metricName === 'line_gateway_operation_seconds_count' && value.labels.operation === operation,
    )
    .reduce((sum, value) => sum + value.value, 0);
}

/** Operations that met an unreachable carrier, one per request. */
async function unreachable(target: TestGateway): Promise<number> {
  const metric = await target.app.services.metrics.carrierOutcomes.get();
  return metric.values.find((value) => value.labels.outcome === 'unreachable')?.value ?? 0;
}

/** Waits until `count` more reads of `operation` have joined a call in flight. */
async function joinedReach(target: TestGateway, operation: string, count: number): Promise<void> {
  if (!(await eventually(async () => (await joined(target, operation)) >= count, 5_000, 5)))
    throw new Error(`${operation}: ${await joined(target, operation)} of ${count} reads joined`);
}

let shared: SeededLine;
let owned: SeededLine;
let ownerToken: string;
const tokens: string[] = [];

beforeAll(async () => {
  shared = await seedLine(gateway);
  const owner = await gateway.user();
  ownerToken = owner.token;
  owned = await seedLine(gateway, { register: false });
  await gateway.app.services.lines.record({ ...owned, owner: owner.user.id });
  for (let i = 0; i < 6; i++) tokens.push((await gateway.user()).token);
});

const usageOf = (mdn: string, token: string, signal?: AbortSignal) =>
  gateway.fetch(`/sim/usage/${mdn}`, { headers: { authorization: `Bearer ${token}` }, signal });

describe('identical reads in flight share one carrier call', () => {
  it('answers six users reading the same line with one carrier call, each counted as its own request', async () => {
    const held = hold(gateway, '321', 'getUsage');
    const joinedBefore = await joined(gateway, 'usage');
    const countedBefore = await operationCount(gateway, 'usage');
    const first = usageOf(shared.mdn, tokens[0]!);
    await held.arrived(1);
    const others = tokens.slice(1).map((token) => usageOf(shared.mdn, token));
    await joinedReach(gateway, 'usage', joinedBefore + others.length);
    held.release();
    const answers = await Promise.all([first, ...others]);
    const bodies = await Promise.all(answers.map((answer) => answer.json()));
    expect(answers.map((answer) => answer.status)).toEqual(tokens.map(() => 200));
    for (const body of bodies) expect(body).toEqual(bodies[0]);
    expect(bodies[0]).toMatchObject({ mdn: shared.mdn, status: 'ACTIVE' });
    expect(held.calls()).toBe(1);
    expect(await operationCount(gateway, 'usage')).toBe(countedBefore + tokens.length);
    // Once settled, the call is forgotten: the next read asks the carrier again.
    expect(gateway.app.services.carrierReads.inFlight).toBe(0);
    expect((await usageOf(shared.mdn, tokens[0]!)).status).toBe(200);
    expect(held.calls()).toBe(2);
  });

  it('shares the calls of two `lines` screens, each charged its full cost', async () => {
    const held = hold(gateway, '321', 'getUsage');
    const screen = (token: string) =>
      gateway.fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          query: 'query ($mdns: [String!]!) { lines(mdns: $mdns) { mdn usage { status planName } } }',
          variables: { mdns: [shared.mdn] },
        }),
      });
    const joinedBefore = await joined(gateway, 'usage');
    const first = screen(tokens[2]!);
    await held.arrived(1);
    const second = screen(tokens[3]!);
    await joinedReach(gateway, 'usage', joinedBefore + 1);
    held.release();
    type Screen = { data: { lines: { usage: unknown }[] }; errors?: unknown; extensions: { cost: CostExtension } };
    const answers = (await Promise.all([(await first).json(), (await second).json()])) as Screen[];
    expect(held.calls()).toBe(1);
    for (const answer of answers) {
      expect(answer.errors).toBeUndefined();
      expect(answer.data.lines[0]!.usage).toMatchObject({ status: 'SUCCESS' });
      // What a request is charged does not depend on who else asked at the same moment.
      expect(answer.extensions.cost).toMatchObject({ requestedQueryCost: 1, actualQueryCost: 1 });
    }
  });

  it('refuses a stranger while the owner’s read of the line is in flight, and lets the owner join', async () => {
    const held = hold(gateway, '321', 'getUsage');
    const joinedBefore = await joined(gateway, 'usage');
    const first = usageOf(owned.mdn, ownerToken);
    await held.arrived(1);
    const stranger = await usageOf(owned.mdn, tokens[0]!);
    expect(stranger.status).toBe(403);
    const refusal = (await stranger.json()) as Record<string, unknown>;
    expect(refusal).toMatchObject({ status: 'failure', code: 'HTTP_403' });
    expect(refusal).not.toHaveProperty('balance_details');
    const anonymous = await gateway.fetch(`/sim/usage/${owned.mdn}`);
    expect(anonymous.status).toBe(401);
    expect(await joined(gateway, 'usage')).toBe(joinedBefore);
    const again = usageOf(owned.mdn, ownerToken);
    await joinedReach(gateway, 'usage', joinedBefore + 1);
    held.release();
    expect((await first).status).toBe(200);
    expect((await again).status).toBe(200);
    expect(held.calls()).toBe(1);
  });

  it('does not share different inputs, operations or carriers', async () => {
    const onB = await seedLine(gateway, { carrier: 'carrier_b' });
    const on321 = hold(gateway, '321', 'getUsage');
    const onCarrierB = hold(gateway, 'carrier_b', 'getUsage');
    const profiles = hold(gateway, '321', 'getServiceProfile');
    const joinedBefore = await joined(gateway, 'usage');
    const answers = [
      usageOf(shared.mdn, tokens[0]!),
      usageOf(owned.mdn, ownerToken),
      usageOf(onB.mdn, tokens[1]!),
      gateway.fetch(`/sim/service/${shared.mdn}`, { headers: { authorization: `Bearer ${tokens[2]}` } }),
      // Same line, one more input member: another question.
      gateway.fetch(`/sim/service/${shared.mdn}?sim=${shared.sim}`, {
        headers: { authorization: `Bearer ${tokens[3]}` },
      }),
    ];
    await on321.arrived(2);
    await onCarrierB.arrived(1);
    await profiles.arrived(2);
    for (const held of [on321, onCarrierB, profiles]) held.release();
    expect((await Promise.all(answers)).map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await joined(gateway, 'usage')).toBe(joinedBefore);
  });
});

describe('a shared call that fails', () => {
  it('gives every request its own carrier fault, and the next read calls again', async () => {
    const held = hold(gateway, '321', 'getUsage');
    const joinedBefore = await joined(gateway, 'usage');
    const faultsBefore = await unreachable(gateway);
    const first = usageOf(shared.mdn, tokens[0]!);
    await held.arrived(1);
    const others = [usageOf(shared.mdn, tokens[1]!), usageOf(shared.mdn, tokens[2]!)];
    await joinedReach(gateway, 'usage', joinedBefore + 2);
    held.drop();
    const answers = await Promise.all([first, ...others]);
    const bodies = (await Promise.all(answers.map((answer) => answer.json()))) as Record<string, unknown>[];
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400]);
    for (const body of bodies)
      expect(body).toEqual({
        status: 'failure',
        errors: ['Carrier 321 could not be reached (CARRIER_UNAVAILABLE)'],
        message: 'Carrier 321 could not be reached (CARRIER_UNAVAILABLE)',
      });
    // Each request took its own fault path (counted, logged and answered per request).
    expect(await unreachable(gateway)).toBe(faultsBefore + 3);
    expect(held.calls()).toBe(1);
    expect(gateway.app.services.carrierReads.inFlight).toBe(0);
    held.release();
    expect((await usageOf(shared.mdn, tokens[3]!)).status).toBe(200);
    expect(held.calls()).toBe(2);
  });

  it('is not cancelled by the request that started it going away', async () => {
    const held = hold(gateway, '321', 'getUsage');
    const joinedBefore = await joined(gateway, 'usage');
    const leaving = new AbortController();
    const first = usageOf(shared.mdn, tokens[0]!, leaving.signal).catch((error: unknown) => error);
    await held.arrived(1);
    const other = usageOf(shared.mdn, tokens[1]!);
    await joinedReach(gateway, 'usage', joinedBefore + 1);
    leaving.abort();
    expect(await first).toBeInstanceOf(Error);
    held.release();
    const answer = await other;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ status: 'ACTIVE' });
    expect(held.calls()).toBe(1);
  });
});

describe('read-your-writes', () => {
  it('never serves a read admitted during or after a suspend from a call that started before it', async () => {
    const line = await seedLine(gateway);
    const reads = hold(gateway, '321', 'getServiceProfile');
    const writes = hold(gateway, '321', 'suspend');
    const joinedBefore = await joined(gateway, 'serviceInfo');
    const service = (token: string) =>
      gateway.fetch(`/sim/service/${line.mdn}`, { headers: { authorization: `Bearer ${token}` } });

    // A read in flight (it has read the line, ACTIVE), then a suspend reaches the carrier.
    const before = service(tokens[0]!);
    await reads.arrived(1);
    const suspend = gateway.fetch('/sim/suspend/', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[1]}` },
      body: JSON.stringify({ mdn: line.mdn }),
    });
    await writes.arrived(1);
    // Admitted while the write runs: its own call, not the one before the write.
    const during = service(tokens[2]!);
    await reads.arrived(2);
    writes.release();
    expect((await suspend).status).toBe(200);
    // Admitted after the write: its own call again, which sees the suspended line.
    const after = service(tokens[3]!);
    await reads.arrived(3);
    reads.release();
    const [early, concurrent, late] = await Promise.all([before, during, after]);
    expect((await early!.json()) as Record<string, unknown>).toMatchObject({ status: 'ACTIVE' });
    expect(concurrent!.status).toBe(200);
    expect((await late!.json()) as Record<string, unknown>).toMatchObject({ status: 'SUSPENDED' });
    expect(reads.calls()).toBe(3);
    expect(await joined(gateway, 'serviceInfo')).toBe(joinedBefore);
  });
});

describe('CARRIER_READ_COALESCING=off', () => {
  let off: TestGateway;
  beforeAll(async () => {
    off = await startGateway({ env: { CARRIER_READ_COALESCING: 'off', CARRIER_RETRIES: '0' } });
  });
  afterAll(() => off.close());

  it('makes one carrier call per request', async () => {
    const line = await seedLine(off);
    const held = hold(off, '321', 'getUsage');
    const readers = await Promise.all([off.user(), off.user(), off.user()]);
    const answers = readers.map(({ token }) =>
      off.fetch(`/sim/usage/${line.mdn}`, { headers: { authorization: `Bearer ${token}` } }),
    );
    await held.arrived(3);
    held.release();
    expect((await Promise.all(answers)).map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(held.calls()).toBe(3);
    expect(await joined(off, 'usage')).toBe(0);
  });
});
