// gateway.handle(Request) runs the same edge as a connection on the port: the same statuses,
// headers and bodies for REST, GraphQL, CORS, the body limit and compression.

import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

let gateway: TestGateway;
let token: string;

beforeAll(async () => {
  gateway = await startTestGateway({ env: { CORS_ORIGINS: 'https://app.example.com', MAX_BODY_BYTES: '2048' } });
  ({ token } = await gateway.user());
});
afterAll(() => gateway.close());

/** What a response says, apart from what differs between any two responses (date, request id, budget left). */
async function summary(response: Response) {
  const headers = Object.fromEntries(
    [...response.headers].filter(
      ([name]) => !['date', 'x-request-id', 'keep-alive', 'connection', 'ratelimit'].includes(name),
    ),
  );
  const bytes = Buffer.from(await response.arrayBuffer());
  const body =
    response.headers.get('content-encoding') === 'gzip' ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8');
  return { status: response.status, headers, body };
}

/** The same request over the port (node's http client: no headers added, nothing decoded) and in-process. */
type PlainInit = Omit<RequestInit, 'headers' | 'body'> & { headers?: Record<string, string>; body?: string };

async function both(path: string, init: PlainInit = {}) {
  const overPort = await new Promise<Response>((resolve, reject) => {
    const target = new URL(gateway.url + path);
    const body = init.body;
    const outgoing = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: init.method ?? 'GET',
        headers: { ...init.headers, ...(body ? { 'content-length': Buffer.byteLength(body) } : {}) },
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const headers = new Headers();
          for (let index = 0; index < incoming.rawHeaders.length; index += 2)
            headers.append(incoming.rawHeaders[index]!, incoming.rawHeaders[index + 1]!);
          const status = incoming.statusCode ?? 500;
          resolve(new Response(status === 204 ? null : Buffer.concat(chunks), { status, headers }));
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
  return {
    port: await summary(overPort),
    inProcess: await summary(await gateway.handle(new Request(`http://localhost${path}`, init))),
  };
}

describe('gateway.handle', () => {
  it('answers a REST call like the port', async () => {
    const { port, inProcess } = await both('/sim/usage/5550001111', { headers: { authorization: `Bearer ${token}` } });
    expect(port.status).toBe(400);
    expect(inProcess).toEqual(port);
  });

  it('answers a GraphQL call like the port', async () => {
    const body = JSON.stringify({ query: '{ me { name } }' });
    const { port, inProcess } = await both('/graphql', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    });
    expect(port.status).toBe(200);
    expect(inProcess).toEqual(port);
  });

  it('answers a CORS preflight, a redirect, a 404 and an oversized body like the port', async () => {
    const preflight = {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
    };
    const oversized = {
      method: 'POST',
      body: JSON.stringify({ mdn: 'x'.repeat(4096) }),
      headers: { 'content-type': 'application/json' },
    };
    for (const [path, init] of [
      ['/sim/suspend/', preflight],
      ['/sim/suspend', { method: 'POST' }],
      ['/nothing/here', {}],
      ['/sim/suspend/', oversized],
    ] as const) {
      const { port, inProcess } = await both(path, init);
      expect(inProcess, `${init.method ?? 'GET'} ${path}`).toEqual(port);
    }
  });

  it('compresses what the port compresses', async () => {
    const { port, inProcess } = await both('/openapi.json', { headers: { 'accept-encoding': 'gzip' } });
    expect(port.headers['content-encoding']).toBe('gzip');
    expect(inProcess).toEqual(port);
  });
});
