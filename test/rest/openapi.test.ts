// GET /openapi.json: a valid OpenAPI 3.1 document covering every REST route of the operation
// table, with working examples, every documented refusal, and cacheable, compressed delivery.
// The public documentation (/docs and swagger-ui's files) needs no token, shows none of the
// gateway's secrets, loads nothing from elsewhere and serves only the listed files, by hash.

import { request } from 'node:http';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertKeys, toCamel } from '../../src/lib/case.js';
import { operations } from '../../src/operations/index.js';
import { buildOpenApiDocument } from '../../src/rest/openapi.js';
import { compileRoutes } from '../../src/rest/routes.js';
import { startTestGateway, TEST_JWT_SECRET, type TestGateway } from '../support/gateway.js';

interface Operation {
  operationId: string;
  parameters: { name: string; in: string; required: boolean; schema: { examples?: unknown[] } }[];
  requestBody?: { content: { 'application/json': { schema: unknown; example?: Record<string, unknown> } } };
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> }>;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, { type: string; scheme: string }> };
  security: unknown[];
}

const document = buildOpenApiDocument(operations) as unknown as Document;
const restOperations = operations.filter((operation) => operation.rest);
const described = (name: string) => {
  const operation = restOperations.find((candidate) => candidate.name === name)!;
  return document.paths[operation.rest!.path]![operation.rest!.method.toLowerCase()]!;
};

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('has every REST route of the operation table, and nothing else', () => {
    const routes = compileRoutes(operations);
    // The spec's 48 endpoints, GET /transactions/{id}, where a legacy client recovers a lost
    // answer, and GET /sim/history/{mdn}, a line's history.
    expect(routes.length).toBe(50);
    for (const route of routes)
      expect(
        document.paths[route.path]?.[route.method.toLowerCase()]?.operationId,
        `${route.method} ${route.path}`,
      ).toBe(route.operation.name);
    const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(routes.map((route) => `${route.method} ${route.path}`).sort());
  });

  it('documents the line history: its paging parameters and its snake_case connection', () => {
    const history = described('lineHistory');
    expect(history.parameters.map((parameter) => [parameter.name, parameter.in, parameter.required])).toEqual([
      ['mdn', 'path', true],
      ['first', 'query', false],
      ['after', 'query', false],
    ]);
    const body = JSON.stringify(history.responses['200']);
    const schemas = JSON.stringify(document.components.schemas);
    expect(body + schemas).toContain('page_info');
    expect(schemas).toContain('has_next_page');
    expect(schemas).toContain('end_cursor');
    expect(history.responses).toHaveProperty('422');
    expect(history.responses).toHaveProperty('429');
  });

  it('resolves every $ref', () => {
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map(
      (match) => match[1]!,
    );
    expect(refs.length).toBeGreaterThan(100);
    for (const name of new Set(refs)) expect(document.components.schemas[name], name).toBeDefined();
  });

  it('names fields in snake_case, as REST reads and writes them', () => {
    const text = JSON.stringify(document);
    expect(text).toContain('"zip_code"');
    expect(text).toContain('"transaction_id"');
    expect(text).not.toContain('"zipCode"');
    expect(text).not.toContain('"transactionId"');
    const activation = described('activateSim').requestBody!.content['application/json'].schema as {
      required: string[];
    };
    expect(activation.required).toEqual(['sim', 'plan_id', 'zip_code', 'address1', 'city', 'state']);
  });

  it('gives every route an example request that the operation accepts', () => {
    for (const operation of restOperations) {
      const entry = described(operation.name);
      const input: Record<string, unknown> = {};
      for (const parameter of entry.parameters) {
        if (parameter.required) {
          expect(parameter.schema.examples, `${operation.name} ${parameter.name}`).toBeDefined();
          input[toCamel(parameter.name)] = parameter.schema.examples![0];
        }
      }
      const example = entry.requestBody?.content['application/json'].example;
      if (operation.rest!.method !== 'GET') expect(example, operation.name).toBeDefined();
      Object.assign(input, convertKeys(example ?? {}, toCamel));
      const parsed = operation.input.safeParse(input);
      expect(parsed.success ? [] : parsed.error.issues, operation.name).toEqual([]);
    }
  });

  it('documents each refusal the pipeline can give, with its shape and headers', () => {
    for (const operation of restOperations) {
      const { responses } = described(operation.name);
      const codes = Object.keys(responses);
      expect(codes, operation.name).toEqual(expect.arrayContaining(['200', '401', '422', '500']));
      expect(responses['401']!.headers).toHaveProperty('WWW-Authenticate');
      expect(responses['422']!.content!['application/json']!.schema).toEqual({
        $ref: '#/components/schemas/HTTPValidationError',
      });
      expect(codes.includes('400'), `${operation.name} 400`).toBe(operation.routing !== 'none');
      expect(codes.includes('403'), `${operation.name} 403`).toBe(
        operation.superuserOnly || operation.planField !== undefined,
      );
      expect(codes.includes('409'), `${operation.name} 409`).toBe(
        operation.kind === 'mutation' && operation.transactionPrefix !== undefined,
      );
      expect(codes.includes('429'), `${operation.name} 429`).toBe(operation.rateLimit !== undefined);
      if (operation.rateLimit) expect(responses['429']!.headers).toHaveProperty('Retry-After');
      expect(codes.includes('501'), `${operation.name} 501`).toBe(operation.extended);
      expect(codes.includes('503'), `${operation.name} 503`).toBe(operation.usesCarriers);
    }
    // Both 403 shapes: {detail} for superuser-only, the failure envelope for an unauthorized plan.
    expect(described('settings').responses['403']!.content!['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/Detail',
    });
    expect(described('activateSim').responses['403']!.content!['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/Failure',
    });
  });

  it('declares the bearer scheme for every operation', () => {
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.security).toEqual([{ bearerAuth: [] }]);
  });
});

