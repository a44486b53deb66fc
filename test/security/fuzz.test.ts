// A seeded fuzz run over every REST route and every GraphQL root field: hundreds of malformed
// inputs (wrong types, hostile strings, deep JSON, broken encodings, bodies that are not JSON),
// first against healthy sandbox carriers, then with carrier faults injected. Bad input must
// never be a 5xx; an injected carrier fault is the spec's 400 (CARRIER_TIMEOUT or
// CARRIER_UNAVAILABLE), so only a 503 (a carrier the settings disabled meanwhile) is allowed.

import { getNamedType, isObjectType, type GraphQLField } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSchema } from '../../src/graphql/schema.js';
import { operations } from '../../src/operations/index.js';
import { compileRoutes } from '../../src/rest/routes.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

/** mulberry32: a tiny seeded generator, so that a failing run can be replayed exactly. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const random = seeded(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const HOSTILE_STRINGS = [
  '',
  ' ',
  'K1 ',
  '\u0000',
  'a\r\nX-Injected: 1',
  '\u007f',
  '😀'.repeat(300),
  '%ZZ',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '__proto__',
  'constructor',
  '3215550001',
  '6465550001',
  '9095550001',
  '89010000000000000001',
  '8999000000000000000',
  '00000',
  '99999',
  '999999999999999',
  'INVALID',
  '1'.repeat(26),
  'x@' + 'a.'.repeat(2_000) + '@',
  'A'.repeat(20_000),
  '-1',
  '1e309',
  'true',
  'null',
];

/** JSON nested `depth` levels deep, built without recursion. */
const deepJson = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

function randomValue(depth = 0): unknown {
  const roll = random();
  if (depth > 3 || roll < 0.45) return pick(HOSTILE_STRINGS);
  if (roll < 0.55) return pick([0, -1, 1.5, 2 ** 53, -(2 ** 31), Number.MAX_SAFE_INTEGER]);
  if (roll < 0.6) return pick([true, false, null]);
  if (roll < 0.8) return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(depth + 1));
  const keys = [
    'mdn',
    'sim',
    'plan_id',
    'zip_code',
    'state',
    'activations',
    'value',
    'transaction_id',
    '__proto__',
    'x',
  ];
  return Object.fromEntries(
    Array.from({ length: 1 + Math.floor(random() * 4) }, () => [pick(keys), randomValue(depth + 1)]),
  );
}

const PATH_VALUES = [
  '%ZZ',
  '%',
  '%E0%A4%A',
  '%00',
  '..',
  '%2F..%2F',
  'a'.repeat(3_000),
  '😀',
  '3215550001',
  '%F0%9F%98%80',
  "'",
  ' ',
];

type Answer = { status: number; body: string; what: string };

let gateway: TestGateway;
let superToken: string;
const userTokens: string[] = [];
let tokenUses = 0;

/** A fresh ordinary user every few requests, so per-user rate limits do not hide the validators. */
async function userToken(): Promise<string> {
  if (userTokens.length === 0 || tokenUses++ % 6 === 0) {
    userTokens.unshift((await gateway.user({ plans: ['BASIC'] })).token);
  }
  return userTokens[0]!;
}

/**
 * The token a case is sent with: none, the superuser's or an ordinary user's, drawn from the seeded
 * generator. The draw is made before a user is created, so users are made only for the requests
 * that carry their token (creating one costs several database writes).
 */
async function tokenForCase(): Promise<string | undefined> {
  const kind = pick(['none', 'superuser', 'user', 'user'] as const);
  return kind === 'none' ? undefined : kind === 'superuser' ? superToken : userToken();
}

async function send(
  method: string,
  path: string,
  body: string | undefined,
  token: string | undefined,
  contentType = 'application/json',
): Promise<Answer> {
  const response = await fetch(gateway.url + path, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': contentType } : {}),
    },
    body,
    redirect: 'manual',
  });
  return {
    status: response.status,
    body: (await response.text()).slice(0, 300),
    what: `${method} ${path.slice(0, 80)} ${String(body).slice(0, 120)}`,
  };
}

function restCases(): { method: string; path: string; body: string | undefined }[] {
  const cases: { method: string; path: string; body: string | undefined }[] = [];
  for (const route of compileRoutes(operations)) {
    for (let round = 0; round < 8; round++) {
      const path = route.path.replace(/\{[^}]+\}/g, () =>
        round % 2 === 0 ? pick(PATH_VALUES) : encodeURIComponent(String(pick(HOSTILE_STRINGS)) || 'x'),
      );
      const query =
        round % 3 === 0
          ? `?sim=${pick(PATH_VALUES)}&sim=2&start_time=${pick(PATH_VALUES)}&dry_run=${pick(PATH_VALUES)}`
          : '';
      let body: string | undefined;
      if (route.method !== 'GET') {
        body = pick([
          () => JSON.stringify(randomValue()),
          () => JSON.stringify({ ...(randomValue() as object), activations: [randomValue(), randomValue()] }),
          () => deepJson(5_000),
          () => `{"mdn": ${deepJson(2_000)}}`,
          () => '{"mdn": "3215550001", ',
          () => 'not json at all',
          () => '\u0000\u0001\u0002',
          () =>
            JSON.stringify({
              value: pick(HOSTILE_STRINGS),
              mdn: pick(HOSTILE_STRINGS),
              transaction_id: pick(HOSTILE_STRINGS),
            }),
        ])();
      }
      cases.push({ method: route.method, path: path + query, body });
    }
  }
  return cases;
}

