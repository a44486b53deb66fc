// A line's lost writes are re-sent in the order the client made them, whatever their own retry
// times: a write is never re-sent while an older write on its line is still unresolved, and is
// re-sent as soon as that one resolves, not after its own backoff. The audit's case: an outage
// loses a suspend, then the restore the client made after it; the suspend, with more attempts,
// backs off longer, so the restore comes due first. Re-sent first, the restore was refused
// ("MSISDN is not suspended") and the suspend then landed: the line ended SUSPENDED.
//
// Recovery runs only when the test says (this gateway's reconciler is stopped; replicas started
// on its database and sandbox carriers sweep), and each row's retry time is set in the database
// as its backoff would have left it, so which row is due first is the test's choice, not a race.

import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SuspendRequest } from '../../src/carriers/types.js';
import { createLogger } from '../../src/lib/logger.js';
import { startGateway, startReplica, type TestGateway } from '../support/gateway.js';
import { seedLine } from '../support/lines.js';
import { createPlans } from '../support/plans.js';
import { postgresAvailable } from '../support/postgres.js';
import { eventually } from '../support/eventually.js';
import { activationBody } from '../e2e/activation/activations.js';
import { lostWrite, sandboxEnv } from './support.js';

const HOUR = 3_600_000;
const DATABASES: ('sqlite' | 'postgresql')[] = (await postgresAvailable()) ? ['sqlite', 'postgresql'] : ['sqlite'];

/** A gateway whose own reconciler is stopped, the Idempotency-Key of each write its carrier 321 received (on arrival). */
async function writer(database: 'sqlite' | 'postgresql'): Promise<{ gateway: TestGateway; received: string[] }> {
  const gateway = await startGateway({
    database,
    env: { CARRIER_TIMEOUT_MS: '300', CARRIER_RETRIES: '0', RECOVERY_SWEEP_MS: '3600000' },
  });
  await gateway.app.services.recovery.stop();
  await createPlans(gateway);
  const received: string[] = [];
  gateway.sandboxes.servers['321'].server.on('request', (request: IncomingMessage) => {
    const key = request.headers['idempotency-key'];
    if (typeof key === 'string') received.push(key);
  });
  return { gateway, received };
}

/** The environment of a replica that re-sends on `gateway`'s sandbox carriers, sweeping only when told. */
const replicaEnv = (gateway: TestGateway, extra: Record<string, string> = {}) => ({
  ...sandboxEnv(gateway),
  CARRIER_TIMEOUT_MS: '30000',
  CARRIER_RETRIES: '0',
  RECOVERY_SWEEP_MS: '3600000',
  ...extra,
});

/** Sets a row's retry schedule as its backoff would have: `attempts` made, the next one due in `dueInMs` (null: now). */
async function schedule(gateway: TestGateway, id: string, attempts: number, dueInMs: number | null) {
  await gateway.app.services.db.transaction.update({
    where: { id },
    data: { attempts, leaseUntil: dueInMs === null ? null : new Date(Date.now() + dueInMs) },
  });
}

