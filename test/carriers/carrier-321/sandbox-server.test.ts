// The carrier 321 sandbox server on its own, spoken to with plain fetch: authentication,
// the wire error bodies for malformed requests, unknown routes and unexpected errors, and
// the sandbox controls it inherits from http-kit.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CarrierRejection } from '../../../src/carriers/errors.js';
import type { CarrierOperations } from '../../../src/carriers/types.js';
import { createCarrier321SandboxServer } from '../../../src/sandbox/carrier-321/server.js';
import { SandboxCarrier } from '../../../src/sandbox/core/index.js';
import type { SandboxControls, SandboxServer } from '../../../src/sandbox/http-kit.js';

const KEY = 'sandbox-server-key';

interface Answer {
  status: number;
  body: unknown;
}

async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: { key?: string | null; idempotencyKey?: string; body?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.key !== null) headers['x-api-key'] = options.key ?? KEY;
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body: options.body });
  return { status: response.status, body: (await response.json()) as unknown };
}

describe('carrier 321 sandbox server', () => {
  let server: SandboxServer;
  let baseUrl: string;

  beforeAll(async () => {
    server = createCarrier321SandboxServer({
      core: new SandboxCarrier({ carrier: '321' }),
      credentials: { apiKey: KEY },
    });
    baseUrl = await server.listen();
  });
  afterAll(() => server.close());

  it('answers 401 with its own body, without echoing the key, for a missing or wrong key', async () => {
    for (const key of [null, 'not-the-key', `${KEY}x`, '']) {
      const answer = await call(baseUrl, 'GET', '/v1/coverage/62701', { key });
      expect(answer).toEqual({
        status: 401,
        body: { auth_error: { reason: 'invalid_api_key', description: 'A valid X-Api-Key header is required' } },
      });
      expect(JSON.stringify(answer.body)).not.toContain(KEY);
    }
  });

  it('answers reads with the right key', async () => {
    const answer = await call(baseUrl, 'GET', '/v1/coverage/62701');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ postal_code: '62701', covered: true });
  });

  it('renders a rejection as a 4xx error body with the code as a string', async () => {
    expect(await call(baseUrl, 'GET', '/v1/subscribers/3215559999/balances')).toEqual({
      status: 404,
      body: { error: { code: '918', description: 'Subscriber with given resource does not exist' } },
    });
    expect((await call(baseUrl, 'GET', '/v1/coverage/00000')).body).toEqual({
      error: { code: '510', description: 'Invalid zip code' },
    });
  });

  it('requires the Idempotency-Key on writes', async () => {
    const answer = await call(baseUrl, 'POST', '/v1/subscribers/3215550001/hotline', { body: '{}' });
    expect(answer).toEqual({
      status: 400,
      body: { error: { code: 'API-400', description: 'Idempotency-Key header is required on writes' } },
    });
  });

  it('answers 400 in the wire format for malformed bodies', async () => {
    const notJson = await call(baseUrl, 'POST', '/v1/activations', { idempotencyKey: 'K1', body: '{"iccid": ' });
    expect(notJson.status).toBe(400);
    expect(notJson.body).toMatchObject({ error: { code: 'API-400' } });

    const wrongShape = await call(baseUrl, 'PUT', '/v1/subscribers/3215550001/voicemail/language', {
      idempotencyKey: 'K2',
      body: '{"language":"ENGL"}',
    });
    expect(wrongShape.status).toBe(400);
    expect(wrongShape.body).toMatchObject({
      error: { code: 'API-400', description: expect.stringContaining('body.language') },
    });

    const badScope = await call(baseUrl, 'DELETE', '/v1/subscribers/3215550001/hotline?scope=VOICE', {
      idempotencyKey: 'K3',
    });
    expect(badScope.status).toBe(400);
  });

  it('answers 404 API-404 for an unknown route', async () => {
    const answer = await call(baseUrl, 'GET', '/v2/subscribers/3215550001');
    expect(answer).toEqual({
      status: 404,
      body: { error: { code: 'API-404', description: 'No route for GET /v2/subscribers/3215550001' } },
    });
  });

  it('keeps the sandbox controls outside authentication', async () => {
    const clock = await call(baseUrl, 'GET', '/_sandbox/clock', { key: null });
    expect(clock.status).toBe(200);
    expect(clock.body).toHaveProperty('now');
  });
});

describe('carrier 321 sandbox server over a failing or basic core', () => {
  const controls: SandboxControls = {
    advanceClock: () => undefined,
    now: () => new Date(0),
    reset: () => undefined,
    activationCalls: () => ({ requests: 0, transactionIds: [] }),
  };

  it('answers an unexpected error with a generic 500 and reports it', async () => {
    const reported: unknown[] = [];
    const core = {
      ...controls,
      carrier: '321',
      getCoverage: () => Promise.reject(new Error('database exploded at /secret/path')),
    } as unknown as CarrierOperations & SandboxControls;
    const server = createCarrier321SandboxServer({
      core,
      credentials: { apiKey: KEY },
      onUnexpectedError: (error) => reported.push(error),
    });
    const baseUrl = await server.listen();
    try {
      expect(await call(baseUrl, 'GET', '/v1/coverage/62701')).toEqual({
        status: 500,
        body: { error: { code: 'API-500', description: 'Internal server error' } },
      });
      expect(reported).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('maps rejection codes to 404 / 409 / 422', async () => {
    const core = {
      ...controls,
      carrier: '321',
      getCoverage: (zip: string) => Promise.reject(new CarrierRejection(zip, `refused ${zip}`)),
    } as unknown as CarrierOperations & SandboxControls;
    const server = createCarrier321SandboxServer({ core, credentials: { apiKey: KEY } });
    const baseUrl = await server.listen();
    try {
      const statuses = await Promise.all(
        ['918', '914', 'GENS-0033'].map(async (code) => (await call(baseUrl, 'GET', `/v1/coverage/${code}`)).status),
      );
      expect(statuses).toEqual([404, 409, 422]);
    } finally {
      await server.close();
    }
  });

  it('answers 404 on the extended paths when the core has no extended operations', async () => {
    const server = createCarrier321SandboxServer({
      core: new SandboxCarrier({ carrier: '321', extended: false }),
      credentials: { apiKey: KEY },
    });
    const baseUrl = await server.listen();
    try {
      expect(await call(baseUrl, 'GET', '/v1/catalog/socs')).toEqual({
        status: 404,
        body: { error: { code: 'API-404', description: 'This carrier does not offer the extended operations' } },
      });
    } finally {
      await server.close();
    }
  });

  it('refuses to start without an API key', () => {
    expect(() =>
      createCarrier321SandboxServer({ core: new SandboxCarrier({ carrier: '321' }), credentials: { apiKey: '' } }),
    ).toThrow(/apiKey is required/);
  });
});
