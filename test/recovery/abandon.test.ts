// An operator gives up a lost write that recovery cannot resolve. A line's lost writes are re-sent
// oldest first, so an older write that can never be re-sent (here: its user no longer exists)
// keeps the line's later lost write waiting for ever. `abandonTransaction` (superuser, GraphQL)
// and `npm run admin -- recovery abandon` turn it `abandoned`: never re-sent, its record saying
// why, and the write that waited behind it goes at once. Refused, changing nothing: a resolved
// write, one whose own request may still be running, one a replica is re-sending at that moment,
// an unknown id, a missing or overlong reason, a caller who is not a superuser. A bulk job's
// entry for an abandoned SIM turns a failure, and the job's counts follow.
//
// Recovery runs only when the test says (the writing gateway's reconciler is stopped; a replica
// on its database and sandbox carriers sweeps).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, startReplica, type TestGateway } from '../support/gateway.js';
import { eventually } from '../support/eventually.js';
import { seedLine } from '../support/lines.js';
import { createPlans } from '../support/plans.js';
import { postgresAvailable } from '../support/postgres.js';
import { activationBody } from '../e2e/activation/activations.js';
import type { RestBulkAnswer, RestBulkEntry } from '../support/bulk.js';
import { lostWrite, runAdmin, sandboxEnv, setFaults } from './support.js';

const MINUTE = 60_000;
const DATABASES: ('sqlite' | 'postgresql')[] = (await postgresAvailable()) ? ['sqlite', 'postgresql'] : ['sqlite'];

const ABANDON = `mutation ($input: AbandonTransactionInput!) { abandonTransaction(input: $input) {
  transaction { id status response recovered resolvedAt noEffect }
  released
  dryRun { wouldSucceed checks { name outcome } unpredictable }
} }`;
const TRANSACTION = 'query ($id: String!) { transaction(id: $id) { status response recovered } }';

interface Abandoned {
  transaction: {
    id: string;
    status: string;
    response: { status: string; transaction_id: string; message: string; reason: string };
    recovered: boolean;
    resolvedAt: string | null;
    noEffect: boolean;
  };
  released: string[];
  dryRun: { wouldSucceed: boolean; checks: { name: string; outcome: string }[]; unpredictable: string[] } | null;
}

