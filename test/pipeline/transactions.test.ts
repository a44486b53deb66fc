// Transaction ids and the transactions table: generated ids of the spec form, caller ids
// echoed, duplicates refused (also under concurrency), a row for every outcome including
// carrier faults, and `transaction(id:)` limited to its owner (or a superuser).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/logger.js';
import { startGateway, TEST_JWT_SECRET, type TestGateway, statusesOf } from '../support/gateway.js';
import { seedUnknownLine } from '../support/lines.js';
import { errorOf } from '../support/surfaces.js';
import { useGateway } from '../support/use-gateway.js';

let token: string;

const gateway = useGateway();
beforeAll(async () => {
  ({ token } = await gateway.user({ plans: ['BASIC', 'PREMIUM'] }));
});

const SUSPEND =
  'mutation ($mdn: String!, $id: String) { suspendLine(input: { mdn: $mdn, transactionId: $id }) { status mdn transactionId message } }';
const TRANSACTION =
  'query ($id: String!) { transaction(id: $id) { id operation carrier mdn sim status httpStatus response createdAt updatedAt } }';

describe('generated transaction ids', () => {
  it('answers <PREFIX> and 12 uppercase hex characters on REST and GraphQL', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const line = await seedUnknownLine(gateway);
      const rest = await gateway.rest('POST', '/sim/suspend/', { token, body: { mdn: line.mdn } });
      expect(rest.body.transaction_id).toMatch(/^SUSPEND_[0-9A-F]{12}$/);
      ids.add(rest.body.transaction_id as string);
    }
    const line = await seedUnknownLine(gateway);
    const graphql = await gateway.graphql<{ suspendLine: { transactionId: string } }>(SUSPEND, {
      token,
      variables: { mdn: line.mdn },
    });
    expect(graphql.data?.suspendLine.transactionId).toMatch(/^SUSPEND_[0-9A-F]{12}$/);
    ids.add(graphql.data!.suspendLine.transactionId);
    const change = await gateway.rest('POST', '/sim/plan/change/', {
      token,
      body: { mdn: line.mdn, new_plan_id: 'PREMIUM' },
    });
    expect(change.body.transaction_id).toMatch(/^PLAN_CHANGE_[0-9A-F]{12}$/);
    expect(ids.size).toBe(4);
  });

  it('generates an id for a carrier refusal too, and answers it in the failure body', async () => {
    const rest = await gateway.rest('POST', '/sim/suspend/', { token, body: { mdn: '5550001111' } });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({
      status: 'failure',
      mdn: '5550001111',
      transaction_id: expect.stringMatching(/^SUSPEND_[0-9A-F]{12}$/),
      message: expect.stringMatching(/\(918\)$/),
    });
  });
});

