// A lost write that a later write of the same kind on the same line has replaced is not re-sent:
// recovery resolves it `superseded` (naming the later transaction), writes no line event and
// leaves the line as the later write left it, at the carrier and in the registry. A lost write of
// another kind, or one nothing came after, is re-sent and recovered as before.
//
// Recovery runs only when the test says: this gateway's own reconciler is stopped (it would
// re-send a timed-out write at once, before the user's later write), and a replica started on the
// same database and sandbox carriers resolves what is left, as a later sweep would after the
// re-sends of a slow carrier had backed off while the user moved on. The supersession is one raw
// conditional UPDATE, so it runs on both providers (PostgreSQL where one answers).

import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/logger.js';
import { startGateway, startReplica, type TestGateway } from '../support/gateway.js';
import { seedLine } from '../support/lines.js';
import { postgresAvailable } from '../support/postgres.js';
import { sandboxEnv, setFaults } from './support.js';

const TRANSACTION =
  'query ($id: String!) { transaction(id: $id) { id status httpStatus response recovered resolvedAt } }';
const HISTORY = `query ($mdn: String!) { lineHistory(mdn: $mdn) { edges { node {
  transaction { id status answerMessage recovered } } } } }`;

const DATABASES: ('sqlite' | 'postgresql')[] = (await postgresAvailable()) ? ['sqlite', 'postgresql'] : ['sqlite'];