describe.each(DATABASES)('on %s', (database) => {
  let gateway: TestGateway;
  let received: string[];

  beforeAll(async () => {
    ({ gateway, received } = await writer(database));
  });
  afterAll(() => gateway.close());

  const sent = (key: string) => received.filter((each) => each === key);
  /** When (in arrival order) the carrier received `key` for the `nth` time, 1 being the request's own. */
  const arrival = (key: string, nth: number) => {
    let seen = 0;
    return received.findIndex((each) => each === key && ++seen === nth);
  };
  const row = (id: string) => gateway.app.services.transactions.find(id);
  const events = (mdns: string[]) =>
    gateway.app.services.db.lineEvent.findMany({ where: { mdn: { in: mdns } }, orderBy: { seq: 'asc' } });
  const carrierStatus = async (mdn: string) => (await gateway.sandboxes.cores['321'].getNetworkStatus(mdn)).lineStatus;

  /** Runs `drive` with a replica that re-sends on this gateway's carriers, started after the rows were scheduled. */
  async function withReplica(drive: (replica: TestGateway) => Promise<void>) {
    const replica = await startReplica(gateway, replicaEnv(gateway));
    try {
      await drive(replica);
    } finally {
      await replica.close();
    }
  }

  it('re-sends a lost suspend before the lost restore made after it, though the restore was due first: the line ends ACTIVE', async () => {
    const { token } = await gateway.user();
    const line = await seedLine(gateway);
    const stamp = Date.now();
    const suspend = `T-SUS-${stamp}`;
    const restore = `T-RES-${stamp}`;
    await lostWrite(gateway, token, '/sim/suspend/', { mdn: line.mdn, transaction_id: suspend });
    await lostWrite(gateway, token, '/sim/restore/', { mdn: line.mdn, transaction_id: restore });
    // After a long outage the older suspend, with more attempts behind it, backs off longer.
    await schedule(gateway, suspend, 5, HOUR);
    await schedule(gateway, restore, 4, null);

    await withReplica(async (replica) => {
      await replica.app.services.recovery.sweep();
      // The restore is due but waits for the suspend: not claimed, not re-sent, the line untouched.
      expect(await row(restore)).toMatchObject({ status: 'unknown', attempts: 4 });
      expect(sent(restore)).toHaveLength(1);
      expect(await carrierStatus(line.mdn)).toBe('ACTIVE');

      // The suspend's backoff ends; the restore's own next re-send would be an hour away.
      await schedule(gateway, restore, 4, HOUR);
      await schedule(gateway, suspend, 5, 0);
      await replica.app.services.recovery.sweep();
    });

    // The suspend landed, then the restore at once (its backoff ended with the suspend).
    expect(await row(suspend)).toMatchObject({ status: 'success', attempts: 6, resolvedAt: expect.any(Date) });
    expect(await row(restore)).toMatchObject({ status: 'success', attempts: 5, resolvedAt: expect.any(Date) });
    expect(sent(suspend)).toHaveLength(2);
    expect(sent(restore)).toHaveLength(2);
    expect(arrival(suspend, 2)).toBeLessThan(arrival(restore, 2));
    expect(await carrierStatus(line.mdn)).toBe('ACTIVE');
    expect((await gateway.app.services.db.line.findUnique({ where: { mdn: line.mdn } }))?.status).toBe('ACTIVE');
    const lineEvents = await events([line.mdn]);
    expect(lineEvents.map((event) => [event.type, event.transactionId])).toEqual([
      ['line.suspended', suspend],
      ['line.restored', restore],
    ]);
    expect(lineEvents.map((event) => (JSON.parse(event.data) as { recovered?: boolean }).recovered)).toEqual([
      true,
      true,
    ]);
    const rest = await gateway.rest('GET', `/transactions/${restore}`, { token });
    expect(rest.body).toMatchObject({ status: 'success', http_status: 200, recovered: true });
  });

  it('re-sends a lost plan change before the lost MDN swap made after it: the plan changes on the number the swap then gives up', async () => {
    const { token } = await gateway.user({ plans: ['PREMIUM'] });
    const line = await seedLine(gateway);
    const stamp = Date.now();
    const planChange = `T-PLAN-${stamp}`;
    const swap = `T-SWAP-${stamp}`;
    await lostWrite(gateway, token, '/sim/plan/change/', {
      mdn: line.mdn,
      new_plan_id: 'PREMIUM',
      transaction_id: planChange,
    });
    await lostWrite(gateway, token, '/sim/mdn/swap/', {
      mdn: line.mdn,
      sim: line.sim,
      zip_code: '30301',
      transaction_id: swap,
    });
    await schedule(gateway, planChange, 5, HOUR);
    await schedule(gateway, swap, 4, null);

    await withReplica(async (replica) => {
      await replica.app.services.recovery.sweep();
      expect(await row(swap)).toMatchObject({ status: 'unknown', attempts: 4 });
      expect(sent(swap)).toHaveLength(1);
      expect(await carrierStatus(line.mdn)).toBe('ACTIVE');

      await schedule(gateway, swap, 4, HOUR);
      await schedule(gateway, planChange, 5, 0);
      await replica.app.services.recovery.sweep();
    });

    // Re-sent first, the swap used to take the number away, and the plan change then failed (918).
    expect(await row(planChange)).toMatchObject({ status: 'success', response: { status: 'success' } });
    const swapped = await row(swap);
    expect(swapped).toMatchObject({ status: 'success' });
    const newMdn = (swapped!.response as { new_mdn: string }).new_mdn;
    expect(newMdn).toMatch(/^\d{10}$/);
    expect(arrival(planChange, 2)).toBeLessThan(arrival(swap, 2));
    const profile = await gateway.sandboxes.cores['321'].getServiceProfile(newMdn);
    expect(profile).toMatchObject({ sim: line.sim, lineStatus: 'ACTIVE' });
    expect(profile.serviceCodes[0]?.code).toBe('UNL10GB');
    expect(await gateway.app.services.db.line.findUnique({ where: { mdn: newMdn } })).toMatchObject({ sim: line.sim });
    expect((await events([line.mdn, newMdn])).map((event) => [event.type, event.transactionId, event.mdn])).toEqual([
      ['line.plan_changed', planChange, line.mdn],
      ['line.mdn_swapped', swap, newMdn],
    ]);
  });

  it('still supersedes in order: a suspend the client made at request time after two lost writes stands', async () => {
    const { token } = await gateway.user();
    const line = await seedLine(gateway);
    const stamp = Date.now();
    const suspend = `T-SUS-LOST-${stamp}`;
    const restore = `T-RES-LOST-${stamp}`;
    const later = `T-SUS-NOW-${stamp}`;
    await lostWrite(gateway, token, '/sim/suspend/', { mdn: line.mdn, transaction_id: suspend });
    await lostWrite(gateway, token, '/sim/restore/', { mdn: line.mdn, transaction_id: restore });
    // The carrier answers again and the client suspends: the last state it asked for.
    const now = await gateway.rest('POST', '/sim/suspend/', { token, body: { mdn: line.mdn, transaction_id: later } });
    expect(now.status, JSON.stringify(now.body)).toBe(200);
    await schedule(gateway, suspend, 5, HOUR);
    await schedule(gateway, restore, 4, null);

    await withReplica(async (replica) => {
      await replica.app.services.recovery.sweep();
      expect(await row(restore)).toMatchObject({ status: 'unknown', attempts: 4 });
      await schedule(gateway, suspend, 5, 0);
      await replica.app.services.recovery.sweep();
    });

    // Neither is re-sent: each is superseded by the later suspend, the restore once the suspend
    // before it had resolved (superseding gives the claim's attempt back).
    for (const id of [suspend, restore]) {
      expect(await row(id)).toMatchObject({ status: 'superseded', response: { superseded_by: later } });
      expect(sent(id)).toHaveLength(1);
    }
    expect(await row(suspend)).toMatchObject({ attempts: 5 });
    expect(await row(restore)).toMatchObject({ attempts: 4 });
    expect(await carrierStatus(line.mdn)).toBe('SUSPENDED');
    expect((await events([line.mdn])).map((event) => [event.type, event.transactionId])).toEqual([
      ['line.suspended', later],
    ]);
  });

  it('follows the line across an MDN swap: a lost write under the new number waits for one lost under the old', async () => {
    const { token } = await gateway.user();
    const line = await seedLine(gateway);
    const stamp = Date.now();
    const language = `T-VM-${stamp}`;
    const suspend = `T-SUS-NEW-${stamp}`;
    await lostWrite(gateway, token, '/sim/voicemail/language/', {
      mdn: line.mdn,
      language: 'SPAN',
      transaction_id: language,
    });
    // The client swaps the number meanwhile (the carrier answers), then writes under the new one.
    const swapped = await gateway.rest('POST', '/sim/mdn/swap/', {
      token,
      body: { mdn: line.mdn, sim: line.sim, zip_code: '30301', transaction_id: `T-SWAP-NOW-${stamp}` },
    });
    expect(swapped.status, JSON.stringify(swapped.body)).toBe(200);
    const newMdn = swapped.body.new_mdn as string;
    await lostWrite(gateway, token, '/sim/suspend/', { mdn: newMdn, transaction_id: suspend });
    await schedule(gateway, language, 5, HOUR);
    await schedule(gateway, suspend, 4, null);

    await withReplica(async (replica) => {
      await replica.app.services.recovery.sweep();
      expect(await row(suspend)).toMatchObject({ status: 'unknown', attempts: 4 });
      expect(sent(suspend)).toHaveLength(1);

      await schedule(gateway, suspend, 4, HOUR);
      await schedule(gateway, language, 5, 0);
      await replica.app.services.recovery.sweep();
    });

    // The old write went first: under a number the line no longer has, the carrier refuses it
    // (918); the suspend under the new number was woken by its resolution.
    expect(await row(language)).toMatchObject({
      status: 'failure',
      response: { message: expect.stringMatching(/918/) },
    });
    expect(await row(suspend)).toMatchObject({ status: 'success', attempts: 5 });
    expect(arrival(language, 2)).toBeLessThan(arrival(suspend, 2));
    expect(await carrierStatus(newMdn)).toBe('SUSPENDED');
  });

  it("keeps an activation's line by its SIM: a retry under a new id waits for the lost first attempt, which gets the line", async () => {
    const { user, token } = await gateway.user({ plans: ['A321'] });
    const stamp = Date.now();
    const first = `T-ACT-${stamp}`;
    const retry = `T-ACT-AGAIN-${stamp}`;
    const body = activationBody({ plan_id: 'A321', transaction_id: first });
    await lostWrite(gateway, token, '/sim/activate/', body);
    // Told the activation failed, the client tries again under a new id; that is lost too.
    await lostWrite(gateway, token, '/sim/activate/', { ...body, transaction_id: retry });
    await schedule(gateway, first, 5, HOUR);
    await schedule(gateway, retry, 4, null);

    await withReplica(async (replica) => {
      await replica.app.services.recovery.sweep();
      expect(await row(retry)).toMatchObject({ status: 'unknown', attempts: 4 });
      expect(sent(retry)).toHaveLength(1);

      await schedule(gateway, retry, 4, HOUR);
      await schedule(gateway, first, 5, 0);
      await replica.app.services.recovery.sweep();
    });

    const activated = await row(first);
    expect(activated).toMatchObject({ status: 'success', mdn: expect.stringMatching(/^\d{10}$/) });
    // The SIM is in use by then: the carrier refuses the retry (914).
    expect(await row(retry)).toMatchObject({ status: 'failure', response: { message: expect.stringMatching(/914/) } });
    expect(arrival(first, 2)).toBeLessThan(arrival(retry, 2));
    expect(await gateway.app.services.db.line.findUnique({ where: { mdn: activated!.mdn! } })).toMatchObject({
      sim: body.sim,
      ownerId: user.id,
    });
  });
});

