// The readiness probe of each carrier adapter: the exact wire request (one authenticated,
// side-effect-free read, never retried) and how each kind of answer is classified.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCarrier321Adapter } from '../../src/carriers/carrier-321/adapter.js';
import { createCarrierBAdapter } from '../../src/carriers/carrier-b/adapter.js';
import type { CarrierReadiness } from '../../src/carriers/probe.js';
import { startRecordingServer, type CannedReply, type RecordingServer } from '../support/recording-server.js';

let carrier: RecordingServer;
beforeAll(async () => {
  carrier = await startRecordingServer();
});
afterAll(() => carrier.close());
beforeEach(() => void carrier.requests.splice(0));

const adapters = () => ({
  '321': createCarrier321Adapter({ baseUrl: carrier.url, apiKey: 'key-321', timeoutMs: 2000, retries: 2 }),
  carrier_b: createCarrierBAdapter({
    baseUrl: carrier.url,
    accountId: 'account',
    apiSecret: 'secret',
    timeoutMs: 2000,
    retries: 2,
  }),
});

describe('the wire request', () => {
  it('is one authenticated coverage lookup on carrier 321', async () => {
    const { '321': adapter } = adapters();
    carrier.respondWith(() => ({ status: 200, body: { postal_code: '10001', covered: true, areas: [] } }));
    expect(await adapter.probe()).toBe('ok');
    expect(carrier.requests).toHaveLength(1);
    expect(carrier.requests[0]).toMatchObject({ method: 'GET', url: '/v1/coverage/10001', body: undefined });
    expect(carrier.requests[0]!.headers['x-api-key']).toBe('key-321');
    await adapter.close();
  });

  it('is one authenticated coverage call on carrier_b', async () => {
    const { carrier_b: adapter } = adapters();
    carrier.respondWith((body) => ({
      status: 200,
      body: { requestId: body.requestId, result: { postCode: '10001', covered: true, areas: [] } },
    }));
    expect(await adapter.probe()).toBe('ok');
    expect(carrier.requests).toHaveLength(1);
    expect(carrier.requests[0]).toMatchObject({
      method: 'POST',
      url: '/rpc/v3',
      body: { method: 'Network.CheckCoverage', params: { postCode: '10001' } },
    });
    expect(carrier.requests[0]!.headers.authorization).toBe(
      `Basic ${Buffer.from('account:secret').toString('base64')}`,
    );
    await adapter.close();
  });
});

describe('classification', () => {
  /** What each carrier answers, by adapter: its reply to the probe's request. */
  type Replies = Record<'321' | 'carrier_b', (body: { requestId?: string }) => CannedReply>;
  const both = (reply: CannedReply): Replies => ({ '321': () => reply, carrier_b: () => reply });
  const cases: [string, Replies, CarrierReadiness][] = [
    [
      'a refusal in the carrier’s own format still proves the carrier is up',
      {
        '321': () => ({ status: 422, body: { error: { code: '1001', description: 'no' } } }),
        carrier_b: (body) => ({
          status: 200,
          body: { requestId: body.requestId, fault: { faultCode: 1001, faultString: 'no' } },
        }),
      },
      'ok',
    ],
    [
      '401 is bad credentials',
      both({ status: 401, body: { auth_error: { reason: 'invalid_api_key' } } }),
      'bad credentials',
    ],
    ['a 5xx is unreachable', both({ status: 503, body: {} }), 'unreachable'],
    ['garbage with a 5xx is unreachable', both({ status: 502, body: '<html>bad gateway</html>' }), 'unreachable'],
    // A wrong URL, or something else listening there: every real call would fail.
    ['an empty 404 is unreachable', both({ status: 404, body: '' }), 'unreachable'],
    [
      'a 4xx not in the carrier’s error format is unreachable',
      both({ status: 400, body: { weird: true } }),
      'unreachable',
    ],
    [
      'a 200 not in the carrier’s wire format is unreachable',
      both({ status: 200, body: { hello: 'world' } }),
      'unreachable',
    ],
  ];
  it.each(cases)('%s, sent once without retries, on both adapters', async (_name, replies, expected) => {
    for (const [carrierId, adapter] of Object.entries(adapters()) as [
      '321' | 'carrier_b',
      { probe(): Promise<CarrierReadiness>; close(): Promise<void> },
    ][]) {
      carrier.requests.splice(0);
      carrier.respondWith((body) => replies[carrierId](body as { requestId?: string }));
      expect(await adapter.probe(), carrierId).toBe(expected);
      expect(carrier.requests).toHaveLength(1);
      await adapter.close();
    }
  });

  it('says unreachable when nothing listens', async () => {
    const closed = {
      '321': createCarrier321Adapter({ baseUrl: 'http://127.0.0.1:9', apiKey: 'key', timeoutMs: 2000, retries: 2 }),
      carrier_b: createCarrierBAdapter({
        baseUrl: 'http://127.0.0.1:9',
        accountId: 'a',
        apiSecret: 's',
        timeoutMs: 2000,
        retries: 2,
      }),
    };
    for (const adapter of Object.values(closed)) {
      expect(await adapter.probe()).toBe('unreachable');
      await adapter.close();
    }
  });
});