describe('caller-supplied transaction ids', () => {
  it('echoes the id on REST and GraphQL', async () => {
    const line = await seedUnknownLine(gateway);
    const id = `MY-TX-${Date.now()}`;
    const rest = await gateway.rest('POST', '/sim/suspend/', { token, body: { mdn: line.mdn, transaction_id: id } });
    expect(rest.body).toMatchObject({ status: 'success', transaction_id: id });
    const other = await seedUnknownLine(gateway);
    const graphql = await gateway.graphql<{ suspendLine: { transactionId: string } }>(SUSPEND, {
      token,
      variables: { mdn: other.mdn, id: `${id}-gql` },
    });
    expect(graphql.data?.suspendLine.transactionId).toBe(`${id}-gql`);
  });

  it('refuses a repeated id with 409 and the spec body, on REST and on GraphQL, whoever repeats it', async () => {
    const line = await seedUnknownLine(gateway);
    const id = `DUP-${Date.now()}`;
    expect(
      (await gateway.rest('POST', '/sim/suspend/', { token, body: { mdn: line.mdn, transaction_id: id } })).status,
    ).toBe(200);
    const again = await gateway.rest('POST', '/sim/suspend/', { token, body: { mdn: line.mdn, transaction_id: id } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ status: 'failure', message: `Transaction ID ${id} already exists`, code: 'HTTP_409' });
    const graphql = await gateway.graphql(SUSPEND, { token, variables: { mdn: line.mdn, id } });
    expect(statusesOf(graphql)).toEqual({ http: 200, rest: 409 });
    expect(errorOf(graphql)).toEqual({ code: 'DUPLICATE_TRANSACTION', message: `Transaction ID ${id} already exists` });
    // Ids are unique across users and operations.
    const { token: someoneElse } = await gateway.user({ plans: ['PREMIUM'] });
    expect(
      (
        await gateway.rest('POST', '/sim/plan/change/', {
          token: someoneElse,
          body: { mdn: line.mdn, new_plan_id: 'PREMIUM', transaction_id: id },
        })
      ).status,
    ).toBe(409);
    // The first answer is what the record keeps.
    const record = await gateway.app.services.transactions.find(id);
    expect(record).toMatchObject({ status: 'success', httpStatus: 200, operation: 'suspendLine' });
  });

  it('lets exactly one of 10 concurrent requests with one id win', async () => {
    const { token: racer } = await gateway.user();
    const line = await seedUnknownLine(gateway);
    const id = `RACE10-${Date.now()}`;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        index % 2 === 0
          ? gateway
              .rest('POST', '/sim/suspend/', { token: racer, body: { mdn: line.mdn, transaction_id: id } })
              .then((answer) => answer.status)
          : gateway
              .graphql(SUSPEND, { token: racer, variables: { mdn: line.mdn, id } })
              .then((answer) => (answer.errors ? answer.errors[0]?.extensions?.status : 200)),
      ),
    );
    expect(answers.filter((status) => status === 200)).toHaveLength(1);
    expect(answers.filter((status) => status === 409)).toHaveLength(9);
    expect((await gateway.rest('GET', `/sim/usage/${line.mdn}`, { token: racer })).body.status).toBe('SUSPENDED');
  });

  it('records nothing for a request refused before the carrier (validation, plan authorization)', async () => {
    const invalid = `INVALID-${Date.now()}`;
    expect(
      (await gateway.rest('POST', '/sim/suspend/', { token, body: { mdn: '12', transaction_id: invalid } })).status,
    ).toBe(422);
    expect(await gateway.app.services.transactions.find(invalid)).toBeNull();
    const unauthorized = `UNAUTH-${Date.now()}`;
    expect(
      (
        await gateway.rest('POST', '/sim/plan/change/', {
          token,
          body: { mdn: '3215550001', new_plan_id: 'GOLD', transaction_id: unauthorized },
        })
      ).status,
    ).toBe(403);
    expect(await gateway.app.services.transactions.find(unauthorized)).toBeNull();
  });
});

