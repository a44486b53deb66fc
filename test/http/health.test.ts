// Liveness and readiness: /livez answers while the process runs; /readyz (and its alias
// /healthz) answers 200 "ok" when the database, Redis (when configured) and every carrier answer
// with working credentials, 200 "degraded" naming what is down when that is shared by every
// replica (Redis, a carrier down or refusing the credentials), 503 only for what this replica
// alone lacks (its database, a carrier's credentials), and probes each carrier at most once per
// READINESS_CACHE_MS however many probes arrive.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxCarriers, DEFAULT_SANDBOX_CREDENTIALS, type SandboxCarriers } from '../../src/sandbox/start.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { postgresAvailable } from '../support/postgres.js';
import { startRecordingServer } from '../support/recording-server.js';
import { REDIS_URL, redisAvailable } from '../support/redis.js';

interface Readiness {
  status: string;
  checks: { database: string; redis: string; carriers: Record<string, string> };
}

/** A loopback port with nothing listening on it. */
const CLOSED_PORT_URL = 'http://127.0.0.1:9';

async function withGateway(env: Record<string, string>, run: (gateway: TestGateway) => Promise<void>): Promise<void> {
  const gateway = await startGateway({ env });
  try {
    await run(gateway);
  } finally {
    await gateway.close();
  }
}

describe('with every dependency up', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(() => gateway.close());

  it('is live and ready, without a token', async () => {
    const live = await gateway.rest('GET', '/livez');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'ok' });
    const ready = await gateway.rest<Readiness>('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ok',
      checks: { database: 'ok', redis: 'not configured', carriers: { '321': 'ok', carrier_b: 'ok' } },
    });
  });

  it('keeps /healthz as an alias of /readyz', async () => {
    const health = await gateway.rest<Readiness>('GET', '/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toEqual((await gateway.rest('GET', '/readyz')).body);
  });

  it('answers HEAD on every probe path, without a body', async () => {
    for (const path of ['/livez', '/readyz', '/healthz']) {
      const answer = await gateway.fetch(path, { method: 'HEAD' });
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe('');
    }
  });
});

describe('with its database failing', () => {
  it('is unavailable (503) while its database does not answer, and stays live', async () => {
    await withGateway({ READINESS_CACHE_MS: '0' }, async (gateway) => {
      expect((await gateway.rest<Readiness>('GET', '/readyz')).body.status).toBe('ok');
      // The fault: every trivial query fails, as against a database that went away.
      const db = gateway.app.services.db;
      const query = db.$queryRawUnsafe.bind(db);
      db.$queryRawUnsafe = (() => Promise.reject(new Error('database down'))) as typeof db.$queryRawUnsafe;
      try {
        const ready = await gateway.rest<Readiness>('GET', '/readyz');
        expect(ready.status).toBe(503);
        expect(ready.body).toMatchObject({ status: 'unavailable', checks: { database: 'unreachable' } });
        expect((await gateway.rest('GET', '/livez')).status).toBe(200);
      } finally {
        db.$queryRawUnsafe = query;
      }
      expect((await gateway.rest<Readiness>('GET', '/readyz')).status).toBe(200);
    });
  });
});

