// A transaction id whose request had no effect at the carrier (its connection refused, nothing
// delivered; its credentials refused by the carrier, or missing in the gateway) may be retried: the same user's retry of the same operation takes the row over and
// runs, once, however many retries race for it. Every other reuse stays 409 as before: another
// user's, another operation's, and a retry after a success, a carrier refusal (GENS) or an
// outcome that may have been delivered (a timeout: `unknown`, the reconciler's).
//
// The real gateway and sandbox carriers throughout, on SQLite and (where one answers) PostgreSQL:
// a replica on the same database whose carriers are on a closed port makes the undelivered
// attempts, the gateway itself the retries; a replica with a short timeout against a slow sandbox
// makes the lost ones. Recovery is stopped everywhere, so that no row changes but by a request.

import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/logger.js';
import { startGateway, startReplica, type TestGateway } from '../support/gateway.js';
import { freshSim, seedLine } from '../support/lines.js';
import { createPlans } from '../support/plans.js';
import { postgresAvailable } from '../support/postgres.js';
import { errorOf } from '../support/surfaces.js';
import { sandboxEnv, setFaults } from '../recovery/support.js';

const DATABASES: ('sqlite' | 'postgresql')[] = (await postgresAvailable()) ? ['sqlite', 'postgresql'] : ['sqlite'];
const SURFACES = ['rest', 'graphql'] as const;
type Surface = (typeof SURFACES)[number];

const SUSPEND =
  'mutation ($mdn: String!, $id: String) { suspendLine(input: { mdn: $mdn, transactionId: $id }) { status transactionId message } }';
const RESTORE =
  'mutation ($mdn: String!, $id: String) { restoreLine(input: { mdn: $mdn, transactionId: $id }) { status transactionId message } }';
const TRANSACTION =
  'query ($id: String!) { transaction(id: $id) { id status httpStatus noEffect earlierAttempts firstAttemptAt createdAt } }';

/** What a call answered, the same on both surfaces: REST's status, and the 409 refusal as each surface words it. */
interface Answer {
  status: number;
  duplicate: boolean;
}

/** Both carriers on a port where nothing listens: every write is refused before it is sent. */
const CLOSED_CARRIERS = {
  CARRIER_321_URL: 'http://127.0.0.1:1',
  CARRIER_321_API_KEY: 'sandbox-321-key',
  CARRIER_B_URL: 'http://127.0.0.1:1',
  CARRIER_B_ACCOUNT_ID: 'sandbox-b-account',
  CARRIER_B_API_SECRET: 'sandbox-b-secret',
};