describe('the transaction record', () => {
  it('records success and carrier failure with the answer the caller got', async () => {
    const line = await seedUnknownLine(gateway);
    const ok = await gateway.rest('POST', '/sim/suspend/', {
      token,
      body: { mdn: line.mdn, transaction_id: `OK-${line.mdn}` },
    });
    const failed = await gateway.rest('POST', '/sim/suspend/', {
      token,
      body: { mdn: line.mdn, transaction_id: `FAIL-${line.mdn}` },
    });
    expect(failed.status).toBe(400);
    const success = await gateway.graphql<{ transaction: Record<string, unknown> }>(TRANSACTION, {
      token,
      variables: { id: `OK-${line.mdn}` },
    });
    expect(success.data?.transaction).toMatchObject({
      id: `OK-${line.mdn}`,
      operation: 'suspendLine',
      carrier: 'CARRIER_321',
      mdn: line.mdn,
      status: 'SUCCESS',
      httpStatus: 200,
    });
    expect(success.data!.transaction.response).toEqual(ok.body);
    const failure = await gateway.graphql<{ transaction: Record<string, unknown> }>(TRANSACTION, {
      token,
      variables: { id: `FAIL-${line.mdn}` },
    });
    expect(failure.data?.transaction).toMatchObject({ status: 'FAILURE', httpStatus: 400 });
    expect(failure.data!.transaction.response).toEqual(failed.body);
  });

  it('is visible to its owner and to a superuser only; another user gets NOT_FOUND', async () => {
    const line = await seedUnknownLine(gateway);
    const id = `MINE-${line.mdn}`;
    await gateway.rest('POST', '/sim/suspend/', { token, body: { mdn: line.mdn, transaction_id: id } });
    const { token: stranger } = await gateway.user();
    const hidden = await gateway.graphql(TRANSACTION, { token: stranger, variables: { id } });
    expect(statusesOf(hidden)).toEqual({ http: 200, rest: 404 });
    expect(errorOf(hidden)).toEqual({ code: 'NOT_FOUND', message: `Transaction ${id} not found` });
    // Same answer as an id that does not exist: nothing to learn by guessing.
    expect(errorOf(await gateway.graphql(TRANSACTION, { token: stranger, variables: { id: 'NO-SUCH-ID' } }))).toEqual({
      code: 'NOT_FOUND',
      message: 'Transaction NO-SUCH-ID not found',
    });
    const { token: admin } = await gateway.user({ superuser: true });
    const seen = await gateway.graphql<{ transaction: { id: string } }>(TRANSACTION, {
      token: admin,
      variables: { id },
    });
    expect(seen.data?.transaction.id).toBe(id);
    expect(errorOf(await gateway.graphql(TRANSACTION, { variables: { id } })).code).toBe('UNAUTHENTICATED');
  });

  it('refuses an id no request could carry with 422 (BAD_USER_INPUT), not a 404 that reads like a lost write', async () => {
    for (const id of ['x'.repeat(65), 'WITH SPACE', 'tab\there', 'é-accent']) {
      const rest = await gateway.rest('GET', `/transactions/${encodeURIComponent(id)}`, { token });
      expect(rest.status, id).toBe(422);
      expect(JSON.stringify(rest.body)).toContain('id must be 1 to 64 printable ASCII characters without spaces');
      const graphql = await gateway.graphql(TRANSACTION, { token, variables: { id } });
      expect(statusesOf(graphql), id).toEqual({ http: 200, rest: 422 });
      expect(errorOf(graphql).code).toBe('BAD_USER_INPUT');
    }
    // The longest id a request may carry is looked up as any other.
    const longest = 'L'.repeat(64);
    expect((await gateway.rest('GET', `/transactions/${longest}`, { token })).status).toBe(404);
  });

  it('still reads a row whose id an earlier version accepted (spaces, up to 100 characters)', async () => {
    const { user, token: owner } = await gateway.user();
    const id = `OLD ID ${'O'.repeat(80)}`;
    await gateway.app.services.db.transaction.create({
      data: { id, userId: user.id, operation: 'suspendLine', status: 'success', httpStatus: 200 },
    });
    const rest = await gateway.rest('GET', `/transactions/${encodeURIComponent(id)}`, { token: owner });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ id, status: 'success' });
  });
});