describe.each(DATABASES)('on %s', (database) => {
  let gateway: TestGateway;
  /** The Idempotency-Key of each write carrier 321 received (on arrival, before any injected fault). */
  const received: string[] = [];

  beforeAll(async () => {
    gateway = await startGateway({
      database,
      env: { CARRIER_TIMEOUT_MS: '300', CARRIER_RETRIES: '0', RECOVERY_SWEEP_MS: '3600000' },
    });
    await gateway.app.services.recovery.stop();
    gateway.sandboxes.servers['321'].server.on('request', (request: IncomingMessage) => {
      const key = request.headers['idempotency-key'];
      if (typeof key === 'string') received.push(key);
    });
  });
  afterAll(() => gateway.close());

  const sent = (key: string) => received.filter((received) => received === key);

  /**
   * A write through the gateway whose answer is lost: the carrier answers after the gateway's
   * timeout (400 CARRIER_TIMEOUT, row `unknown`). `delivered`: the carrier then performs it; otherwise it drops the
   * request unperformed.
   */
  async function lostWrite(token: string, path: string, body: Record<string, unknown>, delivered: boolean) {
    await setFaults(gateway, '321', delivered ? { latency_ms: 1000 } : { latency_ms: 1000, drop_rate: 1 });
    let answer;
    try {
      answer = await gateway.rest('POST', path, { token, body });
    } finally {
      // The request in flight keeps the faults it arrived with.
      await setFaults(gateway, '321', {});
    }
    expect(answer.status).toBe(400);
    expect((await gateway.app.services.transactions.find(body.transaction_id as string))?.status).toBe('unknown');
  }

  async function write(token: string, path: string, body: Record<string, unknown>) {
    const answer = await gateway.rest('POST', path, { token, body });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  }

  /** Runs recovery once, on a replica: its log lines and the outcomes its recoveries metric counted. */
  async function recover(): Promise<{
    log: { message: string; [field: string]: unknown }[];
    outcomes: Map<string, number>;
  }> {
    const lines: string[] = [];
    const replica = await startReplica(
      gateway,
      {
        ...sandboxEnv(gateway),
        CARRIER_TIMEOUT_MS: '5000',
        CARRIER_RETRIES: '0',
        RECOVERY_SWEEP_MS: '3600000',
        LOG_LEVEL: 'info',
      },
      { logger: createLogger('info', (line) => lines.push(line)) },
    );
    try {
      // Joins the start-up sweep if it is still running: every unresolved row has been tried after it.
      await replica.app.services.recovery.sweep();
      const metric = await replica.app.services.metrics.recoveries.get();
      return {
        log: lines.map((line) => JSON.parse(line) as { message: string }),
        outcomes: new Map(metric.values.map((value) => [String(value.labels.outcome), value.value])),
      };
    } finally {
      await replica.close();
    }
  }

  const events = (mdn: string) =>
    gateway.app.services.db.lineEvent.findMany({ where: { mdn }, orderBy: { seq: 'asc' } });
  const carrierStatus = async (mdn: string) => (await gateway.sandboxes.cores['321'].getNetworkStatus(mdn)).lineStatus;
  const registryStatus = async (mdn: string) =>
    (await gateway.app.services.db.line.findUnique({ where: { mdn } }))?.status;

  /** transaction(id) and GET /transactions/{id} both show the row superseded by `later`, not recovered. */
  async function expectSuperseded(token: string, id: string, later: string, message: RegExp) {
    const graphql = await gateway.graphql<{ transaction: Record<string, unknown> }>(TRANSACTION, {
      token,
      variables: { id },
    });
    expect(graphql.data?.transaction).toMatchObject({
      id,
      status: 'SUPERSEDED',
      httpStatus: 400,
      recovered: false,
      resolvedAt: expect.any(String),
      response: {
        status: 'superseded',
        transaction_id: id,
        superseded_by: later,
        message: expect.stringMatching(message),
      },
    });
    const rest = await gateway.rest('GET', `/transactions/${id}`, { token });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ id, status: 'superseded', http_status: 400, recovered: false });
    expect(JSON.parse(rest.body.response as string)).toMatchObject({ superseded_by: later });
    // Resolved: nothing left to claim, the stored input dropped, no attempt counted.
    expect(await gateway.app.services.transactions.find(id)).toMatchObject({ request: null, attempts: 0 });
  }

  describe('a lost suspension, then a successful restore', () => {
    it('is superseded when the carrier never had it: not re-sent, so the line stays active', async () => {
      const { token } = await gateway.user();
      const line = await seedLine(gateway);
      const stamp = Date.now();
      const lost = `SUSPEND_LOST_${stamp}`;
      await lostWrite(token, '/sim/suspend/', { mdn: line.mdn, transaction_id: lost }, false);
      // The user, told the outcome is unknown, suspends again (so there is a suspension to restore), then restores.
      const again = `SUSPEND_AGAIN_${stamp}`;
      const restore = `RESTORE_${stamp}`;
      await write(token, '/sim/suspend/', { mdn: line.mdn, transaction_id: again });
      await write(token, '/sim/restore/', { mdn: line.mdn, transaction_id: restore });
      expect(await carrierStatus(line.mdn)).toBe('ACTIVE');

      const { log, outcomes } = await recover();

      await expectSuperseded(
        token,
        lost,
        restore,
        new RegExp(`^superseded by ${restore}: the line's later restore stands; this suspend was not re-sent$`),
      );
      // Re-sent, the lost suspension would have suspended the line for real: the carrier got it once.
      expect(sent(lost)).toHaveLength(1);
      expect(await carrierStatus(line.mdn)).toBe('ACTIVE');
      expect(await registryStatus(line.mdn)).toBe('ACTIVE');
      expect((await events(line.mdn)).map((event) => [event.type, event.transactionId])).toEqual([
        ['line.suspended', again],
        ['line.restored', restore],
      ]);
      expect(outcomes.get('superseded')).toBe(1);
      expect(outcomes.has('success')).toBe(false);
      expect(log).toContainEqual(
        expect.objectContaining({
          level: 'info',
          message: expect.stringMatching(/superseded/),
          transactionId: lost,
          supersededBy: restore,
        }),
      );
      // The line's history shows it with the message naming the restore.
      const history = await gateway.graphql<{
        lineHistory: { edges: { node: { transaction: { id: string; status: string; answerMessage: string } } }[] };
      }>(HISTORY, { token, variables: { mdn: line.mdn } });
      expect(history.data?.lineHistory.edges.map((edge) => edge.node.transaction)).toContainEqual({
        id: lost,
        status: 'SUPERSEDED',
        answerMessage: expect.stringContaining(`superseded by ${restore}`),
        recovered: false,
      });
    });

    it('is superseded when the carrier had performed it: no late line.suspended, the line stays as the restore left it', async () => {
      const { token } = await gateway.user();
      const line = await seedLine(gateway);
      const stamp = Date.now();
      const lost = `SUSPEND_DELIVERED_${stamp}`;
      await lostWrite(token, '/sim/suspend/', { mdn: line.mdn, transaction_id: lost }, true);
      // The carrier performs the suspension after the gateway gave up on its answer.
      await expect.poll(() => carrierStatus(line.mdn), { timeout: 5000 }).toBe('SUSPENDED');
      const restore = `RESTORE_${stamp}`;
      await write(token, '/sim/restore/', { mdn: line.mdn, transaction_id: restore });

      const { outcomes } = await recover();

      await expectSuperseded(token, lost, restore, new RegExp(`^superseded by ${restore}:`));
      expect(sent(lost)).toHaveLength(1);
      expect(await carrierStatus(line.mdn)).toBe('ACTIVE');
      expect(await registryStatus(line.mdn)).toBe('ACTIVE');
      expect((await events(line.mdn)).map((event) => [event.type, event.transactionId])).toEqual([
        ['line.restored', restore],
      ]);
      expect(outcomes.get('superseded')).toBe(1);
    });

    it('names no transaction id of another user: a superuser’s restore supersedes it without saying its id', async () => {
      const { token } = await gateway.user();
      const { token: admin } = await gateway.user({ superuser: true });
      const line = await seedLine(gateway);
      const stamp = Date.now();
      const lost = `SUSPEND_BY_USER_${stamp}`;
      await lostWrite(token, '/sim/suspend/', { mdn: line.mdn, transaction_id: lost }, true);
      await expect.poll(() => carrierStatus(line.mdn), { timeout: 5000 }).toBe('SUSPENDED');
      const restore = `ADMIN_TICKET_4711_RESTORE_${stamp}`;
      await write(admin, '/sim/restore/', { mdn: line.mdn, transaction_id: restore });

      await recover();

      const rest = await gateway.rest('GET', `/transactions/${lost}`, { token });
      expect(rest.body).toMatchObject({ status: 'superseded', recovered: false });
      const response = JSON.parse(rest.body.response as string) as Record<string, unknown>;
      expect(response).toEqual({
        status: 'superseded',
        transaction_id: lost,
        message: "superseded by another user's write: the line's later restore stands; this suspend was not re-sent",
      });
      expect(JSON.stringify(rest.body)).not.toContain(restore);
      expect(sent(lost)).toHaveLength(1);
      expect(await registryStatus(line.mdn)).toBe('ACTIVE');
    });

    it('is superseded by a restore recorded under the number an MDN swap gave the line', async () => {
      const { token } = await gateway.user();
      const line = await seedLine(gateway);
      const stamp = Date.now();
      const lost = `SUSPEND_BEFORE_SWAP_${stamp}`;
      await lostWrite(token, '/sim/suspend/', { mdn: line.mdn, transaction_id: lost }, false);
      const swapped = await write(token, '/sim/mdn/swap/', {
        mdn: line.mdn,
        sim: line.sim,
        zip_code: '30301',
        transaction_id: `SWAP_MDN_${stamp}`,
      });
      const newMdn = swapped.new_mdn as string;
      expect(newMdn).toMatch(/^\d{10}$/);
      const restore = `RESTORE_${stamp}`;
      await write(token, '/sim/suspend/', { mdn: newMdn, transaction_id: `SUSPEND_AGAIN_${stamp}` });
      await write(token, '/sim/restore/', { mdn: newMdn, transaction_id: restore });

      await recover();

      await expectSuperseded(token, lost, restore, new RegExp(`^superseded by ${restore}:`));
      expect(sent(lost)).toHaveLength(1);
      expect(await carrierStatus(newMdn)).toBe('ACTIVE');
      expect(await registryStatus(newMdn)).toBe('ACTIVE');
      expect(await gateway.app.services.db.lineEvent.findFirst({ where: { transactionId: lost } })).toBeNull();
    });
  });

  describe('a lost write of another kind, then a successful restore', () => {
    it('is re-sent and recovered as before (a feature change is never superseded)', async () => {
      const { token } = await gateway.user();
      const line = await seedLine(gateway);
      const stamp = Date.now();
      const lost = `VM_LANG_LOST_${stamp}`;
      await lostWrite(
        token,
        '/sim/voicemail/language/',
        { mdn: line.mdn, language: 'SPAN', transaction_id: lost },
        false,
      );
      await write(token, '/sim/suspend/', { mdn: line.mdn, transaction_id: `SUSPEND_${stamp}` });
      await write(token, '/sim/restore/', { mdn: line.mdn, transaction_id: `RESTORE_${stamp}` });

      const { outcomes } = await recover();

      const record = await gateway.graphql<{ transaction: Record<string, unknown> }>(TRANSACTION, {
        token,
        variables: { id: lost },
      });
      expect(record.data?.transaction).toMatchObject({ status: 'SUCCESS', httpStatus: 200, recovered: true });
      expect(sent(lost)).toHaveLength(2);
      const event = await gateway.app.services.db.lineEvent.findFirst({ where: { transactionId: lost } });
      expect(event).toMatchObject({ type: 'line.feature_changed', mdn: line.mdn });
      expect(JSON.parse(event!.data)).toMatchObject({ feature: 'voicemail_language', recovered: true });
      expect(await carrierStatus(line.mdn)).toBe('ACTIVE');
      expect(outcomes.get('success')).toBe(1);
      expect(outcomes.has('superseded')).toBe(false);
    });
  });

  describe('a lost suspension nothing came after', () => {
    it('is re-sent and recovered as before: the line is suspended, with a recovered event', async () => {
      const { token } = await gateway.user();
      const line = await seedLine(gateway);
      const lost = `SUSPEND_LONE_${Date.now()}`;
      await lostWrite(token, '/sim/suspend/', { mdn: line.mdn, transaction_id: lost }, false);

      const { outcomes } = await recover();

      const rest = await gateway.rest('GET', `/transactions/${lost}`, { token });
      expect(rest.body).toMatchObject({ status: 'success', http_status: 200, recovered: true });
      expect(sent(lost)).toHaveLength(2);
      expect(await carrierStatus(line.mdn)).toBe('SUSPENDED');
      expect(await registryStatus(line.mdn)).toBe('SUSPENDED');
      const lineEvents = await events(line.mdn);
      expect(lineEvents.map((event) => [event.type, event.transactionId])).toEqual([['line.suspended', lost]]);
      expect(JSON.parse(lineEvents[0]!.data)).toMatchObject({ recovered: true });
      expect(outcomes.get('success')).toBe(1);
    });
  });
});
