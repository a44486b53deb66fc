// The direct GraphQL lane (src/graphql/direct-execution.ts) against Yoga: two gateways on the
// same services (database, caches, cost budgets, sandbox carriers), one with the lane and one
// without, answer the same requests; status, headers and body must match byte for byte. The
// access line's `lane` says which lane answered, so each case also checks that the lane took
// what it should (authenticated JSON POSTs of valid queries and mutations) and left the rest
// (refusals, introspection, streams, GET, other media types) to Yoga.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sha256Hex } from '../../src/graphql/persisted-operations.js';
import type { Logger } from '../../src/lib/logger.js';
import { createGateway, type Gateway } from '../../src/server.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { seedDisconnectedLine, seedLine } from '../support/lines.js';

const lanes: string[] = [];
const logger: Logger = {
  debug: () => undefined,
  info: (message, fields) => {
    if (message === 'request' && fields?.route === '/graphql') lanes.push(String(fields.lane ?? 'none'));
  },
  warn: () => undefined,
  error: () => undefined,
};

let gateway: TestGateway;
let yogaOnly: Gateway;
let owner: { id: string; token: string };
let superuser: string;
let own: string;
let othersLine: string;
let disconnected: string;

const T0 = 1_800_000_000_000;

// The allow-list of persisted operations (hash → document), as scripts/persist-operations.mjs writes it.
const listDir = mkdtempSync(join(tmpdir(), 'direct-lane-'));
const LISTED_USAGE = 'query ListedUsage($mdn: String!) { usage(mdn: $mdn) { status planName } }';
const LISTED_ME = 'query ListedMe { me { name } } query ListedWho { me { superuser } }';
const listedHash = sha256Hex(LISTED_USAGE);
const listedMeHash = sha256Hex(LISTED_ME);
writeFileSync(
  join(listDir, 'persisted.json'),
  JSON.stringify({ [listedHash]: LISTED_USAGE, [listedMeHash]: LISTED_ME }),
);
const byHash = (hash: string, version = 1) => ({ persistedQuery: { version, sha256Hash: hash } });

beforeAll(async () => {
  // Low shape limits, so that each can be crossed by a small document.
  gateway = await startGateway({
    logger,
    env: {
      GRAPHQL_MAX_DEPTH: '4',
      GRAPHQL_MAX_ALIASES: '3',
      GRAPHQL_MAX_DIRECTIVES: '3',
      GRAPHQL_MAX_TOKENS: '120',
      PERSISTED_OPERATIONS_FILE: join(listDir, 'persisted.json'),
    },
  });
  const { services } = gateway.app;
  yogaOnly = createGateway(
    { ...services, config: { ...services.config, GRAPHQL_DIRECT_LANE: 'off' } },
    { ready: () => true },
  );
  // The budget's clock stands still and every bucket is full before each request, so both
  // lanes report the same cost and RateLimit headers.
  services.costBudget.now = () => T0;
  const created = await gateway.user({ plans: ['BASIC'] });
  owner = { id: created.user.id, token: created.token };
  superuser = (await gateway.user({ superuser: true })).token;
  const other = await gateway.user();
  const ownLine = await seedLine(gateway, { register: false });
  await services.lines.record({ ...ownLine, owner: owner.id });
  own = ownLine.mdn;
  const othersSeeded = await seedLine(gateway, { register: false });
  await services.lines.record({ ...othersSeeded, owner: other.user.id });
  othersLine = othersSeeded.mdn;
  const gone = await seedDisconnectedLine(gateway, { register: false });
  await services.lines.record({ ...gone, owner: owner.id });
  disconnected = gone.mdn;
}, 60_000);
afterAll(async () => {
  await yogaOnly.close(100);
  await gateway.close();
  rmSync(listDir, { recursive: true, force: true });
});
beforeEach(() => {
  lanes.length = 0;
});
afterEach(() => {
  vi.restoreAllMocks();
});

interface Sent {
  method?: string;
  token?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  path?: string;
}

interface Answered {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const VARYING_HEADERS = new Set(['date', 'x-request-id']);

async function send(target: (request: Request) => Promise<Response>, sent: Sent): Promise<Answered> {
  const { services } = gateway.app;
  await services.costBudget.refund(owner.id, services.costBudget.capacity);
  const token = sent.token === undefined ? owner.token : sent.token;
  const response = await target(
    new Request(`http://gateway.in-process${sent.path ?? '/graphql'}`, {
      method: sent.method ?? 'POST',
      headers: {
        ...(sent.method === 'GET' ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...sent.headers,
      },
      body: sent.method === 'GET' ? undefined : (sent.rawBody ?? JSON.stringify(sent.body)),
    }),
  );
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!VARYING_HEADERS.has(name)) headers[name] = value;
  });
  return { status: response.status, headers, body: await response.text() };
}

