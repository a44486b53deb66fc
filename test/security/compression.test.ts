// Issue 9 item 5, regression: responses over ~1 KB are compressed (brotli or gzip, as the client
// accepts) on both surfaces, with `vary: accept-encoding`; small answers, clients that accept
// nothing and event streams are left alone; GraphiQL's page is compressed and cacheable (ETag,
// 304 on If-None-Match).

import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  bytes: Buffer;
}

/** A request whose body comes back as sent on the wire (fetch would decompress it). */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, headers: response.headers, bytes: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(options.body);
  });
}

function decoded(answer: RawAnswer): string {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(answer.bytes).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(answer.bytes).toString('utf8');
  return answer.bytes.toString('utf8');
}

let gateway: TestGateway;
let token: string;
const INTROSPECTION = JSON.stringify({ query: '{ __schema { types { name description } } }' });

beforeAll(async () => {
  gateway = await startTestGateway();
  ({ token } = await gateway.user());
});
afterAll(() => gateway?.close());

const graphql = (headers: Record<string, string>) =>
  raw(`${gateway.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
    body: INTROSPECTION,
  });

describe('dynamic responses', () => {
  it('compresses a large GraphQL answer with brotli or gzip, as accepted, to the same JSON', async () => {
    const plain = await graphql({});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.bytes.length).toBeGreaterThan(1024);
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
    ] as const) {
      const answer = await graphql({ 'accept-encoding': accept });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe(encoding);
      expect(answer.headers.vary).toMatch(/accept-encoding/i);
      expect(answer.bytes.length).toBeLessThan(plain.bytes.length / 3);
      expect(JSON.parse(decoded(answer))).toEqual(JSON.parse(plain.bytes.toString('utf8')));
    }
  });

  it('compresses a large REST answer (a 422 listing every issue) and keeps its status and body', async () => {
    const body = JSON.stringify({ activations: Array.from({ length: 20 }, () => ({})) });
    const send = (headers: Record<string, string>) =>
      raw(`${gateway.url}/sim/activate/bulk/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
        body,
      });
    const plain = await send({});
    const compressed = await send({ 'accept-encoding': 'br' });
    expect(plain.status).toBe(422);
    expect(plain.bytes.length).toBeGreaterThan(1024);
    expect(compressed.status).toBe(422);
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers['content-length']).toBeUndefined();
    expect(JSON.parse(decoded(compressed))).toEqual(JSON.parse(plain.bytes.toString('utf8')));
  });

  it('leaves small answers, clients accepting nothing, and event streams uncompressed', async () => {
    const small = await raw(`${gateway.url}/livez`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(small.bytes.toString('utf8'))).toEqual({ status: 'ok' });

    const refused = await graphql({ 'accept-encoding': 'identity' });
    expect(refused.headers['content-encoding']).toBeUndefined();

    const stream = await graphql({ 'accept-encoding': 'br, gzip', accept: 'text/event-stream' });
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    // Yoga marks event streams `content-encoding: none` so that proxies do not buffer them either.
    expect(stream.headers['content-encoding'] ?? 'none').toBe('none');
    expect(stream.bytes.toString('utf8')).toContain('event: next');
  });
});

describe('GraphiQL', () => {
  const page = (headers: Record<string, string> = {}) =>
    raw(`${gateway.url}/graphql`, { headers: { accept: 'text/html', ...headers } });

  it('is served compressed with an ETag and revalidated with a 304', async () => {
    const plain = await page();
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toBe('text/html; charset=utf-8');
    const compressed = await page({ 'accept-encoding': 'br, gzip' });
    expect(compressed.status).toBe(200);
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers['cache-control']).toBe('no-cache');
    expect(compressed.headers.vary).toMatch(/accept-encoding/i);
    expect(compressed.bytes.length).toBeLessThan(plain.bytes.length / 3);
    expect(decoded(compressed)).toBe(plain.bytes.toString('utf8'));
    expect(decoded(compressed)).toContain('"shouldPersistHeaders":false');

    const etag = compressed.headers.etag!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await page({ 'accept-encoding': 'br, gzip', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    // Another encoding is another representation: its own ETag, no false 304.
    expect((await page({ 'accept-encoding': 'gzip', 'if-none-match': etag })).status).toBe(200);
  }, 60_000); // compressing the ~9 MB page at brotli 9 takes seconds of a pool thread, more on a loaded machine
});
