// Two replicas on one PostgreSQL database, caches as deployed (minutes): after warm-up the
// second serves GraphQL usage, REST usage and `me` without one database statement, and a change
// made through the first (token revoked, user deactivated, plan unauthorized, maintenance on,
// line given to another owner) is refused or visible on the second within 1 s (a bound polled
// for, not a speed measured). Its cache listener killed, it still misses nothing. Skipped with
// a printed reason when PostgreSQL is absent.

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, startReplica, type TestGateway } from '../support/gateway.js';
import { eventually } from '../support/eventually.js';
import { seedLine } from '../support/lines.js';
import { POSTGRES_URL, postgresAvailable } from '../support/postgres.js';
import { sandboxEnv } from '../recovery/support.js';

/** The bound the issue sets on revocation everywhere. */
const WITHIN_MS = 1000;

const BACKGROUND_AT_REST = {
  OUTBOX_POLL_MS: '3600000',
  BULK_JOB_LEASE_MS: '3600000',
  RECOVERY_SWEEP_MS: '3600000',
};

let available = false;
let first: TestGateway | undefined;
let second: TestGateway | undefined;
let admin: string;
/** A line on the first replica's sandbox carrier 321, which both replicas call. */
let mdn: string;

beforeAll(async () => {
  available = await postgresAvailable();
  if (!available) return;
  // The replicas' background loops (outbox relay, webhook deliveries, job and recovery sweeps)
  // query on their own schedule; they are slowed here so that the statement count below
  // measures what requests do.
  first = await startGateway({ database: 'postgresql', env: BACKGROUND_AT_REST });
  second = await startReplica(first, { ...sandboxEnv(first), ...BACKGROUND_AT_REST });
  admin = (await first.user({ superuser: true })).token;
  mdn = (await seedLine(first)).mdn;
}, 60_000);
afterAll(async () => {
  await second?.close();
  await first?.close();
});

const meQuery = '{ me { name authorizedPlans { planId } lineCount } }';
const on = (gateway: TestGateway, token: string, line = mdn) => ({
  graphqlUsage: () => gateway.graphql(`{ usage(mdn: "${line}") { status } }`, { token }),
  restUsage: () => gateway.rest('GET', `/sim/usage/${line}`, { token }),
  me: () => gateway.graphql<{ me: { name: string; authorizedPlans: { planId: string }[] } | null }>(meQuery, { token }),
});
const mutate = async (query: string) => {
  const answer = await first!.graphql(query, { token: admin });
  expect(answer.errors).toBeUndefined();
};
const statements = async (gateway: TestGateway) =>
  (await gateway.app.services.metrics.databaseQueries.get()).values[0]!.value;
const refusedOnSecond = async (token: string, detail: string) =>
  eventually(async () => {
    const answer = await on(second!, token).restUsage();
    return answer.status === 401 && (answer.body as { detail?: string }).detail === detail;
  }, WITHIN_MS);