describe.each(DATABASES)('on %s', (database) => {
  let gateway: TestGateway;
  let replica: TestGateway;
  let admin: string;

  beforeAll(async () => {
    gateway = await startGateway({
      database,
      env: { CARRIER_TIMEOUT_MS: '1500', CARRIER_RETRIES: '0', RECOVERY_SWEEP_MS: '3600000' },
    });
    await gateway.app.services.recovery.stop();
    await createPlans(gateway);
    replica = await startReplica(gateway, {
      ...sandboxEnv(gateway),
      CARRIER_RETRIES: '0',
      RECOVERY_SWEEP_MS: '3600000',
    });
    admin = (await gateway.user({ superuser: true })).token;
  }, 60_000);
  afterAll(async () => {
    await replica?.close();
    await gateway?.close();
  });

  const db = () => gateway.app.services.db;
  const row = (id: string) => gateway.app.services.transactions.find(id);
  const rawRow = (id: string) => db().transaction.findUniqueOrThrow({ where: { id } });

  /**
   * A line's lost suspend that can never be re-sent (its user gone), and its lost restore behind
   * it; a sweep has tried the suspend (it backs off) and left the restore waiting.
   */
  async function blockedLine(tag: string) {
    const { user, token } = await gateway.user();
    const line = await seedLine(gateway);
    const stamp = Date.now();
    const suspend = `AB-SUS-${tag}-${stamp}`;
    const restore = `AB-RES-${tag}-${stamp}`;
    await lostWrite(gateway, token, '/sim/suspend/', { mdn: line.mdn, transaction_id: suspend });
    await lostWrite(gateway, token, '/sim/restore/', { mdn: line.mdn, transaction_id: restore });
    await db().transaction.update({
      where: { id: suspend },
      data: { userId: `deleted-${stamp}`, createdAt: new Date(stamp - 30 * MINUTE) },
    });
    await db().transaction.update({ where: { id: restore }, data: { createdAt: new Date(stamp - 20 * MINUTE) } });
    await replica.app.services.recovery.sweep();
    expect(await row(suspend)).toMatchObject({ status: 'unknown', attempts: 1 });
    expect(await row(restore)).toMatchObject({ status: 'unknown', attempts: 0 });
    return { user, token, line, suspend, restore };
  }

  const abandon = (token: string, input: Record<string, unknown>, on: TestGateway = replica) =>
    on.graphql<{ abandonTransaction: Abandoned }>(ABANDON, { token, variables: { input } });

  const cli = (args: string[]) => runAdmin(gateway, args);

  it('gives up a write recovery cannot re-send (dry run first): the write behind it goes at once, and its record says why', async () => {
    const { token, suspend, restore } = await blockedLine('gql');
    const before = await rawRow(suspend);
    const reason = 'User deleted for good; carrier 321 shows the line active (checked 2026-11-28)';

    // Not a superuser: refused, nothing changed.
    const forbidden = await abandon(token, { id: suspend, reason });
    expect(forbidden.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');

    // A dry run says what the call would do, and does nothing.
    const dry = await abandon(admin, { id: suspend, reason, dryRun: true });
    expect(dry.errors).toBeUndefined();
    expect(dry.data!.abandonTransaction).toMatchObject({
      transaction: { id: suspend, status: 'ABANDONED', response: { status: 'abandoned', reason }, recovered: false },
      released: [restore],
      dryRun: { wouldSucceed: true, checks: expect.arrayContaining([{ name: 'transaction', outcome: 'PASSED' }]) },
    });
    expect(dry.data!.abandonTransaction.dryRun!.unpredictable).toHaveLength(1);
    expect(await rawRow(suspend)).toEqual(before);

    const done = await abandon(admin, { id: suspend, reason });
    expect(done.errors).toBeUndefined();
    const { transaction, released, dryRun } = done.data!.abandonTransaction;
    expect(dryRun).toBeNull();
    expect(released).toEqual([restore]);
    expect(transaction).toEqual({
      id: suspend,
      status: 'ABANDONED',
      response: {
        status: 'abandoned',
        transaction_id: suspend,
        message: 'Abandoned by an operator: its outcome at the carrier was never learned, and it is not re-sent',
        reason,
      },
      recovered: false,
      resolvedAt: expect.any(String),
      noEffect: false,
    });
    // Nothing left to re-send it with, and nobody holds it.
    expect(await rawRow(suspend)).toMatchObject({ status: 'abandoned', request: null, leaseUntil: null, attempts: 1 });

    // The restore it held back is re-sent at once by the replica that abandoned it (the carrier
    // answers it: the line was never suspended there, since the suspend was dropped before).
    expect(
      await eventually(async () => !['pending', 'unknown'].includes((await row(restore))!.status), 20_000, 20),
    ).toBe(true);
    expect(await row(restore)).toMatchObject({ attempts: 1, resolvedAt: expect.any(Date) });
    // A later sweep leaves the abandoned write alone.
    await replica.app.services.recovery.sweep();
    expect(await rawRow(suspend)).toMatchObject({ status: 'abandoned', attempts: 1 });

    // Read back as anyone reads a transaction (REST included); the id stays used.
    const read = await gateway.graphql<{ transaction: { status: string; recovered: boolean } }>(TRANSACTION, {
      token: admin,
      variables: { id: suspend },
    });
    expect(read.data!.transaction).toMatchObject({ status: 'ABANDONED', recovered: false });
    const rest = await gateway.rest('GET', `/transactions/${suspend}`, { token: admin });
    expect(rest.body).toMatchObject({ status: 'abandoned', recovered: false, no_effect: false });

    // Once is all: a second call is refused.
    const again = await abandon(admin, { id: suspend, reason });
    expect(again.errors?.[0]).toMatchObject({
      message: `Transaction ${suspend} is abandoned: only a lost outcome (unknown, or pending after a crash) can be abandoned`,
      extensions: { code: 'CONFLICT' },
    });
  });

  it('refuses, changing nothing: a resolved write, one whose request may still run, one being re-sent now, an unknown id, a bad reason', async () => {
    const { suspend, restore } = await blockedLine('refusals');
    const reason = 'checked at the carrier';
    const refusal = async (input: Record<string, unknown>) => {
      const answer = await abandon(admin, input);
      expect(answer.data?.abandonTransaction ?? null).toBeNull();
      return answer.errors?.[0];
    };

    expect(await refusal({ id: 'NO-SUCH-TX', reason })).toMatchObject({
      message: 'Transaction NO-SUCH-TX not found',
      extensions: { code: 'NOT_FOUND' },
    });
    for (const bad of ['', '   ', 'x'.repeat(501)]) {
      expect((await refusal({ id: suspend, reason: bad }))?.extensions?.code).toBe('BAD_USER_INPUT');
    }

    // A replica holds it (a re-send in progress): its answer must be the one recorded.
    const held = { leaseOwner: 'another-replica', leaseUntil: new Date(Date.now() + MINUTE) };
    await db().transaction.update({ where: { id: suspend }, data: held });
    expect(await refusal({ id: suspend, reason })).toMatchObject({
      message: expect.stringMatching(/is being re-sent right now/),
      extensions: { code: 'CONFLICT' },
    });
    expect(await rawRow(suspend)).toMatchObject({ status: 'unknown', ...held });

    // Pending and young: its own request may still be running.
    await db().transaction.update({
      where: { id: suspend },
      data: { status: 'pending', createdAt: new Date(), leaseOwner: null, leaseUntil: null },
    });
    expect(await refusal({ id: suspend, reason })).toMatchObject({
      message: expect.stringMatching(/is pending: its own request may still be running; it can be abandoned after /),
      extensions: { code: 'CONFLICT' },
    });

    // Resolved: nothing to give up.
    await db().transaction.update({ where: { id: restore }, data: { status: 'success' } });
    expect(await refusal({ id: restore, reason })).toMatchObject({ extensions: { code: 'CONFLICT' } });
    expect(await rawRow(suspend)).toMatchObject({ status: 'pending', request: expect.any(String) });
    expect(await rawRow(restore)).toMatchObject({ status: 'success', request: expect.any(String) });
  });

  it('the admin command line: a dry run, then the write given up; refusals exit 1 and usage errors 2', async () => {
    const { suspend, restore } = await blockedLine('cli');
    const before = await rawRow(suspend);

    expect(await cli(['recovery', 'abandon', suspend])).toMatchObject({
      code: 1,
      stderr: '--reason: Field required\n',
    });
    expect((await cli(['recovery', 'abandon', suspend, '--reason', 'x', '--carrier', '321'])).code).toBe(2);

    const dry = await cli(['recovery', 'abandon', suspend, '--reason', 'gone for good', '--dry-run']);
    expect(dry).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(dry.stdout)).toMatchObject({
      dryRun: true,
      transaction: { id: suspend, status: 'abandoned' },
      released: [restore],
    });
    expect(await rawRow(suspend)).toEqual(before);

    const done = await cli(['recovery', 'abandon', suspend, '--reason', 'gone for good']);
    expect(done).toMatchObject({ code: 0, stderr: '' });
    const printed = JSON.parse(done.stdout) as {
      transaction: { status: string; response: string };
      released: string[];
    };
    expect(printed.transaction.status).toBe('abandoned');
    expect(JSON.parse(printed.transaction.response)).toMatchObject({ reason: 'gone for good' });
    expect(printed.released).toEqual([restore]);
    // The command line runs no recovery: the restore is due now (its backoff, if any, ended), for
    // the servers' next sweep.
    expect(await rawRow(restore)).toMatchObject({ status: 'unknown', leaseUntil: null, attempts: 0 });
    await replica.app.services.recovery.sweep();
    expect((await row(restore))!.status).not.toBe('unknown');

    expect(await cli(['recovery', 'abandon', suspend, '--reason', 'again'])).toMatchObject({
      code: 1,
      stderr: `Transaction ${suspend} is abandoned: only a lost outcome (unknown, or pending after a crash) can be abandoned\n`,
    });
  });

  it('a bulk activation SIM given up: its entry turns a failure that says so, and the job has nothing unresolved', async () => {
    const { token } = await gateway.user({ plans: ['BPLAN'] });
    const slow = activationBody({ plan_id: 'BPLAN' });
    // carrier_b answers after the gateway's timeout: the SIM's outcome is lost.
    await setFaults(gateway, 'carrier_b', { latency_ms: 3000 });
    let answer;
    try {
      answer = await gateway.rest<RestBulkAnswer>('POST', '/sim/activate/bulk/', {
        token,
        body: { activations: [slow] },
      });
    } finally {
      await setFaults(gateway, 'carrier_b', {});
    }
    expect(answer.status).toBe(200);
    const [lost] = answer.body.results as [RestBulkEntry];
    expect(await row(lost.transaction_id)).toMatchObject({ status: 'unknown' });
    const jobId = (await db().bulkActivationItem.findFirstOrThrow({ where: { transactionId: lost.transaction_id } }))
      .jobId;
    expect(await db().bulkActivationJob.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({ unresolved: 1 });

    const done = await abandon(admin, { id: lost.transaction_id, reason: 'carrier_b support: no such order' });
    expect(done.errors).toBeUndefined();

    const job = await gateway.graphql<{
      bulkActivation: { unresolved: number; failed: number; results: Record<string, unknown>[] };
    }>(
      'query ($id: String!) { bulkActivation(id: $id, first: 10) { unresolved failed results { sim status message recovered } } }',
      { token, variables: { id: jobId } },
    );
    expect(job.errors).toBeUndefined();
    expect(job.data!.bulkActivation).toEqual({
      unresolved: 0,
      failed: 1,
      results: [
        {
          sim: slow.sim,
          status: 'FAILURE',
          message: 'Abandoned by an operator: its outcome at the carrier was never learned, and it is not re-sent',
          recovered: null,
        },
      ],
    });
  });
});
