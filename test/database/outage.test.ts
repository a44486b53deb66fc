// A database that stops answering (PostgreSQL refusing connections, as in a restart or a
// failover) is a 503 with Retry-After on both surfaces, logged without a stack per request,
// and the gateway serves again as soon as the database does.

import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/logger.js';
import { activationBody } from '../e2e/activation/activations.js';
import { setFaults } from '../recovery/support.js';
import { eventually } from '../support/eventually.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { createPlans } from '../support/plans.js';
import { camelInput } from '../support/surfaces.js';
import { POSTGRES_URL, postgresAvailable } from '../support/postgres.js';

const DATABASE = `outage_${process.pid}`;
let gateway: TestGateway | undefined;
const logLines: string[] = [];

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Refuses new connections to the database and ends those open (as a restart would), or lets them in again. */
const setReachable = (reachable: boolean) =>
  admin(async (client) => {
    await client.query(`ALTER DATABASE "${DATABASE}" ALLOW_CONNECTIONS ${reachable}`);
    if (!reachable)
      await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [DATABASE]);
  });

beforeAll(async () => {
  if (!(await postgresAvailable())) return;
  await admin((client) => client.query(`CREATE DATABASE "${DATABASE}"`));
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${DATABASE}`;
  gateway = await startGateway({
    // A short lease and carrier timeout: a bulk job the outage interrupted is taken up again, and
    // a SIM whose record the outage cut is resolved, within seconds.
    env: {
      DATABASE_URL: url.href,
      LOG_LEVEL: 'info',
      BULK_JOB_LEASE_MS: '600',
      BULK_JOB_CONCURRENCY: '2',
      CARRIER_TIMEOUT_MS: '1000',
      CARRIER_RETRIES: '0',
    },
    logger: createLogger('info', (line) => logLines.push(line)),
  });
});
afterAll(async () => {
  await gateway?.close();
  if (!(await postgresAvailable())) return;
  await setReachable(true).catch(() => undefined);
  await admin((client) => client.query(`DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`));
});

it('answers 503 with Retry-After while the database refuses connections, then serves again', async (context) => {
  if (!gateway) return context.skip('PostgreSQL is not available');
  // Tokens never used yet: authenticating them reads the database.
  const [{ token: restToken }, { token: graphqlToken }] = [await gateway.user(), await gateway.user()];
  await setReachable(false);
  try {
    const rest = await gateway.rest('GET', '/sim/usage/3215550001', { token: restToken });
    expect(rest.status).toBe(503);
    expect(rest.headers.get('retry-after')).toBe('5');
    expect(rest.body).toMatchObject({ code: 'HTTP_503', message: expect.stringMatching(/database is not answering/) });
    const graphql = await gateway.graphql('{ me { name } }', { token: graphqlToken });
    expect(graphql.status).toBe(503);
    expect(graphql.errors?.[0]?.extensions).toMatchObject({ code: 'DATABASE_UNAVAILABLE', retryAfter: 5 });
  } finally {
    await setReachable(true);
  }
  expect(logLines.filter((line) => line.includes('"level":"error"'))).toEqual([]);
  expect((await gateway.rest('GET', '/sim/usage/3215550001', { token: restToken })).status).not.toBe(503);
});

it('pauses a bulk job while the database refuses connections, and finishes it once it answers: no SIM failed, no error logged', async (context) => {
  if (!gateway) return context.skip('PostgreSQL is not available');
  await createPlans(gateway);
  const { token } = await gateway.user({ plans: ['A321'] });
  const items = Array.from({ length: 12 }, () => activationBody({ plan_id: 'A321' }));
  await setFaults(gateway, '321', { latency_ms: 100 });
  logLines.length = 0;
  try {
    const started = await gateway.graphql<{ startBulkActivation: { id: string } }>(
      'mutation ($input: StartBulkActivationInput!) { startBulkActivation(input: $input) { id } }',
      { token, variables: { input: { activations: items.map(camelInput) } } },
    );
    expect(started.errors).toBeUndefined();
    const id = started.data!.startBulkActivation.id;
    const sims = items.map((item) => String(item.sim));
    const activated = () => sims.filter((sim) => gateway!.sandboxes.cores['321'].activationCalls(sim).requests > 0);
    expect(await eventually(async () => activated().length >= 2, 10_000)).toBe(true);
    await setReachable(false);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await setReachable(true);

    const view = async () =>
      (
        await gateway!.graphql<{ bulkActivation: { status: string; results: { sim: string; status: string }[] } }>(
          'query ($id: String!) { bulkActivation(id: $id, first: 100) { status results { sim status } } }',
          { token, variables: { id } },
        )
      ).data?.bulkActivation;
    expect(await eventually(async () => (await view())?.status === 'COMPLETED', 60_000, 200)).toBe(true);
    const results = (await view())!.results;
    expect(results.map((entry) => entry.sim)).toEqual(sims);
    expect(results.map((entry) => entry.status)).toEqual(sims.map(() => 'SUCCESS'));
    // Each SIM was activated under one id (a resumed or recovered one re-sent under it at most).
    for (const sim of sims) expect(gateway.sandboxes.cores['321'].activationCalls(sim).transactionIds).toHaveLength(1);
  } finally {
    await setReachable(true);
    await setFaults(gateway, '321', {});
  }
  expect(logLines.filter((line) => line.includes('"level":"error"'))).toEqual([]);
  expect(logLines.some((line) => line.includes('bulk activation job paused: the database is not answering'))).toBe(
    true,
  );
}, 90_000);