describe('two replicas on PostgreSQL, caches that live for minutes', () => {
  it('serve GraphQL usage, REST usage and me without a database statement after warm-up', async (context) => {
    if (!available) return context.skip('PostgreSQL is not available');
    const { token } = await first!.user({ plans: ['A321'] });
    const calls = on(second!, token);
    for (const call of Object.values(calls)) await call();
    const before = await statements(second!);
    for (let round = 0; round < 10; round++) {
      expect((await calls.graphqlUsage()).errors).toBeUndefined();
      expect((await calls.restUsage()).status).toBe(200);
      expect((await calls.me()).data?.me?.authorizedPlans).toEqual([{ planId: 'A321' }]);
    }
    expect(await statements(second!)).toBe(before);
  });

  it('refuse a token revoked on the other replica within 1 s', async (context) => {
    if (!available) return context.skip('PostgreSQL is not available');
    const { token } = await first!.user();
    expect((await on(second!, token).restUsage()).status).toBe(200);
    const [, payload] = token.split('.');
    const { jti } = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as { jti: string };
    await mutate(`mutation { revokeToken(input: { token: "${jti}" }) { id } }`);
    expect(await refusedOnSecond(token, 'Token has been revoked')).toBe(true);
  });

  it('refuse a user deactivated on the other replica within 1 s', async (context) => {
    if (!available) return context.skip('PostgreSQL is not available');
    const { user, token } = await first!.user();
    expect((await on(second!, token).me()).data?.me?.name).toBe(user.name);
    await mutate(`mutation { updateUser(input: { name: "${user.name}", active: false }) { name } }`);
    expect(await refusedOnSecond(token, 'User is deactivated')).toBe(true);
  });

  it('show a plan unauthorized on the other replica within 1 s', async (context) => {
    if (!available) return context.skip('PostgreSQL is not available');
    const { user, token } = await first!.user({ plans: ['A321', 'B321'] });
    const plansOnSecond = async () =>
      (await on(second!, token).me()).data?.me?.authorizedPlans.map((plan) => plan.planId);
    expect(await plansOnSecond()).toEqual(['A321', 'B321']);
    await mutate(`mutation { deauthorizePlans(input: { user: "${user.name}", planIds: ["B321"] }) { planId } }`);
    expect(await eventually(async () => (await plansOnSecond())?.join() === 'A321', WITHIN_MS)).toBe(true);
  });

  it('refuse requests within 1 s of maintenance turned on through the other replica, and serve again after', async (context) => {
    if (!available) return context.skip('PostgreSQL is not available');
    const { token } = await first!.user();
    const usage = on(second!, token).restUsage;
    expect((await usage()).status).toBe(200);
    const maintenance = (value: boolean) =>
      mutate(`mutation { updateSetting(input: { key: "maintenance_mode", value: "${value}" }) { value } }`);
    await maintenance(true);
    try {
      expect(await eventually(async () => (await usage()).status === 503, WITHIN_MS)).toBe(true);
    } finally {
      await maintenance(false);
    }
    expect(await eventually(async () => (await usage()).status === 200, WITHIN_MS)).toBe(true);
  });

  it('refuse the former owner of a line assigned to another user on the other replica within 1 s', async (context) => {
    if (!available) return context.skip('PostgreSQL is not available');
    const owner = await first!.user();
    const other = await first!.user();
    const line = (await seedLine(first!)).mdn;
    await mutate(`mutation { assignLineOwner(input: { mdn: "${line}", user: "${owner.user.name}" }) { mdn } }`);
    const ownerUsage = on(second!, owner.token, line).graphqlUsage;
    expect((await ownerUsage()).errors).toBeUndefined();
    await mutate(`mutation { assignLineOwner(input: { mdn: "${line}", user: "${other.user.name}" }) { mdn } }`);
    const refused = async () => (await ownerUsage()).errors?.[0]?.extensions?.code === 'FORBIDDEN';
    expect(await eventually(refused, WITHIN_MS)).toBe(true);
  });

  it('miss nothing when the cache listener is killed: a revocation made meanwhile is refused within 1 s', async (context) => {
    if (!available) return context.skip('PostgreSQL is not available');
    const listening = async () => (await second!.app.services.metrics.cacheListening.get()).values[0]!.value === 1;
    for (const step of ['killed at the revocation', 'listening again'] as const) {
      const { token } = await first!.user();
      expect((await on(second!, token).restUsage()).status).toBe(200);
      const [, payload] = token.split('.');
      const { jti } = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as { jti: string };
      if (step === 'killed at the revocation') await killListener(second!);
      await mutate(`mutation { revokeToken(input: { token: "${jti}" }) { id } }`);
      expect(await refusedOnSecond(token, 'Token has been revoked'), step).toBe(true);
      expect(await eventually(listening, 5000), step).toBe(true);
    }
  });
});

/** Ends the second replica's LISTEN connection from the server side, as a database restart would. */
async function killListener(gateway: TestGateway): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    const killed = await client.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
      [gateway.app.cacheListenerName],
    );
    expect(killed.rowCount).toBe(1);
  } finally {
    await client.end();
  }
}
