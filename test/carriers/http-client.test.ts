// The shared carrier HTTP client keeps ky's retry behaviour although answers reach ky as
// bodyless Responses: a Retry-After on a 503 is honoured, an answer's body survives retries,
// a timed-out read is retried, and a write that one attempt may have delivered stays an
// unknown outcome when a later attempt finds the carrier gone.

import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createCarrierHttpClient,
  type CarrierHttpClient,
  type CarrierHttpOptions,
} from '../../src/carriers/http-client.js';
import { CarrierFault } from '../../src/carriers/errors.js';
import { MAX_ANSWER_BYTES } from '../../src/carriers/text-request.js';

interface Arrival {
  at: number;
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

type Answer = (attempt: number, response: ServerResponse, server: Server) => void;

const opened: { server: Server; client: CarrierHttpClient }[] = [];

async function carrier(answer: Answer, retries = 2, timeoutMs = 2000, extra: Partial<CarrierHttpOptions> = {}) {
  const arrivals: Arrival[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      arrivals.push({
        at: performance.now(),
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      answer(arrivals.length, response, server);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const client = createCarrierHttpClient({
    carrier: '321',
    baseUrl: `http://127.0.0.1:${port}/api`,
    headers: { 'X-Api-Key': 'secret-key' },
    timeoutMs,
    retries,
    ...extra,
  });
  opened.push({ server, client });
  return { client, arrivals };
}

function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(payload);
}

async function faultOf(promise: Promise<unknown>): Promise<CarrierFault> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CarrierFault);
  return error as CarrierFault;
}

afterEach(async () => {
  for (const { server, client } of opened.splice(0)) {
    await client.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

describe('the carrier HTTP client', () => {
  it('sends the path under the base URL, the query, the credentials, per-call headers and the JSON body', async () => {
    const { client, arrivals } = await carrier((_attempt, response) => json(response, 200, { ok: true }));
    const answer = await client.send({
      method: 'POST',
      path: 'v1/lines/3215550001',
      searchParams: { scope: 'all', skipped: undefined, odd: 'a b&c' },
      json: { reason: 'test' },
      headers: { 'Idempotency-Key': 'TX-1' },
    });
    expect(answer).toEqual({ status: 200, body: { ok: true } });
    expect(arrivals).toHaveLength(1);
    const [arrival] = arrivals;
    expect(arrival!.method).toBe('POST');
    expect(arrival!.url).toBe('/api/v1/lines/3215550001?scope=all&odd=a+b%26c');
    expect(arrival!.headers['x-api-key']).toBe('secret-key');
    expect(arrival!.headers['idempotency-key']).toBe('TX-1');
    expect(arrival!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(arrival!.body)).toEqual({ reason: 'test' });
  });

  it('reads the body of a 4xx answer without retrying it', async () => {
    const { client, arrivals } = await carrier((_attempt, response) =>
      json(response, 404, { error: { code: 'NOT_FOUND' } }),
    );
    expect(await client.send({ method: 'GET', path: 'v1/x' })).toEqual({
      status: 404,
      body: { error: { code: 'NOT_FOUND' } },
    });
    expect(arrivals).toHaveLength(1);
  });

  it('retries a 503 after the Retry-After the carrier asked for, and reads the answer that follows', async () => {
    const { client, arrivals } = await carrier((attempt, response) =>
      attempt === 1 ? json(response, 503, { error: 'busy' }, { 'retry-after': '1' }) : json(response, 200, { attempt }),
    );
    expect(await client.send({ method: 'GET', path: 'v1/x' })).toEqual({ status: 200, body: { attempt: 2 } });
    expect(arrivals).toHaveLength(2);
    // Without the header ky would wait its 200 ms backoff; the carrier asked for a second.
    expect(arrivals[1]!.at - arrivals[0]!.at).toBeGreaterThanOrEqual(900);
  });

  it('answers the last 5xx, body included, once the retries are spent', async () => {
    const { client, arrivals } = await carrier((attempt, response) => json(response, 502, { attempt }), 1);
    expect(await client.send({ method: 'GET', path: 'v1/x' })).toEqual({ status: 502, body: { attempt: 2 } });
    expect(arrivals).toHaveLength(2);
  });

  it('retries a read that timed out', async () => {
    const { client, arrivals } = await carrier(
      (attempt, response) => {
        if (attempt > 1) json(response, 200, { attempt });
      },
      1,
      300,
    );
    expect(await client.send({ method: 'GET', path: 'v1/x' })).toEqual({ status: 200, body: { attempt: 2 } });
    expect(arrivals).toHaveLength(2);
  });

  it('does not retry a write the carrier cannot de-duplicate', async () => {
    const { client, arrivals } = await carrier((_attempt, response) => json(response, 503, {}));
    expect((await client.send({ method: 'POST', path: 'v1/x', json: {}, idempotent: false })).status).toBe(503);
    expect(arrivals).toHaveLength(1);
  });

  it(`cuts off an answer larger than ${MAX_ANSWER_BYTES} bytes: a bad response, and a write that sent it stays unknown`, async () => {
    const endless = (_attempt: number, response: ServerResponse) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      // Streams until the client goes away (never more than the cap and one chunk).
      const more = () => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once('drain', more);
      };
      more();
    };
    const read = await carrier(endless, 0);
    const readFault = await faultOf(read.client.send({ method: 'GET', path: 'v1/x' }));
    expect({ kind: readFault.kind, outcomeKnown: readFault.outcomeKnown }).toEqual({
      kind: 'bad_response',
      outcomeKnown: true,
    });
    const write = await carrier(endless, 0);
    const writeFault = await faultOf(write.client.send({ method: 'POST', path: 'v1/x', json: {}, idempotent: false }));
    expect({ kind: writeFault.kind, outcomeKnown: writeFault.outcomeKnown }).toEqual({
      kind: 'bad_response',
      outcomeKnown: false,
    });
  });

  it('keeps a write unknown when an attempt reached the carrier and the retry found it gone', async () => {
    const { client } = await carrier((_attempt, response, server) => {
      json(response, 503, {});
      // The carrier goes away: the retry's connection is refused.
      server.close();
      server.closeAllConnections();
    }, 1);
    const fault = await faultOf(client.send({ method: 'POST', path: 'v1/x', json: {}, idempotent: true }));
    expect({ kind: fault.kind, outcomeKnown: fault.outcomeKnown }).toEqual({
      kind: 'unreachable',
      outcomeKnown: false,
    });
  });

  describe('with a circuit breaker', () => {
    const breaker = (failures: number): Partial<CarrierHttpOptions> => ({
      breaker: { failures, cooldownMs: 60_000 },
      breakerTrial: () => ({ method: 'GET', path: 'v1/probe', idempotent: false, probe: true }),
    });

    it('counts any 5xx, a JSON body or not (an API gateway’s 500), and then sends nothing', async () => {
      const { client, arrivals } = await carrier(
        (_attempt, response) => json(response, 500, { message: 'Internal server error' }),
        0,
        2000,
        breaker(3),
      );
      for (let call = 0; call < 3; call++)
        expect((await client.send({ method: 'GET', path: 'v1/x' })).status).toBe(500);
      const refused = await faultOf(client.send({ method: 'GET', path: 'v1/x' }));
      expect(refused.kind).toBe('circuit_open');
      expect(refused.outcomeKnown).toBe(true);
      expect(refused.paused).toEqual({ carrier: '321', retryAfterSeconds: 60 });
      expect(arrivals).toHaveLength(3);
    });

    it('lets a readiness probe through while open, and does not count it', async () => {
      const { client, arrivals } = await carrier((_attempt, response) => json(response, 503, {}), 0, 2000, breaker(1));
      await client.send({ method: 'GET', path: 'v1/x' });
      expect((await faultOf(client.send({ method: 'GET', path: 'v1/x' }))).kind).toBe('circuit_open');
      const probe = await client.send({ method: 'GET', path: 'v1/probe', idempotent: false, probe: true });
      expect(probe.status).toBe(503);
      expect(arrivals.map((arrival) => arrival.url)).toEqual(['/api/v1/x', '/api/v1/probe']);
    });
  });
});
