// The HTTP edge shared by REST and GraphQL: one body limit (content-length and chunked, before
// anything runs), encoded bodies refused (415) unread, bad paths and deeply nested JSON answered
// as bad input (never 5xx), CORS by allow-list only, slow clients cut by the request timeout, and
// honest access records for requests whose answer never finished.

import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/lib/logger.js';
import { eventually } from '../support/eventually.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { seedLine } from '../support/lines.js';

const LIMIT = 1_000_000;
const SUSPEND = 'mutation ($input: SuspendLineInput!) { suspendLine(input: $input) { status } }';
const TOO_LARGE_GRAPHQL = {
  errors: [{ message: 'Request body is too large', extensions: { code: 'PAYLOAD_TOO_LARGE', status: 413 } }],
};

/** A JSON document `{"mdn": …}` padded with whitespace to `bytes` (valid JSON at any size). */
function paddedRestBody(mdn: string, bytes: number): string {
  const head = JSON.stringify({ mdn }).slice(0, -1);
  return head + ' '.repeat(bytes - head.length - 1) + '}';
}

function paddedGraphQLBody(mdn: string, bytes: number): string {
  const head = JSON.stringify({ query: SUSPEND, variables: { input: { mdn } } }).slice(0, -1);
  return head + ' '.repeat(bytes - head.length - 1) + '}';
}

const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** A body sent with Transfer-Encoding: chunked (no content-length), 64 KB at a time. */
function chunked(text: string): ReadableStream<Uint8Array> {
  const bytes = Buffer.from(text);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, (offset += 65_536)));
    },
  });
}

async function post(
  url: string,
  body: string | ReadableStream<Uint8Array>,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: unknown }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    ...(typeof body === 'string' ? {} : { duplex: 'half' }),
  } as RequestInit);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** Sends raw bytes on a fresh connection; resolves with everything received once the server closes it. */
function raw(url: string, request: string, options: { end?: boolean } = {}): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(request);
      if (options.end) socket.end();
    });
    let received = '';
    socket.on('data', (chunk: Buffer) => void (received += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
  });
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);

let gateway: TestGateway;
let token: string;
const transactions = () => gateway.app.services.db.transaction.count();
const lineStatus = async (mdn: string) => (await gateway.sandboxes.cores['321'].getUsage(mdn)).lineStatus;

beforeAll(async () => {
  gateway = await startTestGateway();
  ({ token } = await gateway.user());
});
afterAll(() => gateway.close());