/** The same request through both gateways; answers the lane-on gateway's answer and which lane took it. */
async function both(sent: Sent): Promise<{ answer: Answered; lane: string }> {
  const viaYoga = await send(yogaOnly.handle, sent);
  lanes.length = 0;
  const answer = await send(gateway.handle, sent);
  await vi.waitFor(() => expect(lanes).toHaveLength(1));
  expect(answer).toEqual(viaYoga);
  return { answer, lane: lanes[0]! };
}

const usage = 'query Usage($mdn: String!) { usage(mdn: $mdn) { status planName balanceDetails { talk text data } } }';

describe('requests the direct lane answers, exactly as Yoga does', () => {
  it.each([
    ['a query with variables', { query: usage, variables: { mdn: own } }],
    ['a query without variables', { query: '{ me { name superuser } }' }],
    [
      'aliases, fragments, __typename and @skip/@include',
      {
        query:
          'query Q($no: Boolean!) { a: me { ...Who __typename } b: me @skip(if: $no) { name } c: me @include(if: $no) { name } } fragment Who on Me { name superuser }',
        variables: { no: true },
      },
    ],
    [
      'a chosen operation of several',
      {
        query: 'query A { me { name } } query B { me { superuser } }',
        operationName: 'B',
      },
    ],
    [
      'a field refused by the pipeline (another user’s line): data with an error',
      {
        query: usage,
        variables: { mdn: othersLine },
      },
    ],
    ['a carrier refusal, which is data', { query: usage, variables: { mdn: disconnected } }],
    [
      'invalid input refused by the operation (not a GraphQL error): data null for the field',
      {
        query: usage,
        variables: { mdn: '12' },
      },
    ],
    [
      'a dashboard screen with a refused line among them',
      {
        query: 'query S($mdns: [String!]!) { lines(mdns: $mdns) { mdn usage { status } networkStatus { status } } }',
        variables: { mdns: [own, othersLine] },
      },
    ],
    [
      'a mutation’s dry run',
      {
        query:
          'mutation { suspendLine(input: { mdn: "' +
          '5550000000' +
          '", dryRun: true }) { status message dryRun { operation wouldSucceed predictedCode } } }',
      },
    ],
    [
      'a mutation refused for its input',
      {
        query: 'mutation M($mdn: String!) { suspendLine(input: { mdn: $mdn, reason: "x" }) { status message } }',
        variables: { mdn: 'not-an-mdn' },
      },
    ],
    [
      'extensions other than a persisted query',
      {
        query: '{ me { name } }',
        extensions: { tracing: { on: true } },
      },
    ],
    ['null parameters', { query: '{ me { name } }', variables: null, operationName: null, extensions: null }],
    [
      'a listed persisted query by its hash, with variables',
      { extensions: byHash(listedHash), variables: { mdn: own } },
    ],
    [
      'a listed persisted query by its hash, naming one of its operations',
      {
        extensions: byHash(listedMeHash),
        operationName: 'ListedWho',
      },
    ],
    [
      'an empty document and a listed hash: the hash wins (an empty document is none)',
      { query: '', extensions: byHash(listedHash), variables: { mdn: own } },
    ],
    [
      'a document and a hash that is not listed: the document wins',
      {
        query: '{ me { name } }',
        extensions: byHash('0'.repeat(64)),
      },
    ],
  ])('%s', async (_name, body) => {
    const { lane } = await both({ body });
    expect(lane).toBe('direct');
  });

  // The lane executes a compiled query (graphql-jit, src/graphql/compiled-execution.ts); Yoga
  // executes with graphql-js. These are the shapes where two executors could part.
  it.each([
    [
      'nested lists and DateTime leaves',
      {
        query:
          'query U($mdn: String!) { usage(mdn: $mdn) { effectiveDate subscriptions { planCode balances { uom balance validFrom validTo } } } }',
        variables: { mdn: own },
      },
    ],
    [
      'a single value given for a list variable',
      {
        query: 'query S($mdns: [String!]!) { lines(mdns: $mdns) { mdn usage { status } } }',
        variables: { mdns: own },
      },
    ],
    [
      'a variable’s default and @include on a fragment spread',
      { query: 'query Q($inc: Boolean = true) { me { ...N @include(if: $inc) superuser } } fragment N on Me { name }' },
    ],
    [
      'errors in two root fields, in their order',
      {
        query: 'query Q($a: String!, $b: String!) { x: usage(mdn: $a) { status } y: usage(mdn: $b) { status } }',
        variables: { a: othersLine, b: '12' },
      },
    ],
    [
      'two mutations, run one after the other',
      {
        query:
          'mutation { a: suspendLine(input: { mdn: "5550000000", dryRun: true }) { status dryRun { operation } } b: restoreLine(input: { mdn: "5550000000", dryRun: true }) { status dryRun { operation } } }',
      },
    ],
  ])('%s', async (_name, body) => {
    const { lane } = await both({ body });
    expect(lane).toBe('direct');
  });

  it('string literals of a document are data to the compiled query, never code', async () => {
    const marker = globalThis as { __compiledQueryRan?: unknown };
    // A string that would close a quoted literal in generated code, and one that would run in a
    // template literal, with a line separator that ends a line in JavaScript but not in GraphQL.
    const closesQuote = String.raw`\"); globalThis.__compiledQueryRan = 1; (\"`;
    const template = '${globalThis.__compiledQueryRan = 2}`\u2028';
    const { answer, lane } = await both({
      body: { query: `{ a: usage(mdn: "${closesQuote}") { status } b: usage(mdn: "${template}") { status } }` },
    });
    expect(lane).toBe('direct');
    expect(marker.__compiledQueryRan).toBeUndefined();
    // Both are refused as the invalid numbers they are (with data: the fields are null).
    const errors = (JSON.parse(answer.body) as { errors: { extensions: { code: string } }[] }).errors;
    expect(errors.map((error) => error.extensions.code)).toEqual(['BAD_USER_INPUT', 'BAD_USER_INPUT']);
  });

  it('prices a document by its variables on every request where they count, once where they do not', async () => {
    const requested = (answer: Answered) =>
      (JSON.parse(answer.body) as { extensions: { cost: { requestedQueryCost: number } } }).extensions.cost
        .requestedQueryCost;
    const screen = 'query Screen($m: [String!]!) { lines(mdns: $m) { mdn usage { status } networkStatus { status } } }';
    const prices: number[] = [];
    for (const mdns of [[own], [own, own], [own]]) {
      const { answer, lane } = await both({ body: { query: screen, variables: { m: mdns } } });
      expect(lane).toBe('direct');
      prices.push(requested(answer));
    }
    expect(prices).toEqual([2, 4, 2]);
    for (const mdn of [own, '5550000000']) {
      const { answer } = await both({ body: { query: usage, variables: { mdn } } });
      expect(requested(answer)).toBe(1);
    }
  });

  it.each([
    ['none', undefined],
    ['application/graphql-response+json', 'application/graphql-response+json'],
    ['application/json (the legacy media type)', 'application/json'],
    ['*/*', '*/*'],
    ['Apollo Client’s', 'application/graphql-response+json,application/json;q=0.9'],
    ['application/*', 'application/*'],
    [
      'urql’s, which names streams too (a single result is still answered as JSON)',
      'application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed',
    ],
    ['text/html, then application/json', 'text/html, application/json'],
    ['an explicit utf-8 charset', 'application/json; charset=utf-8'],
  ])('Accept: %s', async (_name, accept) => {
    const { answer, lane } = await both({
      body: { query: usage, variables: { mdn: own } },
      headers: accept ? { accept } : {},
    });
    expect(lane).toBe('direct');
    expect(answer.status).toBe(200);
  });

  it.each([
    ['a variable of the wrong type', { mdn: 5 }],
    ['a missing variable', {}],
  ])('%s: refused whole, 400 (200 when answered in application/json)', async (_name, variables) => {
    const body = { query: usage, variables };
    const modern = await both({ body, headers: { accept: 'application/graphql-response+json' } });
    expect(modern.lane).toBe('direct');
    expect(modern.answer.status).toBe(400);
    // A legacy client, and one that says nothing (answered in application/json, as the spec asks).
    for (const headers of [{ accept: 'application/json' }, {}] as Record<string, string>[]) {
      const legacy = await both({ body, headers });
      expect(legacy.lane).toBe('direct');
      expect(legacy.answer.status).toBe(200);
    }
  });

  it('an enum value that does not exist: its suggestion as Yoga gives it', async () => {
    const { answer, lane } = await both({
      body: {
        query:
          'mutation M($s: ServiceScope) { suspendLine(input: { mdn: "5550000000", service: $s, dryRun: true }) { status } }',
        variables: { s: 'VOICES' },
      },
      headers: { accept: 'application/graphql-response+json' },
    });
    expect(lane).toBe('direct');
    expect(answer.status).toBe(400);
  });

  it('an unexpected failure inside a resolver: masked, 200 with data', async () => {
    const settings = gateway.app.services.settings;
    const real = settings.values.bind(settings);
    let calls = 0;
    // Read from the store, not its cache. The persisted-operations check reads settings once
    // before execution on both lanes; the pipeline's read inside the resolver is the one that fails.
    vi.spyOn(settings, 'cachedValues').mockReturnValue(undefined);
    vi.spyOn(settings, 'values').mockImplementation(() =>
      ++calls % 2 === 0 ? Promise.reject(new Error('settings store lost at /var/secret/path')) : real(),
    );
    const { answer, lane } = await both({ body: { query: usage, variables: { mdn: own } } });
    expect(lane).toBe('direct');
    expect(answer.body).not.toContain('/var/secret');
    expect(JSON.parse(answer.body).errors[0].extensions).toEqual({ code: 'INTERNAL_SERVER_ERROR', status: 500 });
  });
  it('a failure before execution (the settings cannot be read): 500 "Unexpected error.", as Yoga answers it', async () => {
    const settings = gateway.app.services.settings;
    // Read from the store, not its cache.
    vi.spyOn(settings, 'cachedValues').mockReturnValue(undefined);
    const fail = () =>
      vi.spyOn(settings, 'values').mockRejectedValueOnce(new Error('settings store lost at /var/secret'));
    fail();
    const viaYoga = await send(yogaOnly.handle, { body: { query: usage, variables: { mdn: own } } });
    fail();
    lanes.length = 0;
    const direct = await send(gateway.handle, { body: { query: usage, variables: { mdn: own } } });
    await vi.waitFor(() => expect(lanes).toEqual(['direct']));
    expect(direct).toEqual(viaYoga);
    expect(direct.status).toBe(500);
    expect(direct.body).not.toContain('/var/secret');
  });
});