describe('carrier faults', () => {
  let faulty: TestGateway;
  let faultyToken: string;
  const logs: string[] = [];

  const setFaults = async (faults: Record<string, number>) => {
    const response = await fetch(`${faulty.sandboxes.urls['321']}/_sandbox/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(faults),
    });
    expect(response.status).toBe(200);
  };

  beforeAll(async () => {
    // Capture the gateway's own log lines at debug level.
    faulty = await startGateway({
      env: { CARRIER_TIMEOUT_MS: '300', CARRIER_RETRIES: '0', LOG_LEVEL: 'debug' },
      logger: createLogger('debug', (line) => logs.push(line)),
    });
    ({ token: faultyToken } = await faulty.user());
  });
  afterAll(() => faulty.close());

  it("answers the spec's 400 carrier failure envelope with mdn and transaction_id when the carrier drops the connection, and records the outcome as unknown", async () => {
    const line = await seedUnknownLine(faulty);
    await setFaults({ drop_rate: 1 });
    try {
      const rest = await faulty.rest('POST', '/sim/suspend/', { token: faultyToken, body: { mdn: line.mdn } });
      expect(rest.status).toBe(400);
      expect(rest.body).toEqual({
        status: 'failure',
        mdn: line.mdn,
        transaction_id: expect.stringMatching(/^SUSPEND_[0-9A-F]{12}$/),
        message: expect.stringMatching(
          /^Carrier 321 .*look it up by transaction id before retrying \(CARRIER_UNAVAILABLE\)$/,
        ),
      });
      const record = await faulty.graphql<{ transaction: Record<string, unknown> }>(TRANSACTION, {
        token: faultyToken,
        variables: { id: rest.body.transaction_id },
      });
      expect(record.data?.transaction).toMatchObject({ status: 'UNKNOWN', httpStatus: 400 });
      expect(record.data!.transaction.response).toEqual(rest.body);

      const graphql = await faulty.graphql(SUSPEND, {
        token: faultyToken,
        variables: { mdn: line.mdn, id: `GQL-DROP-${line.mdn}` },
      });
      expect(statusesOf(graphql)).toEqual({ http: 200, rest: 400 });
      expect(graphql.errors?.[0]?.extensions).toMatchObject({
        code: 'CARRIER_UNAVAILABLE',
        transactionId: `GQL-DROP-${line.mdn}`,
        outcomeKnown: false,
      });
    } finally {
      await setFaults({});
    }
  });

  it('answers 400 (CARRIER_TIMEOUT) with transaction_id when the carrier is slower than CARRIER_TIMEOUT_MS', async () => {
    const line = await seedUnknownLine(faulty);
    await setFaults({ latency_ms: 1500 });
    try {
      const rest = await faulty.rest('POST', '/sim/suspend/', {
        token: faultyToken,
        body: { mdn: line.mdn, transaction_id: `SLOW-${line.mdn}` },
      });
      expect(rest.status).toBe(400);
      expect(rest.body).toEqual({
        status: 'failure',
        mdn: line.mdn,
        transaction_id: `SLOW-${line.mdn}`,
        message: expect.stringMatching(/^Carrier 321 .*\(CARRIER_TIMEOUT\)$/),
      });
      const record = await faulty.graphql<{ transaction: Record<string, unknown> }>(TRANSACTION, {
        token: faultyToken,
        variables: { id: `SLOW-${line.mdn}` },
      });
      expect(record.data?.transaction).toMatchObject({ status: 'UNKNOWN', httpStatus: 400 });
      const graphql = await faulty.graphql(SUSPEND, { token: faultyToken, variables: { mdn: line.mdn } });
      expect(statusesOf(graphql)).toEqual({ http: 200, rest: 400 });
      expect(errorOf(graphql).code).toBe('CARRIER_TIMEOUT');
    } finally {
      await setFaults({});
    }
  });

  it('answers 400 (CARRIER_UNAVAILABLE) when the carrier answers 5xx, and records it', async () => {
    const line = await seedUnknownLine(faulty);
    await setFaults({ error_rate: 1 });
    try {
      const rest = await faulty.rest('POST', '/sim/suspend/', {
        token: faultyToken,
        body: { mdn: line.mdn, transaction_id: `5XX-${line.mdn}` },
      });
      expect(rest.status).toBe(400);
      expect(rest.body.message).toMatch(/\(CARRIER_UNAVAILABLE\)$/);
      const record = await faulty.app.services.transactions.find(`5XX-${line.mdn}`);
      expect(['unknown', 'error']).toContain(record?.status);
      expect(record?.httpStatus).toBe(400);
    } finally {
      await setFaults({});
    }
  });

  it('answers 400 (CARRIER_UNAVAILABLE) when the carrier answers malformed JSON, and records the outcome as unknown', async () => {
    const line = await seedUnknownLine(faulty);
    await setFaults({ garbage_rate: 1 });
    try {
      const rest = await faulty.rest('POST', '/sim/suspend/', {
        token: faultyToken,
        body: { mdn: line.mdn, transaction_id: `GARBAGE-${line.mdn}` },
      });
      expect(rest.status).toBe(400);
      expect(rest.body).toMatchObject({
        message: expect.stringMatching(
          /^Carrier 321 sent an answer that could not be understood.*\(CARRIER_UNAVAILABLE\)$/,
        ),
      });
      const record = await faulty.app.services.transactions.find(`GARBAGE-${line.mdn}`);
      expect(record).toMatchObject({ status: 'unknown', httpStatus: 400 });
      // A read that meets garbage changed nothing: no transaction id, no "outcome is unknown".
      const read = await faulty.rest('GET', `/sim/usage/${line.mdn}`, { token: faultyToken });
      expect(read.status).toBe(400);
      // In usage's failure envelope, as a refusal of it would be (`errors`, no line).
      const understood = 'Carrier 321 sent an answer that could not be understood (CARRIER_UNAVAILABLE)';
      expect(read.body).toEqual({ status: 'failure', errors: [understood], message: understood });
    } finally {
      await setFaults({});
    }
  });

  it('logs no credential, secret or token while faults happen', async () => {
    const { token: extra } = await faulty.user({ superuser: true });
    const line = await seedUnknownLine(faulty);
    await setFaults({ drop_rate: 1 });
    try {
      await faulty.rest('POST', '/sim/suspend/', { token: extra, body: { mdn: line.mdn } });
      await faulty.rest('GET', `/sim/usage/${line.mdn}`, { token: extra });
    } finally {
      await setFaults({});
    }
    const text = logs.join('');
    expect(text).toContain('carrier fault');
    for (const secret of [
      'sandbox-321-key',
      'sandbox-b-secret',
      'sandbox-b-account',
      TEST_JWT_SECRET,
      extra,
      faultyToken,
      extra.split('.')[2]!,
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});

describe('a carrier that refuses connections', () => {
  let down: TestGateway;
  let downToken: string;

  beforeAll(async () => {
    // Carrier 321 points at port 1, where nothing listens (a port freed by a probe server could
    // be taken meanwhile by another suite's server); carrier_b stays on its sandbox.
    down = await startGateway({
      env: {
        CARRIER_321_URL: 'http://127.0.0.1:1',
        CARRIER_321_API_KEY: 'sandbox-321-key',
        CARRIER_RETRIES: '1',
      },
    });
    ({ token: downToken } = await down.user());
  });
  afterAll(() => down.close());

  it('answers 400 (CARRIER_UNAVAILABLE) and records the write as failed with a known outcome: nothing reached the carrier', async () => {
    const rest = await down.rest('POST', '/sim/suspend/', {
      token: downToken,
      body: { mdn: '3215550001', transaction_id: 'REFUSED-1' },
    });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({
      status: 'failure',
      mdn: '3215550001',
      transaction_id: 'REFUSED-1',
      message: 'Carrier 321 could not be reached (CARRIER_UNAVAILABLE)',
    });
    const record = await down.app.services.transactions.find('REFUSED-1');
    expect(record).toMatchObject({ status: 'error', httpStatus: 400 });
    const graphql = await down.graphql(SUSPEND, {
      token: downToken,
      variables: { mdn: '3215550001', id: 'REFUSED-2' },
    });
    expect(graphql.errors?.[0]?.extensions).toMatchObject({
      code: 'CARRIER_UNAVAILABLE',
      outcomeKnown: true,
      transactionId: 'REFUSED-2',
    });
  });
});