describe('with a carrier down', () => {
  let sandboxes: SandboxCarriers;
  beforeAll(async () => {
    sandboxes = await startSandboxCarriers({ credentials: DEFAULT_SANDBOX_CREDENTIALS });
  });
  afterAll(() => sandboxes.close());

  it('names a carrier whose credentials are refused, and never the credentials or its URL', async () => {
    await withGateway(
      { CARRIER_321_URL: sandboxes.urls['321'], CARRIER_321_API_KEY: 'not-the-sandbox-key' },
      async (gateway) => {
        const ready = await gateway.rest<Readiness>('GET', '/readyz');
        expect(ready.status).toBe(200);
        expect(ready.body).toEqual({
          status: 'degraded',
          checks: { database: 'ok', redis: 'not configured', carriers: { '321': 'bad credentials', carrier_b: 'ok' } },
        });
        const text = JSON.stringify(ready.body);
        expect(text).not.toContain('not-the-sandbox-key');
        expect(text).not.toContain(sandboxes.urls['321']);
        // Still alive: an orchestrator must not restart it for a carrier's sake.
        expect((await gateway.rest('GET', '/livez')).status).toBe(200);
      },
    );
  });

  it('is ready with the right credentials on the same carrier URL', async () => {
    await withGateway(
      { CARRIER_321_URL: sandboxes.urls['321'], CARRIER_321_API_KEY: DEFAULT_SANDBOX_CREDENTIALS['321'].apiKey },
      async (gateway) => {
        const ready = await gateway.rest<Readiness>('GET', '/readyz');
        expect(ready.status).toBe(200);
        expect(ready.body.checks.carriers).toEqual({ '321': 'ok', carrier_b: 'ok' });
      },
    );
  });

  it('names a carrier_b whose secret is refused', async () => {
    await withGateway(
      {
        CARRIER_B_URL: sandboxes.urls.carrier_b,
        CARRIER_B_ACCOUNT_ID: DEFAULT_SANDBOX_CREDENTIALS.carrier_b.accountId,
        CARRIER_B_API_SECRET: 'wrong-secret',
      },
      async (gateway) => {
        const ready = await gateway.rest<Readiness>('GET', '/readyz');
        expect(ready.status).toBe(200);
        expect(ready.body.status).toBe('degraded');
        expect(ready.body.checks.carriers).toEqual({ '321': 'ok', carrier_b: 'bad credentials' });
        expect(JSON.stringify(ready.body)).not.toContain('wrong-secret');
      },
    );
  });

  it('names an unreachable carrier (nothing listening)', async () => {
    await withGateway(
      { CARRIER_B_URL: CLOSED_PORT_URL, CARRIER_B_ACCOUNT_ID: 'account', CARRIER_B_API_SECRET: 'secret' },
      async (gateway) => {
        const ready = await gateway.rest<Readiness>('GET', '/readyz');
        expect(ready.status).toBe(200);
        expect(ready.body.status).toBe('degraded');
        expect(ready.body.checks.carriers).toEqual({ '321': 'ok', carrier_b: 'unreachable' });
      },
    );
  });

  it('is unavailable with a carrier this replica has no credentials for', async () => {
    await withGateway({ CARRIER_321_URL: CLOSED_PORT_URL }, async (gateway) => {
      const ready = await gateway.rest<Readiness>('GET', '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body.status).toBe('unavailable');
      expect(ready.body.checks.carriers['321']).toBe('missing credentials');
    });
  });
});

describe('on PostgreSQL and a working Redis', () => {
  it('is ready', async (context) => {
    if (!(await postgresAvailable())) return context.skip('PostgreSQL is not available');
    if (!(await redisAvailable())) return context.skip('Redis is not available');
    const gateway = await startGateway({ database: 'postgresql', env: { REDIS_URL } });
    try {
      const ready = await gateway.rest<Readiness>('GET', '/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body.checks).toEqual({ database: 'ok', redis: 'ok', carriers: { '321': 'ok', carrier_b: 'ok' } });
      expect(JSON.stringify(ready.body)).not.toContain(REDIS_URL);
    } finally {
      await gateway.close();
    }
  });
});

describe('with Redis configured', () => {
  it('names Redis when nothing answers at REDIS_URL, and keeps serving (degraded)', async () => {
    await withGateway({ REDIS_URL: 'redis://127.0.0.1:9', READINESS_TIMEOUT_MS: '500' }, async (gateway) => {
      const ready = await gateway.rest<Readiness>('GET', '/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body.status).toBe('degraded');
      expect(ready.body.checks).toMatchObject({
        database: 'ok',
        redis: 'unreachable',
        carriers: { '321': 'ok', carrier_b: 'ok' },
      });
      expect((await gateway.rest('GET', '/livez')).status).toBe(200);
    });
  });
});

describe('the readiness cache', () => {
  it('probes a carrier once per period however many checks arrive, and again after it', async () => {
    const carrier = await startRecordingServer(() => ({ status: 200, body: { zip_code: '10001' } }));
    try {
      await withGateway(
        { CARRIER_321_URL: carrier.url, CARRIER_321_API_KEY: 'key', READINESS_CACHE_MS: '60000' },
        async (gateway) => {
          const answers = await Promise.all(
            Array.from({ length: 20 }, () => gateway.rest<Readiness>('GET', '/readyz')),
          );
          await gateway.rest('GET', '/healthz');
          expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
          expect(carrier.requests).toHaveLength(1);
          expect(carrier.requests[0]).toMatchObject({ method: 'GET', url: '/v1/coverage/10001' });
          expect(carrier.requests[0]!.headers['x-api-key']).toBe('key');
        },
      );
      const uncached = carrier.requests.length;
      await withGateway(
        { CARRIER_321_URL: carrier.url, CARRIER_321_API_KEY: 'key', READINESS_CACHE_MS: '0' },
        async (gateway) => {
          await gateway.rest('GET', '/readyz');
          await gateway.rest('GET', '/readyz');
        },
      );
      expect(carrier.requests.length - uncached).toBe(2);
    } finally {
      await carrier.close();
    }
  });

  it('answers within READINESS_TIMEOUT_MS when a carrier never answers, with one probe for all waiting checks', async () => {
    let received = 0;
    const silent = createServer(() => void (received += 1));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      await withGateway(
        { CARRIER_321_URL: url, CARRIER_321_API_KEY: 'key', READINESS_TIMEOUT_MS: '300', CARRIER_TIMEOUT_MS: '1000' },
        async (gateway) => {
          const answers = await Promise.all(
            Array.from({ length: 10 }, () => gateway.rest<Readiness>('GET', '/readyz')),
          );
          for (const answer of answers) {
            expect(answer.status).toBe(200);
            expect(answer.body.status).toBe('degraded');
            expect(answer.body.checks.carriers).toEqual({ '321': 'unreachable', carrier_b: 'ok' });
          }
          expect(received).toBe(1);
        },
      );
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