describe('two replicas on PostgreSQL', () => {
  let available = false;
  let gateway: TestGateway | undefined;
  let received: string[] = [];
  let a: TestGateway | undefined;
  let b: TestGateway | undefined;
  const bLog: string[] = [];

  beforeAll(async () => {
    available = await postgresAvailable();
    if (!available) return;
    ({ gateway, received } = await writer('postgresql'));
    a = await startReplica(gateway, replicaEnv(gateway));
    b = await startReplica(gateway, replicaEnv(gateway, { LOG_LEVEL: 'debug' }), {
      logger: createLogger('debug', (line) => bLog.push(line)),
    });
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await gateway?.close();
  });

  const sent = (key: string) => received.filter((each) => each === key);
  const lastArrival = (key: string) => received.lastIndexOf(key);

  it("re-send each line's lost suspend before its lost restore while sweeping the same rows at once", async (context) => {
    if (!available) return context.skip('PostgreSQL is not available');
    const { token } = await gateway!.user();
    const stamp = Date.now();
    const lines = await Promise.all(Array.from({ length: 6 }, () => seedLine(gateway!)));
    const writes = lines.map((line, index) => ({
      line,
      suspend: `R-SUS-${stamp}-${index}`,
      restore: `R-RES-${stamp}-${index}`,
    }));
    for (const { line, suspend, restore } of writes) {
      await lostWrite(gateway!, token, '/sim/suspend/', { mdn: line.mdn, transaction_id: suspend });
      await lostWrite(gateway!, token, '/sim/restore/', { mdn: line.mdn, transaction_id: restore });
    }

    // Every row is due at once, on both replicas, each with several workers.
    const sweeps = [a!, b!, a!, b!].map((replica) => replica.app.services.recovery.sweep());
    await Promise.all(sweeps);
    await Promise.all([a!.app.services.recovery.sweep(), b!.app.services.recovery.sweep()]);

    for (const { line, suspend, restore } of writes) {
      // Claimed once each, the suspend first.
      expect(await gateway!.app.services.transactions.find(suspend)).toMatchObject({ status: 'success', attempts: 1 });
      expect(await gateway!.app.services.transactions.find(restore)).toMatchObject({ status: 'success', attempts: 1 });
      expect(lastArrival(suspend)).toBeLessThan(lastArrival(restore));
      expect((await gateway!.sandboxes.cores['321'].getNetworkStatus(line.mdn)).lineStatus).toBe('ACTIVE');
      const lineEvents = await gateway!.app.services.db.lineEvent.findMany({
        where: { mdn: line.mdn },
        orderBy: { seq: 'asc' },
      });
      expect(lineEvents.map((event) => event.transactionId)).toEqual([suspend, restore]);
    }
  });

  it("does not claim a line's restore on one replica while the other replica is re-sending its suspend", async (context) => {
    if (!available) return context.skip('PostgreSQL is not available');
    const { token } = await gateway!.user();
    const line = await seedLine(gateway!);
    const stamp = Date.now();
    const suspend = `H-SUS-${stamp}`;
    const restore = `H-RES-${stamp}`;
    await lostWrite(gateway!, token, '/sim/suspend/', { mdn: line.mdn, transaction_id: suspend });
    await lostWrite(gateway!, token, '/sim/restore/', { mdn: line.mdn, transaction_id: restore });

    // The carrier holds the suspend's re-send until the test lets it through.
    const core = gateway!.sandboxes.cores['321'];
    const suspendAtCarrier = core.suspend.bind(core);
    let arrived!: () => void;
    let release!: () => void;
    const atCarrier = new Promise<void>((resolve) => (arrived = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    const held = vi.spyOn(core, 'suspend').mockImplementation(async (request: SuspendRequest) => {
      if (request.transactionId === suspend) {
        arrived();
        await released;
      }
      return suspendAtCarrier(request);
    });
    try {
      const sweep = a!.app.services.recovery.sweep();
      await atCarrier;
      // The other replica is asked for the restore (as its own retry timer would): it waits.
      b!.app.services.recovery.resolveSoon(restore);
      const waited = () =>
        bLog
          .map((line) => JSON.parse(line) as { message: string; transactionId?: string; waitsFor?: string })
          .some(
            (entry) =>
              entry.message === 'transaction waits for an older unresolved write on its line' &&
              entry.transactionId === restore &&
              entry.waitsFor === suspend,
          );
      expect(await eventually(async () => waited(), 20_000, 20)).toBe(true);
      // Not claimed: a claim counts an attempt.
      expect(await gateway!.app.services.transactions.find(restore)).toMatchObject({ status: 'unknown', attempts: 0 });
      expect(sent(restore)).toHaveLength(1);

      release();
      // The suspend resolves on the first replica, which then re-sends the restore at once.
      await sweep;
    } finally {
      release();
      held.mockRestore();
    }

    expect(await gateway!.app.services.transactions.find(suspend)).toMatchObject({ status: 'success', attempts: 1 });
    expect(await gateway!.app.services.transactions.find(restore)).toMatchObject({ status: 'success', attempts: 1 });
    expect(sent(restore)).toHaveLength(2);
    expect(lastArrival(suspend)).toBeLessThan(lastArrival(restore));
    expect((await core.getNetworkStatus(line.mdn)).lineStatus).toBe('ACTIVE');
  });
});
