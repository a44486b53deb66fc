// Lost outcomes are recovered: a write that timed out (400 CARRIER_TIMEOUT) or that a crash left `pending` is
// re-sent with its transaction id until the carrier's answer is known; transaction(id) and
// GET /transactions/{id} then show that answer, and the line is routed to its carrier.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CarrierId } from '../../src/carriers/types.js';
import { createLogger } from '../../src/lib/logger.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { activationBody } from '../e2e/activation/activations.js';
import { createPlans } from '../support/plans.js';
import { seedLine } from '../support/lines.js';
import { eventually } from '../support/eventually.js';
import { startReplica } from '../support/gateway.js';
import { pendingActivation, sandboxEnv, setFaults } from './support.js';

const TRANSACTION =
  'query ($id: String!) { transaction(id: $id) { id status httpStatus response recovered resolvedAt } }';

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startGateway({ env: { CARRIER_TIMEOUT_MS: '300', CARRIER_RETRIES: '0' } });
  await createPlans(gateway);
});
afterAll(() => gateway.close());

type Record = { status: string; response: unknown; recovered: boolean };

const HISTORY = `query ($mdn: String!) { lineHistory(mdn: $mdn) { edges { node {
  kind transaction { id operation status recovered } event { type transactionId } } } } }`;
type HistoryNode = {
  kind: string;
  transaction: { id: string; operation: string; status: string; recovered: boolean } | null;
  event: { type: string; transactionId: string | null } | null;
};

async function settled(token: string, id: string): Promise<Record | undefined> {
  let last: Record | undefined;
  await eventually(
    async () => {
      const answer = await gateway.graphql<{ transaction: Record }>(TRANSACTION, { token, variables: { id } });
      last = answer.data?.transaction;
      return last !== undefined && last.status !== 'UNKNOWN' && last.status !== 'PENDING';
    },
    20_000,
    100,
  );
  return last;
}

describe.each<[CarrierId, string]>([
  ['321', 'A321'],
  ['carrier_b', 'BPLAN'],
])('a timed-out activation on carrier %s', (carrier, plan) => {
  it('answers 400 (CARRIER_TIMEOUT), then shows success with the MDN on both surfaces, and the line is routed to its carrier', async () => {
    const { token } = await gateway.user({ plans: [plan] });
    const id = `SLOW-${carrier}-${Date.now()}`;
    const body = activationBody({ plan_id: plan, transaction_id: id });
    await setFaults(gateway, carrier, { latency_ms: 1000 });
    let timedOut;
    try {
      timedOut = await gateway.rest('POST', '/sim/activate/', { token, body });
    } finally {
      await setFaults(gateway, carrier, {});
    }
    expect(timedOut.status).toBe(400);
    expect(timedOut.body).toMatchObject({
      status: 'failure',
      sim: body.sim,
      transaction_id: id,
      message: expect.stringMatching(/\(CARRIER_TIMEOUT\)$/),
    });

    const record = await settled(token, id);
    expect(record).toMatchObject({
      status: 'SUCCESS',
      httpStatus: 200,
      recovered: true,
      resolvedAt: expect.any(String),
    });
    // The stored input (address, email) is dropped once it is no longer needed.
    expect((await gateway.app.services.transactions.find(id))?.request).toBeNull();
    const answer = record!.response as { status: string; mdn: string; sim: string; transaction_id: string };
    expect(answer).toMatchObject({
      status: 'success',
      sim: body.sim,
      transaction_id: id,
      mdn: expect.stringMatching(/^\d{10}$/),
    });

    const rest = await gateway.rest('GET', `/transactions/${id}`, { token });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ id, status: 'success', http_status: 200, recovered: true, carrier });
    expect(JSON.parse(rest.body.response as string)).toEqual(answer);

    // The line's history lists the recovered activation under its transaction, with its event
    // (the row records the MDN the answer named, as the request's own completion would have).
    expect((await gateway.app.services.transactions.find(id))?.mdn).toBe(answer.mdn);
    const history = await gateway.graphql<{ lineHistory: { edges: { node: HistoryNode }[] } }>(HISTORY, {
      token,
      variables: { mdn: answer.mdn },
    });
    expect(history.data?.lineHistory.edges.map((edge) => edge.node)).toEqual([
      {
        kind: 'TRANSACTION',
        transaction: { id, operation: 'activateSim', status: 'SUCCESS', recovered: true },
        event: { type: 'line.activated', transactionId: id },
      },
    ]);

    // The line is known to be on its carrier: a line operation reaches it there.
    expect((await gateway.app.services.lines.byMdns([answer.mdn])).get(answer.mdn)?.carrier).toBe(carrier);
    const usage = await gateway.rest('GET', `/sim/usage/${answer.mdn}`, { token });
    expect(usage.status).toBe(200);
    expect(usage.body).toMatchObject({ mdn: answer.mdn, sim: body.sim, status: 'ACTIVE' });

    // The carrier activated exactly once: the next activation takes the very next number.
    const next = await gateway.sandboxes.cores[carrier].activate({
      sim: activationBody().sim as string,
      carrierPlanId: 'PLUS5GB',
      zipCode: '30301',
      address: { address1: '1 Main St', city: 'Atlanta', state: 'GA', zipCode: '30301' },
      isEsim: false,
      language: 'ENGL',
      transactionId: `NEXT-${id}`,
    });
    expect(Number(next.mdn)).toBe(Number(answer.mdn) + 1);
  });
});