function graphqlCases(): { body: string }[] {
  const schema = buildSchema();
  const roots = [
    ['query', schema.getQueryType()!],
    ['mutation', schema.getMutationType()!],
  ] as const;
  const cases: { body: string }[] = [];
  for (const [kind, root] of roots) {
    for (const field of Object.values(root.getFields()) as GraphQLField<unknown, unknown>[]) {
      const selection = isObjectType(getNamedType(field.type)) ? ' { __typename }' : '';
      const declared = field.args.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
      const used = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
      const document = `${kind}${declared ? ` (${declared})` : ''} { ${field.name}${used ? `(${used})` : ''}${selection} }`;
      for (let round = 0; round < 5; round++) {
        const variables = Object.fromEntries(field.args.map((arg) => [arg.name, randomValue()]));
        cases.push({ body: JSON.stringify({ query: document, variables }) });
      }
      cases.push({
        body: JSON.stringify({
          query: `${kind} { ${field.name}(${field.args.map((arg) => `${arg.name}: ${pick(['1', '"x"', 'null', '[1]', '{a: 1}'])}`).join(', ')})${selection} }`,
        }),
      });
    }
  }
  cases.push(
    { body: JSON.stringify({ query: `{ ${'me { '.repeat(1)}${'__typename '.repeat(3)}}` }) },
    { body: JSON.stringify({ query: '{ a'.repeat(2_000) + ' }'.repeat(2_000) }) },
    {
      body: JSON.stringify({ query: '{ me { name } }', variables: JSON.parse(`{"a": ${deepJson(3_000)}}`) as unknown }),
    },
    { body: JSON.stringify({ query: 'query { me { name } } query { me { id } }' }) },
    { body: JSON.stringify({ query: 42 }) },
    { body: '{"query": "{ me { name } }", "variables": "not an object"}' },
    { body: deepJson(5_000) },
    { body: 'garbage' },
  );
  return cases;
}

interface Prepared {
  method: string;
  path: string;
  body: string | undefined;
  token: string | undefined;
  contentType: string;
  graphql: boolean;
}

/**
 * Every case with its token and content type, drawn from the seeded generator in one fixed order
 * (so a seed always yields the same requests), before any is sent.
 */
async function prepareAll(): Promise<Prepared[]> {
  const prepared: Prepared[] = [];
  for (const { method, path, body } of restCases()) {
    const token = await tokenForCase();
    prepared.push({
      method,
      path,
      body,
      token,
      contentType: pick(['application/json', 'application/json', 'text/plain']),
      graphql: false,
    });
  }
  for (const { body } of graphqlCases()) {
    prepared.push({
      method: 'POST',
      path: '/graphql',
      body,
      token: await tokenForCase(),
      contentType: 'application/json',
      graphql: true,
    });
  }
  return prepared;
}

/** Requests in flight at once: enough to overlap the carriers' retry back-off, few enough for two cores. */
const CONCURRENCY = 4;

async function runAll(allowed: (status: number) => boolean): Promise<{ count: number; failures: Answer[] }> {
  const prepared = await prepareAll();
  const failures: Answer[] = [];
  let next = 0;
  const worker = async () => {
    while (next < prepared.length) {
      const { method, path, body, token, contentType, graphql } = prepared[next++]!;
      const answer = await send(method, path, body, token, contentType);
      if (answer.status >= 500 && !allowed(answer.status)) failures.push(answer);
      if (!graphql) continue;
      const errors =
        (JSON.parse(answer.body.length < 300 ? answer.body : '{}') as { errors?: { message?: string }[] }).errors ?? [];
      // A masked resolver crash is an internal error even when the response status is 200.
      if (errors.some((error) => error.message === 'Unexpected error.'))
        failures.push({ ...answer, what: `masked error: ${answer.what}` });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { count: prepared.length, failures };
}

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.plan({ planId: 'BASIC', name: 'Basic', carrierPlanId: 'BASIC1GB' });
  superToken = (await gateway.user({ superuser: true, plans: ['BASIC'] })).token;
});

afterAll(async () => {
  await gateway?.close();
});

describe(`fuzz (seed ${SEED}; replay with FUZZ_SEED=${SEED})`, () => {
  it('answers hundreds of malformed REST and GraphQL requests without a 5xx', async () => {
    const { count, failures } = await runAll(() => false);
    expect(count).toBeGreaterThan(400);
    expect(failures).toEqual([]);
    expect((await send('GET', '/healthz', undefined, undefined)).status).toBe(200);
  }, 240_000);

  it("answers no 5xx but 503 when the carriers misbehave (a fault is the spec's 400)", async () => {
    const faults = { latency_ms: 0, error_rate: 0.3, drop_rate: 0.1, garbage_rate: 0.1 };
    for (const url of Object.values(gateway.sandboxes.urls)) {
      await fetch(`${url}/_sandbox/faults`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(faults),
      });
    }
    try {
      const { count, failures } = await runAll((status) => status === 503);
      expect(count).toBeGreaterThan(400);
      expect(failures).toEqual([]);
    } finally {
      for (const url of Object.values(gateway.sandboxes.urls)) {
        await fetch(`${url}/_sandbox/faults`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ latency_ms: 0, error_rate: 0, drop_rate: 0, garbage_rate: 0 }),
        });
      }
    }
  }, 240_000);
});