describe('one body limit for both surfaces', () => {
  const auth = () => ({ authorization: `Bearer ${token}` });

  it('refuses a 25 MB body by its content-length on REST and GraphQL, before authentication', async () => {
    const huge = ' '.repeat(25_000_000);
    const rest = await post(`${gateway.url}/sim/suspend/`, huge);
    expect(rest.status).toBe(413);
    expect(rest.body).toEqual({ detail: 'Request body is too large' });
    const graphql = await post(`${gateway.url}/graphql`, huge);
    expect(graphql.status).toBe(413);
    expect(graphql.body).toEqual(TOO_LARGE_GRAPHQL);
  });

  it('executes a padded REST call under the limit and refuses it just over, content-length or chunked', async () => {
    const under = await seedLine(gateway);
    expect(
      (await post(`${gateway.url}/sim/suspend/`, chunked(paddedRestBody(under.mdn, LIMIT - 100_000)), auth())).status,
    ).toBe(200);
    expect(await lineStatus(under.mdn)).toBe('SUSPENDED');

    const line = await seedLine(gateway);
    const before = await transactions();
    for (const body of [
      paddedRestBody(line.mdn, 1_100_000),
      chunked(paddedRestBody(line.mdn, 1_100_000)),
      chunked(paddedRestBody(line.mdn, 25_000_000)),
    ]) {
      const answer = await post(`${gateway.url}/sim/suspend/`, body, auth());
      expect(answer.status).toBe(413);
      expect(answer.body).toEqual({ detail: 'Request body is too large' });
    }
    expect(await transactions()).toBe(before);
    expect(await lineStatus(line.mdn)).toBe('ACTIVE');
  });

  it('cuts a body that never stops within seconds, on both surfaces, answering nothing but a 413', async () => {
    const before = await transactions();
    for (const path of ['/sim/suspend/', '/graphql']) {
      const { hostname, port } = new URL(gateway.url);
      const started = Date.now();
      const answer = await new Promise<string>((resolve) => {
        const socket = connect(Number(port), hostname, () => {
          socket.write(
            `POST ${path} HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
          );
          // 64 KB chunks for as long as the connection stays open: past the limit, and past the
          // 32 MB the gateway reads and drops before it answers.
          const chunk = `10000\r\n${' '.repeat(0x10000)}\r\n`;
          const pump = () => {
            while (!socket.destroyed && socket.write(chunk));
            if (!socket.destroyed) socket.once('drain', pump);
          };
          pump();
        });
        let received = '';
        socket.on('data', (data: Buffer) => void (received += data.toString('latin1')));
        socket.on('error', () => undefined);
        socket.on('close', () => resolve(received));
      });
      // The close comes while the client still writes, so its kernel may drop the 413 it had not
      // read yet (a reset): a 413 or nothing, never anything else, and never a hang.
      expect([0, 413], path).toContain(statusOf(answer));
      expect(Date.now() - started, path).toBeLessThan(10_000);
    }
    expect(await transactions()).toBe(before);
  });

  it('executes a padded GraphQL call under the limit and refuses it just over, content-length or chunked', async () => {
    const under = await seedLine(gateway);
    const executed = await post(
      `${gateway.url}/graphql`,
      chunked(paddedGraphQLBody(under.mdn, LIMIT - 100_000)),
      auth(),
    );
    expect(executed.body).toEqual({
      data: { suspendLine: { status: 'SUCCESS' } },
      extensions: { cost: expect.objectContaining({ requestedQueryCost: 1, actualQueryCost: 1 }) },
    });

    const line = await seedLine(gateway);
    const before = await transactions();
    for (const body of [
      paddedGraphQLBody(line.mdn, 1_100_000),
      chunked(paddedGraphQLBody(line.mdn, 1_100_000)),
      chunked(paddedGraphQLBody(line.mdn, 25_000_000)),
    ]) {
      const answer = await post(`${gateway.url}/graphql`, body, auth());
      expect(answer.status).toBe(413);
      expect(answer.body).toEqual(TOO_LARGE_GRAPHQL);
    }
    expect(await transactions()).toBe(before);
    expect(await lineStatus(line.mdn)).toBe('ACTIVE');
  });
});

describe('bodies with a content coding', () => {
  /** A POST of `body` declared as `coding`, the bytes sent as they are (fetch encodes no request body). */
  async function encoded(path: string, coding: string, body: Buffer | ReadableStream<Uint8Array>) {
    const response = await fetch(gateway.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': coding, authorization: `Bearer ${token}` },
      body,
      ...(Buffer.isBuffer(body) ? {} : { duplex: 'half' }),
    } as RequestInit);
    return { status: response.status, headers: response.headers, body: (await response.json()) as unknown };
  }

  it('refuses gzip, deflate, br… with 415 naming the coding on both surfaces, changing nothing', async () => {
    const line = await seedLine(gateway);
    const before = await transactions();
    const rest = Buffer.from(JSON.stringify({ mdn: line.mdn }));
    const graphql = Buffer.from(JSON.stringify({ query: SUSPEND, variables: { input: { mdn: line.mdn } } }));
    const bodies: [string, (plain: Buffer) => Buffer | ReadableStream<Uint8Array>][] = [
      ['gzip', gzipSync],
      ['deflate', deflateSync],
      ['br', brotliCompressSync],
      ['identity, GZIP', gzipSync],
      // Never decoded: bytes that are no gzip at all are refused the same, chunked too.
      ['gzip', (plain) => chunked(plain.toString('utf8'))],
    ];
    for (const [coding, encode] of bodies) {
      const name = coding.split(',').at(-1)!.trim().toLowerCase();
      const message = `Unsupported Content-Encoding "${name}": send the body unencoded (identity)`;
      const restAnswer = await encoded('/sim/suspend/', coding, encode(rest));
      expect(restAnswer.status, coding).toBe(415);
      expect(restAnswer.body).toEqual({ detail: message });
      expect(restAnswer.headers.get('accept-encoding')).toBe('identity');
      const graphqlAnswer = await encoded('/graphql', coding, encode(graphql));
      expect(graphqlAnswer.status, coding).toBe(415);
      expect(graphqlAnswer.body).toEqual({
        errors: [{ message, extensions: { code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 } }],
      });
      expect(graphqlAnswer.headers.get('accept-encoding')).toBe('identity');
    }
    expect(await transactions()).toBe(before);
    expect(await lineStatus(line.mdn)).toBe('ACTIVE');
  });

  it('reads a body declared identity as it is', async () => {
    const line = await seedLine(gateway);
    const answer = await encoded('/sim/suspend/', 'identity', Buffer.from(JSON.stringify({ mdn: line.mdn })));
    expect(answer.status).toBe(200);
    const graphql = await encoded('/graphql', 'identity', Buffer.from(JSON.stringify({ query: '{ __typename }' })));
    expect(graphql).toMatchObject({ status: 200, body: { data: { __typename: 'Query' } } });
  });
});

describe('methods', () => {
  /** One request through node:http (fetch refuses TRACE); the status, headers and body text. */
  function send(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
    return new Promise<{ status: number; headers: IncomingHttpHeaders; text: string }>((resolve, reject) => {
      const outgoing = httpRequest(`${gateway.url}${path}`, { method, headers }, (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => void (text += chunk.toString('utf8')));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, text }));
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  it('answers /graphql 405 with Allow: GET, POST for any other method, executing nothing', async () => {
    const line = await seedLine(gateway);
    const json = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    const mutation = JSON.stringify({ query: SUSPEND, variables: { input: { mdn: line.mdn } } });
    const cases: [string, Record<string, string>, string?][] = [
      ['OPTIONS', {}],
      ['TRACE', {}],
      ['DELETE', json],
      ['PUT', json, mutation],
      ['PATCH', json, mutation],
      ['HEAD', { accept: 'application/json' }],
    ];
    for (const [method, headers, body] of cases) {
      const answer = await send(method, '/graphql', headers, body);
      expect(answer.status, method).toBe(405);
      expect(answer.headers.allow, method).toBe('GET, POST');
      if (method === 'HEAD') continue;
      expect(JSON.parse(answer.text), method).toEqual({
        errors: [
          {
            message: `Method "${method}" is not allowed on /graphql: send a GET or a POST`,
            extensions: { code: 'METHOD_NOT_ALLOWED', status: 405 },
          },
        ],
      });
    }
    expect(await lineStatus(line.mdn)).toBe('ACTIVE');
    // A CORS preflight is still the CORS layer's, and GraphiQL's page still answers HEAD.
    const preflight = await send('OPTIONS', '/graphql', {
      origin: 'https://app.example.com',
      'access-control-request-method': 'POST',
    });
    expect(preflight.status).toBe(204);
    expect((await send('HEAD', '/graphql', { accept: 'text/html' })).status).toBe(200);
  });

  it('answers HEAD on a REST query route 405 with Allow: GET, as the FastAPI service did', async () => {
    const answer = await send('HEAD', '/sim/usage/3215550001', { authorization: `Bearer ${token}` });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('GET');
  });
});

describe('bad input is never a 5xx', () => {
  it('answers a malformed percent-encoding in a path with 404, without a token', async () => {
    for (const path of ['/sim/usage/%ZZ', '/sim/usage/%', '/sim/usage/%E0%A4%A']) {
      const answer = await gateway.rest('GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.body).toEqual({ detail: 'Not Found' });
    }
  });

  it('answers JSON nested 10,000 deep with 422 on REST and changes nothing', async () => {
    const line = await seedLine(gateway);
    const before = await transactions();
    const answer = await post(`${gateway.url}/sim/suspend/`, `{"mdn": ${deep(10_000)}}`, {
      authorization: `Bearer ${token}`,
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({
      detail: [{ type: 'json_invalid', loc: ['body'], msg: 'JSON nests more than 32 levels deep' }],
    });
    // As deep as allowed: an ordinary validation error about the field.
    const allowed = await post(`${gateway.url}/sim/suspend/`, `{"mdn": ${deep(31)}}`, {
      authorization: `Bearer ${token}`,
    });
    expect(allowed.status).toBe(422);
    expect((allowed.body as { detail: { loc: unknown[] }[] }).detail[0]!.loc).toEqual(['body', 'mdn']);
    expect(await transactions()).toBe(before);
    expect(await lineStatus(line.mdn)).toBe('ACTIVE');
  });

  it('answers GraphQL variables nested 10,000 deep with a 400 GraphQL error, in a POST body or a GET query', async () => {
    const body = `{"query": ${JSON.stringify(SUSPEND)}, "variables": {"input": {"mdn": ${deep(10_000)}}}}`;
    const posted = await post(`${gateway.url}/graphql`, body, { authorization: `Bearer ${token}` });
    expect(posted.status).toBe(400);
    expect(posted.body).toEqual({
      errors: [{ message: 'JSON nests more than 32 levels deep', extensions: { code: 'BAD_REQUEST', status: 400 } }],
    });
    const query = new URLSearchParams({ query: '{ me { name } }', variables: `{"x": ${deep(1_000)}}` });
    const got = await fetch(`${gateway.url}/graphql?${query}`, { headers: { authorization: `Bearer ${token}` } });
    expect(got.status).toBe(400);
    expect(((await got.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe(
      'BAD_REQUEST',
    );
  });

  it('answers odd targets, methods and headers without a 5xx', async () => {
    const request = (line: string, headers = '') =>
      `${line}\r\nHost: gateway\r\nAuthorization: Bearer ${token}\r\n${headers}Connection: close\r\n\r\n`;
    const cases: [string, string, number?][] = [
      ['double slash to a REST route', request('GET //sim/usage/3215550001 HTTP/1.1'), 404],
      ['double slash to GraphQL (not a host)', request('GET //graphql HTTP/1.1'), 404],
      ['NUL byte in a parameter', request('GET /sim/usage/%00 HTTP/1.1')],
      ['unicode in a parameter', request('GET /sim/usage/%E2%82%AC%F0%9F%93%B1 HTTP/1.1')],
      ['repeated query keys', request('GET /sim/usage/3215550001?x=1&x=2&mdn=1&mdn=2 HTTP/1.1')],
      ['a lone percent sign', request('GET /% HTTP/1.1'), 404],
      ['asterisk-form target', request('OPTIONS * HTTP/1.1'), 400],
      ['absolute-form target', request('GET http://elsewhere.example/sim/usage/%ZZ HTTP/1.1'), 404],
      ['absolute-form GraphQL target', request('GET http://elsewhere.example/graphql?query=%7B__typename%7D HTTP/1.1')],
      ['GraphQL with variables that are not JSON', request('GET /graphql?query=%ZZ&variables=%7B HTTP/1.1'), 400],
      [
        'GraphQL with extensions that are not JSON',
        request('GET /graphql?query=%7B__typename%7D&extensions=%7B HTTP/1.1'),
        400,
      ],
      ['GraphQL with a PUT', request('PUT /graphql HTTP/1.1', 'Content-Length: 0\r\n'), 405],
      ['a WebDAV method', request('PROPFIND /sim/usage/3215550001 HTTP/1.1'), 405],
      ['an unknown method', request('BREW /graphql HTTP/1.1'), 400],
      ['a plain OPTIONS (not a preflight)', request('OPTIONS /sim/suspend/ HTTP/1.1'), 405],
      ['headers over the size cap', request('GET /livez HTTP/1.1', `X-Big: ${'a'.repeat(20_000)}\r\n`), 431],
      [
        'invalid JSON to GraphQL',
        `POST /graphql HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 9\r\nConnection: close\r\n\r\n{"query":`,
        400,
      ],
      [
        'invalid JSON to GraphQL without a token (refused before it is parsed)',
        `POST /graphql HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\nContent-Length: 9\r\nConnection: close\r\n\r\n{"query":`,
        401,
      ],
    ];
    for (const [name, bytes, expected] of cases) {
      const status = statusOf(await raw(gateway.url, bytes, { end: false }));
      if (expected) expect(status, name).toBe(expected);
      expect(status, name).toBeGreaterThanOrEqual(200);
      expect(status, name).toBeLessThan(500);
    }
  });
});

describe('GraphQL request errors echo at most 64 characters of any input', () => {
  const graphql = (body: string) =>
    fetch(`${gateway.url}/graphql`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/graphql-response+json',
      },
      body,
    });

  it('answers a large malformed body with a short error and no description of the parse failure', async () => {
    const body = `{"query":"{ me { name } }","x":"${'A'.repeat(900_000)}"`;
    const response = await graphql(body);
    const text = await response.text();
    expect(response.status).toBe(400);
    expect(text.length).toBeLessThan(1_000);
    expect(JSON.parse(text)).toEqual({
      errors: [{ message: 'POST body sent invalid JSON.', extensions: { code: 'BAD_REQUEST', status: 400 } }],
    });
  });

  it('cuts every string of a variable value that does not coerce to its first 64 characters', async () => {
    const label = `${'L'.repeat(64)}${'M'.repeat(900_000)}`;
    const response = await graphql(
      JSON.stringify({
        query: 'mutation ($i: SetLineLabelInput!) { setLineLabel(input: $i) { status } }',
        variables: { i: { mdn: '3215550002', label, bogus: 1 } },
      }),
    );
    const text = await response.text();
    expect(response.status).toBe(400);
    expect(text.length).toBeLessThan(2_000);
    const [error] = (JSON.parse(text) as { errors: { message: string; extensions: Record<string, unknown> }[] }).errors;
    expect(error!.message).toContain(`label: "${'L'.repeat(64)}…"`);
    expect(error!.message).not.toContain('M');
    expect(error!.message).toContain('Field "bogus" is not defined by type "SetLineLabelInput".');
    expect(error!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', status: 400 });
  });

  it('keeps a message to 1,000 characters however many fields a value has', async () => {
    const input = Object.fromEntries(Array.from({ length: 5_000 }, (_, index) => [`f${index}`, index]));
    const response = await graphql(
      JSON.stringify({
        query: 'mutation ($i: SetLineLabelInput!) { setLineLabel(input: $i) { status } }',
        variables: { i: input },
      }),
    );
    const { errors } = (await response.json()) as { errors: { message: string }[] };
    expect(errors.length).toBeGreaterThan(0);
    for (const { message } of errors) expect(message.length).toBeLessThanOrEqual(1_001);
  });
});

describe('CORS', () => {
  const APP = 'https://app.example.com';
  const preflight = (url: string, origin: string) =>
    fetch(url, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });

  it('allows no foreign origin by default, on either surface', async () => {
    for (const path of ['/graphql', '/sim/suspend/']) {
      const answer = await preflight(gateway.url + path, APP);
      expect(answer.status).toBe(204);
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
      expect(answer.headers.get('access-control-allow-methods')).toBeNull();
    }
    const graphql = await fetch(`${gateway.url}/graphql`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: '{"query":"{ __typename }"}',
    });
    expect(graphql.headers.get('access-control-allow-origin')).toBeNull();
    expect(graphql.headers.get('access-control-allow-credentials')).toBeNull();
    const rest = await fetch(`${gateway.url}/livez`, { headers: { origin: APP } });
    expect(rest.headers.get('access-control-allow-origin')).toBeNull();
  });

  describe('with CORS_ORIGINS', () => {
    let listed: TestGateway;
    beforeAll(async () => {
      listed = await startTestGateway({ env: { CORS_ORIGINS: `${APP}, http://localhost:5173` } });
    });
    afterAll(() => listed.close());

    it('echoes a listed origin with credentials and the exposed headers, on both surfaces', async () => {
      const graphql = await fetch(`${listed.url}/graphql`, {
        method: 'POST',
        headers: { origin: APP, 'content-type': 'application/json' },
        body: '{"query":"{ __typename }"}',
      });
      const rest = await fetch(`${listed.url}/sim/usage/3215550001`, { headers: { origin: 'http://localhost:5173' } });
      expect(rest.status).toBe(401);
      for (const [answer, origin] of [
        [graphql, APP],
        [rest, 'http://localhost:5173'],
      ] as const) {
        expect(answer.headers.get('access-control-allow-origin')).toBe(origin);
        expect(answer.headers.get('access-control-allow-credentials')).toBe('true');
        expect(answer.headers.get('vary')).toMatch(/origin/i);
        expect(answer.headers.get('access-control-expose-headers')).toMatch(/x-request-id.*retry-after.*ratelimit/);
      }
    });

    it('never names an unlisted origin', async () => {
      for (const origin of [
        'https://evil.example',
        'https://app.example.com.evil.example',
        'null',
        'https://APP.example.com',
        `${APP}/`,
      ]) {
        const answer = await fetch(`${listed.url}/livez`, { headers: { origin } });
        expect(answer.headers.get('access-control-allow-origin'), origin).toBeNull();
        expect(answer.headers.get('access-control-allow-credentials'), origin).toBeNull();
        expect(answer.headers.get('vary')).toMatch(/origin/i);
        const pre = await preflight(`${listed.url}/graphql`, origin);
        expect(pre.status).toBe(204);
        expect([...pre.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
      }
    });

    it('keeps Vary: Origin beside Accept-Encoding on the static pages, 200, 304 and HEAD alike', async () => {
      const pages: [string, Record<string, string>][] = [
        ['/docs', {}],
        ['/openapi.json', {}],
        ['/graphql', { accept: 'text/html' }],
      ];
      for (const [path, headers] of pages) {
        const first = await fetch(listed.url + path, { headers: { origin: APP, ...headers } });
        await first.arrayBuffer();
        const etag = first.headers.get('etag')!;
        const revalidated = await fetch(listed.url + path, {
          headers: { origin: APP, 'if-none-match': etag, ...headers },
        });
        const head = await fetch(listed.url + path, { method: 'HEAD', headers: { origin: APP, ...headers } });
        for (const [answer, status] of [
          [first, 200],
          [revalidated, 304],
          [head, 200],
        ] as const) {
          expect(answer.status, path).toBe(status);
          expect(answer.headers.get('access-control-allow-origin'), path).toBe(APP);
          const vary = answer.headers
            .get('vary')
            ?.toLowerCase()
            .split(/\s*,\s*/);
          expect(vary, `${path} ${status}`).toEqual(expect.arrayContaining(['origin', 'accept-encoding']));
        }
      }
    });

    it('answers a preflight from a listed origin on REST and GraphQL', async () => {
      for (const path of ['/graphql', '/sim/suspend/', '/sim/usage/3215550001']) {
        const answer = await preflight(listed.url + path, APP);
        expect(answer.status, path).toBe(204);
        expect(answer.headers.get('access-control-allow-origin')).toBe(APP);
        expect(answer.headers.get('access-control-allow-credentials')).toBe('true');
        expect(answer.headers.get('access-control-allow-methods')?.split(', ')).toEqual(
          expect.arrayContaining(['GET', 'POST', 'PUT', 'PATCH', 'OPTIONS']),
        );
        expect(answer.headers.get('access-control-allow-headers')).toMatch(/authorization.*content-type.*x-request-id/);
        expect(Number(answer.headers.get('access-control-max-age'))).toBeGreaterThan(0);
      }
    });
  });
});

describe('slow clients', () => {
  let strict: TestGateway;
  beforeAll(async () => {
    strict = await startTestGateway({ env: { REQUEST_TIMEOUT_MS: '300', HEADERS_TIMEOUT_MS: '300' } });
  });
  afterAll(() => strict.close());

  it('cuts a request whose body never completes with 408 and closes the connection', async () => {
    const { token: strictToken } = await strict.user();
    for (const path of ['/graphql', '/sim/suspend/']) {
      const incomplete = `POST ${path} HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer ${strictToken}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"mdn"`;
      // Resolves only once the server has closed the connection.
      expect(statusOf(await raw(strict.url, incomplete)), path).toBe(408);
    }
    // The REST operation whose body never came is counted as 499, not as a 500 of ours.
    const counted = async () =>
      (await strict.app.services.metrics.operations.get()).values.filter((value) =>
        value.metricName?.endsWith('_count'),
      );
    expect(
      await eventually(async () => (await counted()).some((value) => String(value.labels.status) === '499'), 5_000),
    ).toBe(true);
    expect(
      (await counted()).map((value) => [value.labels.operation, String(value.labels.status), value.value]),
    ).toEqual([['suspendLine', '499', 1]]);
  });

  it('cuts a connection whose headers never complete', async () => {
    const answer = await raw(strict.url, 'GET /livez HTTP/1.1\r\nHost: gateway\r\n');
    expect([0, 408]).toContain(statusOf(answer));
  });
});

describe('access records', () => {
  function capture(): { logger: Logger; records: Record<string, unknown>[] } {
    const records: Record<string, unknown>[] = [];
    const keep = (message: string, fields?: Record<string, unknown>) =>
      void (message === 'request' && records.push(fields ?? {}));
    return { logger: { debug: () => undefined, info: keep, warn: () => undefined, error: () => undefined }, records };
  }

  /** A carrier 321 that takes requests and never answers them: a call to it stays in flight. */
  async function heldCarrier(): Promise<{ url: string; received: () => number; close: () => Promise<void> }> {
    let received = 0;
    const server = createServer(() => void (received += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      received: () => received,
      close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
    };
  }

  const USAGE = '/sim/usage/3215550001';
  /** Access records name the route template, never the path with its MDN. */
  const USAGE_ROUTE = '/sim/usage/{mdn}';

  it('records a request the client abandoned as 499 aborted, and a finished one as what it got', async () => {
    const { logger, records } = capture();
    const carrier = await heldCarrier();
    const held = await startTestGateway({
      env: { CARRIER_321_URL: carrier.url, CARRIER_321_API_KEY: 'key', CARRIER_TIMEOUT_MS: '1500' },
      logger,
    });
    try {
      const { token: heldToken } = await held.user();
      expect((await held.rest('GET', '/livez')).status).toBe(200);
      const { hostname, port } = new URL(held.url);
      const socket = connect(Number(port), hostname, () =>
        socket.write(`GET ${USAGE} HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer ${heldToken}\r\n\r\n`),
      );
      socket.on('error', () => undefined);
      // The gateway is waiting for the carrier when the client hangs up.
      expect(await eventually(async () => carrier.received() === 1, 10_000)).toBe(true);
      socket.destroy();
      expect(await eventually(async () => records.some((record) => record.route === USAGE_ROUTE), 10_000)).toBe(true);
      expect(records.find((record) => record.route === '/livez')).toMatchObject({ method: 'GET', status: 200 });
      expect(records.find((record) => record.route === USAGE_ROUTE)).toMatchObject({
        method: 'GET',
        status: 499,
        aborted: true,
      });
      const counted = await held.app.services.metrics.httpResponses.get();
      expect(counted.values.find((value) => value.labels.status === '499')?.value).toBe(1);
    } finally {
      await held.close();
      await carrier.close();
    }
  });

  it('records a request cut by shutdown as 499 aborted, not 200', async () => {
    const { logger, records } = capture();
    const carrier = await heldCarrier();
    const held = await startTestGateway({
      env: { CARRIER_321_URL: carrier.url, CARRIER_321_API_KEY: 'key', CARRIER_TIMEOUT_MS: '1500' },
      logger,
    });
    try {
      const { token: heldToken } = await held.user();
      const cut = fetch(held.url + USAGE, { headers: { authorization: `Bearer ${heldToken}` } }).then(
        (response) => response.status,
        () => 'cut',
      );
      expect(await eventually(async () => carrier.received() === 1, 10_000)).toBe(true);
      // The test gateway gives in-flight requests 1 s; the carrier never answers.
      await held.close();
      expect(await cut).toBe('cut');
      expect(records.find((record) => record.route === USAGE_ROUTE)).toMatchObject({ status: 499, aborted: true });
    } finally {
      await carrier.close();
    }
  });
});