describe('a timed-out suspension', () => {
  it("writes its recovered event with the line's SIM, as the request's own completion would have", async () => {
    const { token } = await gateway.user();
    const line = await seedLine(gateway);
    const id = `SLOW-SUSPEND-${Date.now()}`;
    await setFaults(gateway, '321', { latency_ms: 1000 });
    let timedOut;
    try {
      timedOut = await gateway.rest('POST', '/sim/suspend/', { token, body: { mdn: line.mdn, transaction_id: id } });
    } finally {
      await setFaults(gateway, '321', {});
    }
    expect(timedOut.status).toBe(400);
    expect(await settled(token, id)).toMatchObject({ status: 'SUCCESS', recovered: true });
    const event = await gateway.app.services.db.lineEvent.findFirst({ where: { transactionId: id } });
    expect(event).toMatchObject({ type: 'line.suspended', mdn: line.mdn, sim: line.sim });
    expect(JSON.parse(event!.data)).toMatchObject({ recovered: true });
  });
});

describe('a refusal discovered on re-send', () => {
  it('ends failure with the activation failure body', async () => {
    const { token } = await gateway.user({ plans: ['BAD'] });
    const id = `SLOW-BAD-${Date.now()}`;
    const body = activationBody({ plan_id: 'BAD', transaction_id: id });
    await setFaults(gateway, '321', { latency_ms: 1000 });
    let timedOut;
    try {
      timedOut = await gateway.rest('POST', '/sim/activate/', { token, body });
    } finally {
      await setFaults(gateway, '321', {});
    }
    expect(timedOut.status).toBe(400);
    const record = await settled(token, id);
    expect(record).toMatchObject({ status: 'FAILURE', httpStatus: 400, recovered: true });
    expect(record!.response).toEqual({
      status: 'failure',
      sim: body.sim,
      transaction_id: id,
      message: expect.stringMatching(/\(906\)$/),
    });
  });
});

describe('an unexpected error after the carrier acted', () => {
  it('is recorded unknown, not error, and resolved once the gateway can record the line', async () => {
    // A superuser: an ordinary caller's activation reads the line table before the carrier (whose
    // line is the SIM on?), and this test needs the table to fail only after the carrier acted.
    const { token } = await gateway.user({ plans: ['A321'], superuser: true });
    const id = `NO-LINE-TABLE-${Date.now()}`;
    const db = gateway.app.services.db;
    // The carrier activates, then recording the line fails (its table is gone for a moment).
    await db.$executeRawUnsafe('ALTER TABLE "Line" RENAME TO "Line_away"');
    let failed;
    try {
      failed = await gateway.rest('POST', '/sim/activate/', {
        token,
        body: activationBody({ plan_id: 'A321', transaction_id: id }),
      });
      expect((await gateway.app.services.transactions.find(id))?.status).toBe('unknown');
    } finally {
      await db.$executeRawUnsafe('ALTER TABLE "Line_away" RENAME TO "Line"');
    }
    expect(failed.status).toBe(500);
    const record = await settled(token, id);
    expect(record).toMatchObject({ status: 'SUCCESS', recovered: true });
    const { mdn } = record!.response as { mdn: string };
    expect((await gateway.app.services.lines.byMdns([mdn])).get(mdn)?.carrier).toBe('321');
  });
});

