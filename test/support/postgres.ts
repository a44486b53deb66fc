// Fresh PostgreSQL schemas for tests that run the data layer on PostgreSQL. Where no server
// answers, `postgresAvailable()` is false and those tests are skipped with a printed reason.

import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

let availability: Promise<boolean> | undefined;

export function postgresAvailable(): Promise<boolean> {
  availability ??= (async () => {
    const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch {
      process.stdout.write(
        `PostgreSQL tests skipped: no PostgreSQL answers at ${POSTGRES_URL.replace(/\/\/[^@]*@/, '//')}\n`,
      );
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return availability;
}

export interface PostgresSchema {
  /** Connection string naming the fresh schema as deployments do (`?schema=`, docs/deploy.md). */
  url: string;
  /** The schema's name. */
  name: string;
  drop(): Promise<void>;
}

export async function createPostgresSchema(): Promise<PostgresSchema> {
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  await admin.end();
  const separator = POSTGRES_URL.includes('?') ? '&' : '?';
  return {
    url: `${POSTGRES_URL}${separator}schema=${schema}`,
    name: schema,
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    },
  };
}
