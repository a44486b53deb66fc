// The bench's carrier-client measurement: its three ways send the same request (path,
// credentials) and every one is answered; a carrier that refuses stops it rather than being
// counted as a cheap call. Its speed is the bench's business.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureCarrierClientCost } from '../../bench/support/carrier-client-cost.js';
import { startRecordingServer, type RecordingServer } from '../support/recording-server.js';

describe('measureCarrierClientCost', () => {
  let carrier: RecordingServer;
  beforeAll(async () => {
    carrier = await startRecordingServer(() => ({ status: 200, body: { balance: 1 } }));
  });
  afterAll(() => carrier.close());

  const target = () => ({
    baseUrl: `${carrier.url}/api`,
    headers: { 'X-Api-Key': 'key-for-the-test', accept: 'application/json' },
    path: 'v1/subscribers/3215550001/balances',
    timeoutMs: 5000,
    retries: 2,
  });

  it('sends the same request three ways, warm-up and rounds, and reports CPU per call for each', async () => {
    carrier.requests.length = 0;
    const cost = await measureCarrierClientCost(target(), { calls: 40, inFlight: 4, rounds: 3 });

    // A warm-up round, then three: 4 rounds × 3 ways × 40 requests, all the same GET.
    expect(carrier.requests).toHaveLength(480);
    const shapes = new Set(
      carrier.requests.map((r) => `${r.method} ${r.url} ${String(r.headers['x-api-key'])} ${String(r.headers.accept)}`),
    );
    expect([...shapes]).toEqual(['GET /api/v1/subscribers/3215550001/balances key-for-the-test application/json']);
    expect(cost.rounds).toHaveLength(3);
    // CPU time is counted in the kernel's ticks: 40 calls may read as none at all.
    for (const round of cost.rounds)
      for (const way of ['client', 'ky', 'dispatch'] as const) {
        expect(Number.isFinite(round[way])).toBe(true);
        expect(round[way]).toBeGreaterThanOrEqual(0);
      }
    const middle = (way: 'client' | 'ky' | 'dispatch') => cost.rounds.map((r) => r[way]).sort((a, b) => a - b)[1];
    expect([cost.client, cost.ky, cost.dispatch]).toEqual([middle('client'), middle('ky'), middle('dispatch')]);
    expect(cost).toMatchObject({ calls: 40, inFlight: 4 });
  });

  it('stops at an answer that is not a 2xx', async () => {
    carrier.respondWith(() => ({ status: 503, body: { error: 'down' } }));
    try {
      await expect(measureCarrierClientCost(target(), { calls: 5, inFlight: 1, rounds: 1 })).rejects.toThrow(
        /carrier call answered 503/,
      );
    } finally {
      carrier.respondWith(() => ({ status: 200, body: { balance: 1 } }));
    }
  });
});