describe('requests left to Yoga', () => {
  it.each([
    ['no token', { body: { query: '{ me { name } }' }, token: null }],
    ['a token that does not verify', { body: { query: '{ me { name } }' }, token: 'not.a.token' }],
    ['a syntax error', { body: { query: '{ me { name }' } }],
    ['a validation error (with suggestions)', { body: { query: '{ me { nam } }' } }],
    [
      'over the depth limit',
      {
        body: {
          query:
            'query D($m: String!) { lines(mdns: [$m]) { ...L } } fragment L on Line { usage { subscriptions { balances { uom } } } }',
          variables: { m: own },
        },
      },
    ],
    ['over the alias limit', { body: { query: '{ a: me { name } b: me { name } c: me { name } d: me { name } }' } }],
    [
      'over the directive limit',
      {
        body: {
          query:
            '{ me @skip(if: false) { name @include(if: true) superuser @include(if: true) name @skip(if: false) } }',
        },
      },
    ],
    ['over the token limit', { body: { query: `{ me { ${'name '.repeat(150)}} }` } }],
    ['introspection', { body: { query: '{ __schema { queryType { name } } }' } }],
    ['__type', { body: { query: '{ __type(name: "Query") { name } }' } }],
    ['an operation name that names nothing', { body: { query: '{ me { name } }', operationName: 'Nope' } }],
    ['several operations and no name', { body: { query: 'query A { me { name } } query B { me { name } }' } }],
    [
      'a persisted query by a hash that is not listed',
      {
        body: { extensions: { persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } } },
      },
    ],
    ['a listed hash under another version of the protocol', { body: { extensions: byHash(listedHash, 2) } }],
    ['a listed hash of several operations, naming none', { body: { extensions: byHash(listedMeHash) } }],
    ['neither a document nor a hash', { body: { variables: { mdn: own } } }],
    ['an unknown parameter', { body: { query: '{ me { name } }', batch: true } }],
    ['a body that is not JSON', { rawBody: '{ "query": ' }],
    ['a JSON array (a batch)', { body: [{ query: '{ me { name } }' }] }],
    ['variables that are not an object', { body: { query: usage, variables: [own] } }],
    [
      'variables nested deeper than MAX_JSON_DEPTH',
      {
        body: { query: usage, variables: { mdn: own, deep: JSON.parse('['.repeat(40) + ']'.repeat(40)) } },
      },
    ],
    [
      'over the cost maximum',
      {
        body: {
          query: 'query S($mdns: [String!]!) { lines(mdns: $mdns) { usage { status } networkStatus { status } } }',
          variables: { mdns: Array.from({ length: 60 }, (_, i) => `555${String(i).padStart(7, '0')}`) },
        },
      },
    ],
    ['Accept: text/event-stream', { body: { query: '{ me { name } }' }, headers: { accept: 'text/event-stream' } }],
    ['Accept: multipart/mixed', { body: { query: '{ me { name } }' }, headers: { accept: 'multipart/mixed' } }],
    ['Accept: text/html only (406)', { body: { query: '{ me { name } }' }, headers: { accept: 'text/html' } }],
    [
      'Accept: a charset other than utf-8 only (406)',
      { body: { query: '{ me { name } }' }, headers: { accept: 'application/json; charset=iso-8859-1' } },
    ],
    [
      'Content-Type: application/graphql+json',
      {
        body: { query: '{ me { name } }' },
        headers: { 'content-type': 'application/graphql+json' },
      },
    ],
  ] as [string, Sent][])('%s', async (_name, sent) => {
    const { lane } = await both(sent);
    expect(lane).toBe('yoga');
  });

  it('a caller who cannot be looked up (the directory fails): Yoga answers from the same failure, 500', async () => {
    const { authenticator } = gateway.app.services;
    const fail = () => vi.spyOn(authenticator, 'authenticate').mockRejectedValueOnce(new Error('database unreachable'));
    fail();
    const viaYoga = await send(yogaOnly.handle, { body: { query: '{ me { name } }' } });
    fail();
    lanes.length = 0;
    const answer = await send(gateway.handle, { body: { query: '{ me { name } }' } });
    await vi.waitFor(() => expect(lanes).toEqual(['yoga']));
    expect(answer).toEqual(viaYoga);
    expect(answer.status).toBe(500);
    expect(authenticator.authenticate).toHaveBeenCalledTimes(2); // once per request, whichever lane
  });

  it('a GET', async () => {
    const { lane } = await both({ method: 'GET', path: `/graphql?query=${encodeURIComponent('{ me { name } }')}` });
    expect(lane).toBe('yoga');
  });

  it('a caller whose bucket is empty (429 THROTTLED, nothing taken by the lane)', async () => {
    const { costBudget } = gateway.app.services;
    const screen = {
      query: 'query S($mdns: [String!]!) { lines(mdns: $mdns) { usage { status } } }',
      variables: { mdns: [own] },
    };
    vi.spyOn(costBudget, 'refund').mockImplementation(async () => ({
      maximumAvailable: costBudget.capacity,
      currentlyAvailable: 0,
      restoreRate: costBudget.restoreRate,
    }));
    // Empty the bucket (the clock stands still, so nothing is restored).
    await costBudget.take(owner.id, (await costBudget.take(owner.id, 0)).status.currentlyAvailable);
    lanes.length = 0;
    const answer = await send(gateway.handle, { body: screen });
    await vi.waitFor(() => expect(lanes).toEqual(['yoga']));
    expect(answer.status).toBe(429);
    expect((await costBudget.take(owner.id, 0)).status.currentlyAvailable).toBe(0);
  });

  it('with persisted_operations_only: a listed document is the lane’s, any other Yoga’s (403)', async () => {
    const set = (value: boolean) =>
      gateway.rest('PUT', '/settings/persisted_operations_only', { token: superuser, body: { value: String(value) } });
    await set(true);
    try {
      const refused = await both({ body: { query: '{ me { name } }' } });
      expect([refused.lane, refused.answer.status]).toEqual(['yoga', 403]);
      const bySuperuser = await both({ body: { query: '{ me { superuser } }' }, token: superuser });
      expect(bySuperuser.lane).toBe('direct');
      const listed = await both({ body: { query: LISTED_USAGE, variables: { mdn: own } } });
      expect([listed.lane, listed.answer.status]).toEqual(['direct', 200]);
      const hashed = await both({ body: { extensions: byHash(listedHash), variables: { mdn: own } } });
      expect([hashed.lane, hashed.answer.status]).toEqual(['direct', 200]);
    } finally {
      await set(false);
    }
  });
});