describe.each(DATABASES)('on %s', (database) => {
  let gateway: TestGateway;
  /** The same database, its carriers refusing connections. */
  let down: TestGateway;
  /** The same database and sandbox carriers, with a timeout a slow carrier outlasts. */
  let impatient: TestGateway;
  let token: string;
  let userId: string;
  const logs: string[] = [];
  /** The Idempotency-Key of each write carrier 321 received. */
  const received: string[] = [];
  const sent = (id: string) => received.filter((key) => key === id).length;

  beforeAll(async () => {
    const quiet = { RECOVERY_SWEEP_MS: '3600000' };
    gateway = await startGateway({
      database,
      env: { ...quiet, LOG_LEVEL: 'info' },
      logger: createLogger('info', (line) => logs.push(line)),
    });
    await gateway.app.services.recovery.stop();
    await createPlans(gateway);
    gateway.sandboxes.servers['321'].server.on('request', (request: IncomingMessage) => {
      const key = request.headers['idempotency-key'];
      if (typeof key === 'string') received.push(key);
    });
    down = await startReplica(gateway, { ...quiet, ...CLOSED_CARRIERS, CARRIER_RETRIES: '1' });
    await down.app.services.recovery.stop();
    impatient = await startReplica(gateway, {
      ...quiet,
      ...sandboxEnv(gateway),
      CARRIER_TIMEOUT_MS: '300',
      CARRIER_RETRIES: '0',
    });
    await impatient.app.services.recovery.stop();
  });
  // A user of its own for each test, so that no test spends another's rate limit (20 suspensions a minute).
  beforeEach(async () => {
    const user = await gateway.user({ plans: ['BASIC', 'BPLAN'] });
    ({ token } = user);
    userId = user.user.id;
  });
  afterAll(async () => {
    await impatient?.close();
    await down?.close();
    await gateway?.close();
  });

  async function call(
    on: TestGateway,
    surface: Surface,
    mutation: 'suspend' | 'restore',
    caller: string,
    mdn: string,
    id: string,
  ): Promise<Answer> {
    if (surface === 'rest') {
      const answer = await on.rest('POST', `/sim/${mutation}/`, { token: caller, body: { mdn, transaction_id: id } });
      const duplicate = answer.status === 409;
      // The spec's 409, word for word, whatever the reason the id is not free.
      if (duplicate)
        expect(answer.body).toEqual({
          status: 'failure',
          message: `Transaction ID ${id} already exists`,
          code: 'HTTP_409',
        });
      return { status: answer.status, duplicate };
    }
    const field = mutation === 'suspend' ? 'suspendLine' : 'restoreLine';
    const answer = await on.graphql<Record<string, { status: string }>>(mutation === 'suspend' ? SUSPEND : RESTORE, {
      token: caller,
      variables: { mdn, id },
    });
    if (!answer.errors) return { status: answer.data?.[field]?.status === 'SUCCESS' ? 200 : 400, duplicate: false };
    const status = Number(answer.errors[0]?.extensions?.status);
    const duplicate = status === 409;
    if (duplicate)
      expect(errorOf(answer)).toEqual({
        code: 'DUPLICATE_TRANSACTION',
        message: `Transaction ID ${id} already exists`,
      });
    return { status, duplicate };
  }

  const suspend = (on: TestGateway, surface: Surface, mdn: string, id: string, caller = token) =>
    call(on, surface, 'suspend', caller, mdn, id);

  const row = (id: string) => gateway.app.services.transactions.find(id);
  const carrierStatus = async (mdn: string, carrier: '321' | 'carrier_b' = '321') =>
    (await gateway.sandboxes.cores[carrier].getNetworkStatus(mdn)).lineStatus;
  const suspensions = (mdn: string) =>
    gateway.app.services.db.lineEvent.count({ where: { mdn, type: 'line.suspended' } });

  /** A suspension of a fresh line refused at the carrier's door: answered 400 (CARRIER_UNAVAILABLE), recorded as having had no effect. */
  async function undelivered(surface: Surface, carrier: '321' | 'carrier_b' = '321') {
    const line = await seedLine(gateway, { carrier });
    const id = `UNDELIVERED-${surface}-${line.sim}`;
    expect(await suspend(down, surface, line.mdn, id)).toEqual({ status: 400, duplicate: false });
    expect(await row(id)).toMatchObject({ status: 'error', httpStatus: 400, noEffect: true, earlierAttempts: 0 });
    return { ...line, id, first: (await row(id))!.createdAt };
  }

  describe.each(SURFACES)('over %s', (surface) => {
    it('a retry of a refused connection under the same id succeeds, and the line changes once', async () => {
      const { mdn, id, first } = await undelivered(surface);
      expect(sent(id)).toBe(0);
      expect(await carrierStatus(mdn)).toBe('ACTIVE');

      // Refused again: still free for a retry, the attempt counted, the first one's time kept.
      expect(await suspend(down, surface, mdn, id)).toEqual({ status: 400, duplicate: false });
      expect(await row(id)).toMatchObject({
        status: 'error',
        noEffect: true,
        earlierAttempts: 1,
        firstAttemptAt: first,
      });

      expect(await suspend(gateway, surface, mdn, id)).toEqual({ status: 200, duplicate: false });
      expect(sent(id)).toBe(1);
      expect(await carrierStatus(mdn)).toBe('SUSPENDED');
      expect(await suspensions(mdn)).toBe(1);
      const record = await row(id);
      expect(record).toMatchObject({
        status: 'success',
        httpStatus: 200,
        noEffect: false,
        userId,
        operation: 'suspendLine',
        earlierAttempts: 2,
        firstAttemptAt: first,
      });
      expect(record!.createdAt.getTime()).toBeGreaterThan(first.getTime());
      const logged = logs.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(logged).toContainEqual(
        expect.objectContaining({
          message: 'transaction id taken over by a retry after an attempt that had no effect at the carrier',
          transactionId: id,
        }),
      );

      // The owner sees the earlier attempts.
      const view = await gateway.graphql<{ transaction: Record<string, unknown> }>(TRANSACTION, {
        token,
        variables: { id },
      });
      expect(view.data?.transaction).toMatchObject({
        status: 'SUCCESS',
        noEffect: false,
        earlierAttempts: 2,
        firstAttemptAt: first.toISOString(),
      });
      const rest = await gateway.rest('GET', `/transactions/${id}`, { token });
      expect(rest.body).toMatchObject({ status: 'success', no_effect: false, earlier_attempts: 2 });

      // A success keeps its id for good, on either surface and either gateway.
      expect(await suspend(gateway, surface, mdn, id)).toEqual({ status: 409, duplicate: true });
      expect(await suspend(down, surface, mdn, id)).toEqual({ status: 409, duplicate: true });
      expect(sent(id)).toBe(1);
    });

    it('of concurrent retries exactly one proceeds; the others are duplicates', async () => {
      const { mdn, id } = await undelivered(surface);
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, index) => suspend(gateway, index % 2 === 0 ? surface : 'rest', mdn, id)),
      );
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
      expect(answers.filter((answer) => answer.duplicate)).toHaveLength(5);
      expect(sent(id)).toBe(1);
      expect(await carrierStatus(mdn)).toBe('SUSPENDED');
      expect(await suspensions(mdn)).toBe(1);
      expect(await row(id)).toMatchObject({ status: 'success', earlierAttempts: 1 });
    });

    it('another user’s request under the id is a duplicate and takes nothing over; so is another operation', async () => {
      const { mdn, id, first } = await undelivered(surface);
      const { token: stranger } = await gateway.user({ plans: ['BASIC'] });
      expect(await suspend(gateway, surface, mdn, id, stranger)).toEqual({ status: 409, duplicate: true });
      expect(await call(gateway, surface, 'restore', token, mdn, id)).toEqual({ status: 409, duplicate: true });
      expect(sent(id)).toBe(0);
      expect(await carrierStatus(mdn)).toBe('ACTIVE');
      expect(await row(id)).toMatchObject({
        status: 'error',
        noEffect: true,
        userId,
        operation: 'suspendLine',
        earlierAttempts: 0,
        createdAt: first,
      });
      // The stranger cannot read it either; the owner's retry still works.
      expect((await gateway.rest('GET', `/transactions/${id}`, { token: stranger })).status).toBe(404);
      expect(await suspend(gateway, surface, mdn, id)).toEqual({ status: 200, duplicate: false });
      expect(sent(id)).toBe(1);
    });

    it('a retry after a timeout (maybe delivered: unknown) is a duplicate', async () => {
      const line = await seedLine(gateway);
      const id = `LOST-${surface}-${line.sim}`;
      await setFaults(gateway, '321', { latency_ms: 1000 });
      let lost: Answer;
      try {
        lost = await suspend(impatient, surface, line.mdn, id);
      } finally {
        await setFaults(gateway, '321', {});
      }
      expect(lost).toEqual({ status: 400, duplicate: false });
      expect(await row(id)).toMatchObject({ status: 'unknown', noEffect: false });
      expect(await suspend(gateway, surface, line.mdn, id)).toEqual({ status: 409, duplicate: true });
      expect(await row(id)).toMatchObject({ status: 'unknown', earlierAttempts: 0 });
      expect(sent(id)).toBe(1);
    });

    it('a retry after a carrier refusal (GENS-0033) is a duplicate', async () => {
      const line = await seedLine(gateway);
      const id = `REFUSED-${surface}-${line.sim}`;
      // Restoring a line that is not suspended: the carrier answers GENS-0033.
      expect(await call(gateway, surface, 'restore', token, line.mdn, id)).toEqual({ status: 400, duplicate: false });
      expect(await row(id)).toMatchObject({ status: 'failure', httpStatus: 400, noEffect: false });
      await gateway.rest('POST', '/sim/suspend/', { token, body: { mdn: line.mdn } });
      expect(await call(gateway, surface, 'restore', token, line.mdn, id)).toEqual({ status: 409, duplicate: true });
      expect(await carrierStatus(line.mdn)).toBe('SUSPENDED');
      expect(sent(id)).toBe(1);
    });
  });

  it('a retry on carrier_b works the same way', async () => {
    const { mdn, id } = await undelivered('rest', 'carrier_b');
    expect(await suspend(gateway, 'graphql', mdn, id)).toEqual({ status: 200, duplicate: false });
    expect(await carrierStatus(mdn, 'carrier_b')).toBe('SUSPENDED');
    expect(await suspensions(mdn)).toBe(1);
    expect(await suspend(gateway, 'rest', mdn, id)).toEqual({ status: 409, duplicate: true });
  });

  it('a retry after the carrier refused the credentials (401), or the gateway had none, takes the id over too', async () => {
    const wrongKey = await startReplica(gateway, {
      RECOVERY_SWEEP_MS: '3600000',
      ...sandboxEnv(gateway),
      CARRIER_321_API_KEY: 'not-the-key',
    });
    const keyless = await startReplica(gateway, {
      RECOVERY_SWEEP_MS: '3600000',
      CARRIER_321_URL: gateway.sandboxes.urls['321'],
    });
    try {
      const refused = await seedLine(gateway);
      const id = `WRONG-KEY-${refused.sim}`;
      expect(await suspend(wrongKey, 'rest', refused.mdn, id)).toEqual({ status: 400, duplicate: false });
      // It reached the carrier, which turned it away before acting.
      expect(sent(id)).toBe(1);
      expect(await row(id)).toMatchObject({ status: 'error', noEffect: true });
      expect(await suspend(gateway, 'graphql', refused.mdn, id)).toEqual({ status: 200, duplicate: false });
      expect(await carrierStatus(refused.mdn)).toBe('SUSPENDED');

      const unsent = await seedLine(gateway);
      const other = `NO-KEY-${unsent.sim}`;
      expect(await suspend(keyless, 'graphql', unsent.mdn, other)).toEqual({ status: 503, duplicate: false });
      expect(sent(other)).toBe(0);
      expect(await row(other)).toMatchObject({ status: 'error', httpStatus: 503, noEffect: true });
      expect(await suspend(gateway, 'rest', unsent.mdn, other)).toEqual({ status: 200, duplicate: false });
      expect(await carrierStatus(unsent.mdn)).toBe('SUSPENDED');
      expect(sent(other)).toBe(1);
    } finally {
      await wrongKey.close();
      await keyless.close();
    }
  });

  it('a dry run passes an id its caller may retry, and refuses it to anyone else', async () => {
    const { mdn, id } = await undelivered('rest');
    const dry = await gateway.rest('POST', '/sim/suspend/?dry_run=true', {
      token,
      body: { mdn, transaction_id: id },
    });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ would_succeed: true, transaction_id: id });
    expect(dry.body.checks).toContainEqual({
      name: 'transactionId',
      outcome: 'passed',
      detail: 'Used by your earlier attempt, which had no effect at the carrier: the call would retry it',
    });
    const { token: stranger } = await gateway.user();
    expect(
      (await gateway.rest('POST', '/sim/suspend/?dry_run=true', { token: stranger, body: { mdn, transaction_id: id } }))
        .status,
    ).toBe(409);
    // Nothing was taken over or sent.
    expect(await row(id)).toMatchObject({ status: 'error', noEffect: true, earlierAttempts: 0 });
    expect(sent(id)).toBe(0);
  });

  it('bulk activation: the batch id of an answered batch stays used; its SIMs’ ids that never reached the carrier are retried by the next batch', async () => {
    const stamp = `${database}-${Date.now()}`;
    const sims = [freshSim(), freshSim()];
    const items = sims.map((sim, index) => ({
      sim,
      plan_id: 'BASIC',
      zip_code: '30301',
      address1: '1 Main St',
      city: 'Atlanta',
      state: 'GA',
      transaction_id: `BULK-ITEM-${index}-${stamp}`,
    }));
    const batch = `BULK-BATCH-${stamp}`;
    const first = await down.rest<{ results: { status: string }[] }>('POST', '/sim/activate/bulk/', {
      token,
      body: { activations: items, transaction_id: batch },
    });
    expect(first.status).toBe(200);
    expect(first.body.results.map((entry) => entry.status)).toEqual(['failure', 'failure']);
    for (const item of items) expect(await row(item.transaction_id)).toMatchObject({ status: 'error', noEffect: true });

    // The batch was answered (200, an entry per SIM): its id is used, as any answered request's.
    const again = await gateway.rest('POST', '/sim/activate/bulk/', {
      token,
      body: { activations: items, transaction_id: batch },
    });
    expect(again.status).toBe(409);

    const retried = await gateway.rest<{ results: { status: string; transaction_id: string }[] }>(
      'POST',
      '/sim/activate/bulk/',
      { token, body: { activations: items, transaction_id: `${batch}-2` } },
    );
    expect(retried.status).toBe(200);
    expect(retried.body.results.map((entry) => [entry.status, entry.transaction_id])).toEqual(
      items.map((item) => ['success', item.transaction_id]),
    );
    for (const item of items) {
      expect(await row(item.transaction_id)).toMatchObject({ status: 'success', earlierAttempts: 1 });
      expect(sent(item.transaction_id)).toBe(1);
    }
  });
});