describe('GET /openapi.json', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway();
  });
  afterAll(() => gateway.close());

  it('serves the document without a token', async () => {
    const answer = await gateway.rest('GET', '/openapi.json');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.body).toEqual(JSON.parse(JSON.stringify(document)));
  });

  it('compresses for clients that accept it, and answers 304 to a matching ETag', async () => {
    const plain = Buffer.from(JSON.stringify(document));
    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      // node:http directly: fetch would decompress and hide the encoding.
      const response = await rawGet(`${gateway.url}/openapi.json`, { 'accept-encoding': encoding });
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers.vary).toBe('Accept-Encoding');
      expect(response.body.length).toBeLessThan(plain.length / 5);
      expect(decode(response.body).equals(plain)).toBe(true);
      const again = await rawGet(`${gateway.url}/openapi.json`, {
        'accept-encoding': encoding,
        'if-none-match': String(response.headers.etag),
      });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
    }
    const identity = await rawGet(`${gateway.url}/openapi.json`, { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.equals(plain)).toBe(true);
  });

  it('refuses other methods with 405', async () => {
    const answer = await gateway.rest('POST', '/openapi.json', { body: {} });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET, HEAD');
  });
});

async function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    })
      .on('error', reject)
      .end();
  });
}

describe('the public documentation', () => {
  const CARRIER_KEY = 'carrier-321-key-that-must-never-be-shown-0xC0FFEE';
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({ env: { CARRIER_321_API_KEY: CARRIER_KEY } });
  });
  afterAll(() => gateway.close());

  it('needs no token and shows no secret of the running gateway', async () => {
    const page = await fetch(`${gateway.url}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:href|src)="(docs\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets.length).toBe(4);
    for (const path of ['/openapi.json', ...assets.map((asset) => `/${asset}`)]) {
      const answer = await fetch(gateway.url + path);
      expect(answer.status, path).toBe(200);
      const text = await answer.text();
      expect(text).not.toContain(TEST_JWT_SECRET);
      expect(text).not.toContain(CARRIER_KEY);
    }
    // The page may load nothing from elsewhere.
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('serves only the listed swagger-ui files, by content hash', async () => {
    const html = await (await fetch(`${gateway.url}/docs`)).text();
    const bundle = /src="(docs\/assets\/[^/]+)\/swagger-ui-bundle\.js"/.exec(html)![1]!;
    for (const path of [
      `/${bundle}/swagger-ui-bundle.js.map`,
      `/${bundle}/index.html`,
      `/${bundle}/package.json`,
      '/docs/assets/not-the-hash/swagger-ui-bundle.js',
      `/${bundle}/../../../package.json`,
      '/docs/assets/%2e%2e/%2e%2e/package.json',
    ]) {
      expect(await rawStatus(gateway.url, path), path).toBe(404);
    }
    expect(await rawStatus(gateway.url, `/${bundle}/swagger-ui-bundle.js`)).toBe(200);
  });
});

/** The status of a GET sent with the path exactly as written (fetch would normalise `..`). */
function rawStatus(base: string, path: string): Promise<number> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    request({ host: hostname, port, path, method: 'GET' }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });
}
