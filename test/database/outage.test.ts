// A database that stops answering (PostgreSQL refusing connections, as in a restart or a
// failover) is a 503 with Retry-After on both surfaces, logged without a stack per request,
// and the gateway serves again as soon as the database does.

import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/logger.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
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
    env: { DATABASE_URL: url.href, LOG_LEVEL: 'info' },
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
