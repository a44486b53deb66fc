// The bench's fixed-rate generator: every scheduled request is sent and answered, failures are
// sorted into their kinds, and the percentiles are nearest-rank. Its speed is the bench's business.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pacedLoad, wireRequests } from '../../bench/support/paced-process.js';
import { dueAt, percentile, runPaced, type PacedRequest } from '../../bench/support/paced.js';
import type { Scenario } from '../../bench/support/load.js';
import { startRecordingServer, type RecordingServer } from '../support/recording-server.js';

describe('percentile', () => {
  it('is nearest-rank over ascending values', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect([percentile(values, 50), percentile(values, 90), percentile(values, 99), percentile(values, 100)]).toEqual([
      50, 90, 99, 100,
    ]);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([1, 2, 3], 0)).toBe(1);
    expect(percentile([], 99)).toBe(0);
  });

  it('schedules request i at i × 1000/rate ms', () => {
    expect([dueAt(0, 300), dueAt(3, 300), dueAt(300, 300)]).toEqual([0, 10, 1000]);
  });
});

describe('runPaced', () => {
  let server: RecordingServer;
  beforeAll(async () => {
    server = await startRecordingServer((body) => {
      const kind = (body as { kind?: string }).kind;
      if (kind === 'fail') return { status: 500, body: { detail: 'no' } };
      if (kind === 'graphql-error') return { status: 200, body: { data: null, errors: [{ message: 'no' }] } };
      return { status: 200, body: { data: { hello: 'world' } } };
    });
  });
  afterAll(() => server.close());

  it('sends every request once, leaves the warm-up out of the figures and sorts failures', async () => {
    server.requests.length = 0;
    const kinds = (i: number) => (i % 10 === 3 ? 'fail' : i % 10 === 7 ? 'graphql-error' : 'ok');
    const requests: PacedRequest[] = Array.from({ length: 60 }, (_, i) => ({
      method: 'POST',
      path: `/graphql?i=${i}`,
      headers: { 'content-type': 'application/json', authorization: `Bearer t${i}` },
      body: JSON.stringify({ kind: kinds(i) }),
    }));
    const result = await runPaced({
      origin: server.url,
      requests,
      rate: 400,
      warmup: 10,
      connections: 8,
      graphqlErrorsFail: true,
      cpuPid: process.pid,
    });

    expect(server.requests.map((r) => r.url).sort()).toEqual(requests.map((r) => r.path).sort());
    expect(server.requests.find((r) => r.url === '/graphql?i=5')?.headers.authorization).toBe('Bearer t5');
    expect({
      sent: result.sent,
      answered: result.answered,
      non2xx: result.non2xx,
      graphqlErrors: result.graphqlErrors,
      errors: result.errors,
    }).toEqual({ sent: 50, answered: 50, non2xx: 5, graphqlErrors: 5, errors: 0 });
    expect(result.cpuMsPerRequest).toEqual(expect.any(Number));
    expect(result.seconds.reduce((sum, second) => sum + second.answered, 0)).toBe(50);
    expect(result.p50).toBeLessThanOrEqual(result.p99);
    expect(result.p99).toBeLessThanOrEqual(result.max);
  });

  it('counts an unreachable server as errors, not answers', async () => {
    const closed = await startRecordingServer();
    await closed.close();
    const result = await runPaced({
      origin: closed.url,
      requests: [{ method: 'GET', path: '/', headers: {} }],
      rate: 100,
    });
    expect({ sent: result.sent, answered: result.answered, errors: result.errors }).toEqual({
      sent: 1,
      answered: 0,
      errors: 1,
    });
  });

  it('runs as its own process on requests built from a bench scenario', async () => {
    server.requests.length = 0;
    const scenario: Scenario = {
      url: server.url,
      next: (n) => ({ method: 'POST', path: '/graphql', token: `t${n}`, body: JSON.stringify({ kind: 'ok', n }) }),
    };
    expect(wireRequests(scenario, 1)).toEqual([
      {
        method: 'POST',
        path: '/graphql',
        headers: { authorization: 'Bearer t0', 'content-type': 'application/json' },
        body: '{"kind":"ok","n":0}',
      },
    ]);
    const result = await pacedLoad(scenario, { rate: 200, durationS: 0.2, warmupS: 0.05, graphqlErrorsFail: true });
    expect(server.requests).toHaveLength(50);
    expect({ sent: result.sent, answered: result.answered, failures: result.non2xx + result.graphqlErrors }).toEqual({
      sent: 40,
      answered: 40,
      failures: 0,
    });
  });
});