describe('a write a crash left pending', () => {
  it('is resolved by the next start-up, and the carrier acts once', async () => {
    const { user, token } = await gateway.user({ plans: ['A321'] });
    const id = `CRASH-${Date.now()}`;
    // The gateway reserved the row and reached the carrier, then died before recording the answer.
    const input = await pendingActivation(gateway, user.id, id, 'A321', { minutesAgo: 10 });
    const delivered = await gateway.sandboxes.cores['321'].activate({ ...input.carrierRequest, transactionId: id });
    // This process stands for the dead one: its reconciler is gone.
    await gateway.app.services.recovery.stop();

    const next = await startReplica(gateway, sandboxEnv(gateway));
    try {
      expect(
        await eventually(
          async () => (await next.app.services.transactions.find(id))?.status === 'success',
          20_000,
          100,
        ),
      ).toBe(true);
      const record = await next.rest('GET', `/transactions/${id}`, { token });
      expect(record.body).toMatchObject({ status: 'success', recovered: true });
      expect(JSON.parse(record.body.response as string)).toMatchObject({
        status: 'success',
        mdn: delivered.mdn,
        transaction_id: id,
      });
      expect((await next.app.services.transactions.find(id))?.attempts).toBe(1);
    } finally {
      await next.close();
    }
  });

  it('leaves a pending row alone while its own request may still be running', async () => {
    const { user } = await gateway.user({ plans: ['A321'] });
    const id = `YOUNG-${Date.now()}`;
    await pendingActivation(gateway, user.id, id, 'A321', { minutesAgo: 0 });
    const next = await startReplica(gateway, { ...sandboxEnv(gateway), CARRIER_TIMEOUT_MS: '10000' });
    try {
      await next.app.services.recovery.sweep();
      expect(await next.app.services.transactions.find(id)).toMatchObject({ status: 'pending', attempts: 0 });
    } finally {
      await next.close();
    }
  });
});

describe('shutdown', () => {
  it('waits for a write in flight to record its real outcome before the database closes', async () => {
    const own = await startGateway({ env: { CARRIER_TIMEOUT_MS: '5000', CARRIER_RETRIES: '0' } });
    try {
      await createPlans(own);
      const { token } = await own.user({ plans: ['A321'] });
      const id = `DRAIN-${Date.now()}`;
      await setFaults(own, '321', { latency_ms: 800 });
      const answer = own.rest('POST', '/sim/activate/', {
        token,
        body: activationBody({ plan_id: 'A321', transaction_id: id }),
      });
      expect(await eventually(async () => (await own.app.services.transactions.find(id)) !== null, 5000, 20)).toBe(
        true,
      );
      // What app.close() does first: wait for writes in flight (the carrier and database stay open).
      await own.app.services.recovery.stop();
      expect(await own.app.services.transactions.find(id)).toMatchObject({ status: 'success', httpStatus: 200 });
      expect((await answer).status).toBe(200);
    } finally {
      await own.close();
    }
  });
});

describe('a carrier that stays down', () => {
  it('keeps the write unknown and retries with backoff, warning at each doubling of attempts, never giving up silently', async () => {
    const lines: string[] = [];
    const own = await startGateway({
      // A dropped connection fails at once whatever the timeout; a long one puts the start-up
      // sweep (2 × the longest carrier call + 5 s after start) and the periodic one (a minute)
      // beyond this test, so that every re-send here is the backoff's own (a re-send that its
      // timer lost used to be picked up only by a sweep).
      env: { CARRIER_TIMEOUT_MS: '10000', CARRIER_RETRIES: '0', LOG_LEVEL: 'warn' },
      logger: createLogger('warn', (line) => lines.push(line)),
    });
    try {
      await createPlans(own);
      const { token } = await own.user({ plans: ['A321'] });
      const id = `DOWN-${Date.now()}`;
      await setFaults(own, '321', { drop_rate: 1 });
      const answer = await own.rest('POST', '/sim/activate/', {
        token,
        body: activationBody({ plan_id: 'A321', transaction_id: id }),
      });
      expect(answer.status).toBe(400);
      const warnings = () =>
        lines
          .map((line) => JSON.parse(line) as { message: string; attempts?: number; transactionId?: string })
          .filter((entry) => entry.message === 'transaction outcome still unknown');
      // Attempts 1 and 2 (1 s apart) are both milestones.
      expect(await eventually(async () => warnings().some((entry) => entry.attempts === 2), 15_000, 50)).toBe(true);
      expect(warnings().map((entry) => entry.transactionId)).toEqual([id, id]);
      const row = await own.app.services.transactions.find(id);
      expect(row).toMatchObject({ status: 'unknown', resolvedAt: null });
      expect(row!.attempts).toBeGreaterThanOrEqual(2);
      const retries = (await own.app.services.metrics.recoveries.get()).values.find(
        (value) => value.labels.outcome === 'retry',
      );
      expect(retries?.value).toBeGreaterThanOrEqual(2);
      expect(lines.join('\n')).not.toMatch(/sandbox-321-key|sandbox-b-secret/);
      // The carrier comes back: the next re-send (about 2 s later) resolves it.
      await setFaults(own, '321', {});
      expect(
        await eventually(async () => (await own.app.services.transactions.find(id))?.status === 'success', 15_000, 100),
      ).toBe(true);
    } finally {
      await own.close();
    }
  }, 40_000);
});
