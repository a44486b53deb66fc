// Regression tests for the GraphQL edge: a request without a valid token is refused whole before
// it is parsed; document limits and the carrier-call cost refuse a request before it runs (400,
// nothing sent to a carrier); GraphQL-over-HTTP statuses; the INTROSPECTION and GRAPHIQL switches;
// client errors logged as such, never as "unexpected error".

import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../src/lib/logger.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

interface LogEntry {
  level: string;
  message: string;
  fields?: Record<string, unknown>;
}

interface Answer {
  status: number;
  headers: Headers;
  body: {
    data?: Record<string, unknown> | null;
    errors?: { message: string; path?: unknown[]; extensions?: Record<string, unknown> }[];
    extensions?: Record<string, unknown>;
  };
}

const logs: LogEntry[] = [];
const logger: Logger = {
  debug: () => undefined,
  // Access lines (one per request, written when its connection closes) are test/observability's.
  info: (message, fields) => void (message !== 'request' && logs.push({ level: 'info', message, fields })),
  warn: (message, fields) => void logs.push({ level: 'warn', message, fields }),
  error: (message, fields) => void logs.push({ level: 'error', message, fields }),
};

let gateway: TestGateway;
let token: string;

beforeAll(async () => {
  gateway = await startTestGateway({ logger });
  ({ token } = await gateway.user());
});
afterAll(() => gateway.close());
afterEach(() => {
  vi.restoreAllMocks();
});

async function post(
  target: TestGateway,
  payload: { query: string; variables?: Record<string, unknown> },
  // Sent as modern clients send it unless given (null: no Accept header at all).
  options: { token?: string; accept?: string | null } = {},
): Promise<Answer> {
  const response = await fetch(`${target.url}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(options.accept === null ? {} : { accept: options.accept ?? 'application/graphql-response+json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    body: JSON.stringify(payload),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Answer['body'] };
}

/** A request refused as a whole: this status, no data, one error with this code and status. */
function expectRefused(answer: Answer, status: number, code: string): void {
  expect({ status: answer.status, hasData: 'data' in answer.body, errors: answer.body.errors?.length }).toEqual({
    status,
    hasData: false,
    errors: 1,
  });
  expect(answer.body.errors![0]!.extensions).toMatchObject({ code, status });
}

/** Spies on every carrier read a refused request could have reached. */
function carrierSpies() {
  const cores = gateway.sandboxes.cores;
  return [
    vi.spyOn(cores['321'], 'getUsage'),
    vi.spyOn(cores.carrier_b, 'getUsage'),
    vi.spyOn(cores['321'], 'getServiceProfile'),
    vi.spyOn(cores.carrier_b, 'getServiceProfile'),
  ];
}

const usageAliases = (count: number) =>
  `{ ${Array.from({ length: count }, (_, i) => `a${i}: usage(mdn: "3215550001") { status }`).join(' ')} }`;
const mdns = (count: number) => Array.from({ length: count }, (_, i) => `32155${String(i).padStart(5, '0')}`);

describe('request limits', () => {
  it('refuses 20,000 aliases without a token as a whole, before parsing: 401, no data, WWW-Authenticate', async () => {
    logs.length = 0;
    const answer = await post(gateway, { query: usageAliases(20_000) });
    expectRefused(answer, 401, 'UNAUTHENTICATED');
    expect(answer.headers.get('www-authenticate')).toBe('Bearer');
    expect(answer.body.errors![0]!.message).toBe('Not authenticated');
    // Refused before the document was parsed: the token cap never saw it.
    expect(logs.map((entry) => entry.fields?.code)).toEqual(['UNAUTHENTICATED']);
  });

  it('refuses 20,000 aliases with a token: 400 QUERY_TOO_LARGE, and no carrier is called', async () => {
    const spies = carrierSpies();
    const answer = await post(gateway, { query: usageAliases(20_000) }, { token });
    expectRefused(answer, 400, 'QUERY_TOO_LARGE');
    expect(answer.body.errors![0]!.message).toMatch(/Token limit of 2000 exceeded/);
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    // The control: the same field, asked once, does reach the carrier.
    const one = await post(gateway, { query: usageAliases(1) }, { token });
    expect(one.status).toBe(200);
    expect(spies.some((spy) => spy.mock.calls.length > 0)).toBe(true);
  });

  it('refuses 5,000 aliases of transaction(id) with a token: 400', async () => {
    const query = `{ ${Array.from({ length: 5_000 }, (_, i) => `t${i}: transaction(id: "X${i}") { status }`).join(' ')} }`;
    const answer = await post(gateway, { query }, { token });
    expectRefused(answer, 400, 'QUERY_TOO_LARGE');
  });

  it('refuses more aliases than GRAPHQL_MAX_ALIASES (30) even under the token cap: 400 TOO_MANY_ALIASES', async () => {
    const answer = await post(
      gateway,
      { query: `{ ${Array.from({ length: 31 }, (_, i) => `t${i}: transaction(id: "X${i}") { status }`).join(' ')} }` },
      { token },
    );
    expectRefused(answer, 400, 'TOO_MANY_ALIASES');
    expect(answer.body.errors![0]!.message).toBe('Aliases limit of 30 exceeded, found 31.');
  });

  it('counts aliases of __typename too: 31 of them are refused, 30 answered', async () => {
    const typenames = (count: number) =>
      `{ ${Array.from({ length: count }, (_, i) => `a${i}: __typename`).join(' ')} }`;
    expectRefused(await post(gateway, { query: typenames(31) }, { token }), 400, 'TOO_MANY_ALIASES');
    const answered = await post(gateway, { query: typenames(30) }, { token });
    expect(answered.status).toBe(200);
    expect(Object.keys(answered.body.data ?? {})).toHaveLength(30);
  });

  it('refuses a selection nested 4,000 deep with 400 (not a stack overflow) and logs it as a client error', async () => {
    logs.length = 0;
    const answer = await post(gateway, { query: `{ ${'me { '.repeat(4_000)}name${' }'.repeat(4_000)} }` }, { token });
    expectRefused(answer, 400, 'QUERY_TOO_LARGE');
    expect(logs.filter((entry) => entry.level === 'error')).toEqual([]);
    expect(logs).toContainEqual({
      level: 'warn',
      message: 'graphql request refused',
      fields: expect.objectContaining({ status: 400, code: 'QUERY_TOO_LARGE', requestId: expect.any(String) }),
    });
  });

  it('refuses a selection deeper than GRAPHQL_MAX_DEPTH (10) within the token cap: 400 QUERY_TOO_DEEP', async () => {
    // No field of this schema nests that deep, so GraphQL's own validation errors come along.
    const answer = await post(gateway, { query: `{ ${'me { '.repeat(11)}name${' }'.repeat(11)} }` }, { token });
    expect({ status: answer.status, hasData: 'data' in answer.body }).toEqual({ status: 400, hasData: false });
    expect(answer.body.errors![0]).toMatchObject({
      message: 'Query depth limit of 10 exceeded, found 12.',
      extensions: { code: 'QUERY_TOO_DEEP', status: 400 },
    });
  });

  it('answers inline fragments nested as deep as the token cap allows (depth 2), never with a 500', async () => {
    // Fragments are free of depth, so only the token cap bounds their nesting: ~390 levels here.
    const levels = 390;
    const query = `{ me { ${'... on Me { '.repeat(levels)}name${' }'.repeat(levels)} } }`;
    const answer = await post(gateway, { query }, { token });
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data).toEqual({ me: { name: expect.any(String) } });
    const over = await post(
      gateway,
      { query: `{ me { ${'... on Me { '.repeat(500)}name${' }'.repeat(500)} } }` },
      { token },
    );
    expectRefused(over, 400, 'QUERY_TOO_LARGE');
  });

  it('counts depth as the result nests, on both lanes: fragments are not levels, their fields are', async () => {
    // Four levels of result written as a client built from colocated fragments writes them:
    // chained named fragments and inline ones, 6 spreads deep (counted as levels, "found 14").
    const screen = `query Screen($mdns: [String!]!) { lines(mdns: $mdns) { ...Row } }
      fragment Row on Line { mdn ...UsageCell }
      fragment UsageCell on Line { ... on Line { usage { ...Balance } } }
      fragment Balance on UsageRecord { status ...Details }
      fragment Details on UsageRecord { ... on UsageRecord { balanceDetails { ...Data } } }
      fragment Data on BalanceDetails { ... on BalanceDetails { data } }`;
    const direct = await post(gateway, { query: screen, variables: { mdns: mdns(1) } }, { token });
    const viaYoga = await fetch(
      `${gateway.url}/graphql?${new URLSearchParams({ query: screen, variables: JSON.stringify({ mdns: mdns(1) }) })}`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    for (const [status, body] of [
      [direct.status, direct.body],
      [viaYoga.status, (await viaYoga.json()) as Answer['body']],
    ] as const) {
      expect(status).toBe(200);
      expect(body.errors ?? []).toEqual([]);
      expect(body.data).toMatchObject({ lines: [{ mdn: mdns(1)[0], usage: { status: expect.any(String) } }] });
    }
    // Fields inside fragments still count: `me`, eleven more through eleven fragments, `name`.
    const chain = Array.from(
      { length: 11 },
      (_, i) => `fragment F${i} on Me { me { ${i < 10 ? `...F${i + 1}` : 'name'} } }`,
    ).join(' ');
    const deep = await post(gateway, { query: `{ me { ...F0 } } ${chain}` }, { token });
    expect(deep.status).toBe(400);
    expect(deep.body.errors![0]).toMatchObject({
      message: 'Query depth limit of 10 exceeded, found 13.',
      extensions: { code: 'QUERY_TOO_DEEP', status: 400 },
    });
  });

  it('refuses more directives than GRAPHQL_MAX_DIRECTIVES (20): 400 TOO_MANY_DIRECTIVES', async () => {
    const answer = await post(
      gateway,
      { query: `{ me { ${'__typename @include(if: true) '.repeat(21)} } }` },
      { token },
    );
    expectRefused(answer, 400, 'TOO_MANY_DIRECTIVES');
  });

  it('lets a full dashboard query through the limits', async () => {
    const everything =
      'mdn carrier usage { status balanceDetails { talk text data } subscriptions { balances { uom balance } } } service { status } networkStatus { status } simDetails { status } esimProfile { status } activePlan { status } products { status products { code } } account { status lines { mdn } } carrierUsage { status usageRecords { type } }';
    const answer = await post(
      gateway,
      { query: `query ($mdns: [String!]!) { lines(mdns: $mdns) { ${everything} } }`, variables: { mdns: mdns(10) } },
      { token },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.errors?.filter((error) => error.extensions?.code !== 'RATE_LIMITED') ?? []).toEqual([]);
    expect((answer.body.data?.lines as unknown[]).length).toBe(10);
  });

  it('answers /healthz while a huge request is being refused', async () => {
    const huge = post(gateway, { query: usageAliases(20_000) }, { token });
    const health = await fetch(`${gateway.url}/healthz`);
    expect(health.status).toBe(200);
    expectRefused(await huge, 400, 'QUERY_TOO_LARGE');
  });
});

describe('carrier-call cost (GRAPHQL_MAX_COST, default 100)', () => {
  it('lets lines of 50 MDNs × 2 carrier fields (cost 100) run', async () => {
    const query = `{ lines(mdns: [${mdns(50)
      .map((mdn) => `"${mdn}"`)
      .join(', ')}]) { mdn usage { status } networkStatus { status } } }`;
    const answer = await post(gateway, { query }, { token });
    expect(answer.status).toBe(200);
    expect(answer.body.errors?.map((error) => error.extensions?.code) ?? []).not.toContain('QUERY_TOO_COSTLY');
    expect((answer.body.data?.lines as unknown[]).length).toBe(50);
  });

  it('refuses lines of 50 MDNs × 3 carrier fields (cost 150) before calling any carrier, naming the cost', async () => {
    const spies = carrierSpies();
    const query = `{ lines(mdns: [${mdns(50)
      .map((mdn) => `"${mdn}"`)
      .join(', ')}]) { mdn usage { status } service { status } networkStatus { status } } }`;
    const answer = await post(gateway, { query }, { token });
    expectRefused(answer, 400, 'QUERY_TOO_COSTLY');
    expect(answer.body.errors![0]!.message).toMatch(/cost 150 exceeds the maximum of 100/);
    expect(answer.body.errors![0]!.extensions).toMatchObject({ cost: 150, maxCost: 100 });
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });

  it('counts MDNs given in variables, and fields reached through fragments and aliases', async () => {
    const query =
      'query ($mdns: [String!]!) { lines(mdns: $mdns) { ...Panel again: usage { status } } } fragment Panel on Line { usage { status } networkStatus { status } }';
    const refused = await post(gateway, { query, variables: { mdns: mdns(34) } }, { token });
    expectRefused(refused, 400, 'QUERY_TOO_COSTLY');
    expect(refused.body.errors![0]!.extensions).toMatchObject({ cost: 102 });
    const passes = await post(gateway, { query, variables: { mdns: mdns(3) } }, { token });
    expect(passes.status).toBe(200);
    expect((passes.body.data?.lines as unknown[]).length).toBe(3);
  });

  it('does not price what @skip or @include leave out: a screen toggling a panel off fits the maximum', async () => {
    const query =
      'query ($mdns: [String!]!, $withService: Boolean!) { lines(mdns: $mdns) { mdn usage { status } service @include(if: $withService) { status } networkStatus @skip(if: false) { status } } }';
    const spies = carrierSpies();
    const refused = await post(gateway, { query, variables: { mdns: mdns(50), withService: true } }, { token });
    expectRefused(refused, 400, 'QUERY_TOO_COSTLY');
    expect(refused.body.errors![0]!.extensions).toMatchObject({ cost: 150 });
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    const panelOff = await post(gateway, { query, variables: { mdns: mdns(50), withService: false } }, { token });
    expect(panelOff.status).toBe(200);
    expect(panelOff.body.errors?.map((error) => error.extensions?.code) ?? []).not.toContain('QUERY_TOO_COSTLY');
    const lines = panelOff.body.data?.lines as Record<string, unknown>[];
    expect(lines).toHaveLength(50);
    expect(lines[0]).not.toHaveProperty('service');
    expect(panelOff.body.extensions).toMatchObject({ cost: { requestedQueryCost: 100 } });
  });
});

describe('GraphQL over HTTP', () => {
  const JSON_TYPE = 'application/json';
  const MODERN = 'application/graphql-response+json';
  it.each([
    [undefined, JSON_TYPE],
    ['*/*', JSON_TYPE],
    [JSON_TYPE, JSON_TYPE],
    [MODERN, MODERN],
    // Equal quality: the first listed, as Yoga reads it.
    [`${JSON_TYPE}, ${MODERN}`, JSON_TYPE],
    [`${MODERN}, ${JSON_TYPE};q=0.9`, MODERN],
  ])(
    'answers with accept %s in %s: partial errors 200, anonymous 401, request errors 400 (200 when the answer is application/json)',
    async (given, mediaType) => {
      const accept = given ?? null;
      const partial = await post(gateway, { query: '{ me { name } settings { key } }' }, { token, accept });
      expect(partial.status).toBe(200);
      expect(partial.headers.get('content-type')).toBe(`${mediaType}; charset=utf-8`);
      expect(partial.body.data).toMatchObject({ me: { name: expect.any(String) }, settings: null });
      expect(partial.body.errors).toEqual([
        expect.objectContaining({ path: ['settings'], extensions: { code: 'FORBIDDEN', status: 403 } }),
      ]);

      const anonymous = await post(gateway, { query: '{ me { name } }' }, { accept });
      expectRefused(anonymous, 401, 'UNAUTHENTICATED');
      expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');

      // The spec's SHOULD for an answer in application/json (the legacy type: a client that
      // accepts nothing newer, or says nothing): request errors are 200, still without data and
      // with extensions.status 400; an answer in the modern type has the 400. Never a 400 in
      // application/json, which an intermediary could take for its own error page.
      const requestErrorStatus = mediaType === JSON_TYPE ? 200 : 400;
      const parse = await post(gateway, { query: '{ me { ' }, { token, accept });
      expect(parse.headers.get('content-type')).toBe(`${mediaType}; charset=utf-8`);
      expect(parse.status).toBe(requestErrorStatus);
      expect(parse.body.data).toBeUndefined();
      expect(parse.body.errors![0]!.extensions).toMatchObject({ code: 'GRAPHQL_PARSE_FAILED', status: 400 });
      const invalid = await post(gateway, { query: '{ me { nope } }' }, { token, accept });
      expect(invalid.status).toBe(requestErrorStatus);
      expect(invalid.body.data).toBeUndefined();
      expect(invalid.body.errors![0]!.extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', status: 400 });
      // Variables that do not coerce (answered by the direct lane's execution).
      const coercion = await post(
        gateway,
        { query: 'query ($m: String!) { usage(mdn: $m) { status } }', variables: { m: 5 } },
        { token, accept },
      );
      expect({ status: coercion.status, type: coercion.headers.get('content-type') }).toEqual({
        status: requestErrorStatus,
        type: `${mediaType}; charset=utf-8`,
      });
      expect(coercion.body.data).toBeUndefined();
      expect(coercion.body.errors![0]!.extensions).toMatchObject({ status: 400 });
      // A document whose operation cannot be chosen is a request error too.
      for (const body of [
        { query: 'query A { me { name } } query B { me { name } }', operationName: 'C' },
        { query: 'query A { me { name } } query B { me { name } }' },
        { query: 'fragment F on Query { me { name } }' },
      ]) {
        const unchosen = await post(gateway, body, { token, accept });
        expect(unchosen.status, JSON.stringify(body)).toBe(requestErrorStatus);
        expect(unchosen.body.data).toBeUndefined();
        expect(unchosen.body.errors![0]!.extensions).toMatchObject({ status: 400 });
      }
    },
  );

  it('refuses a body Yoga cannot parse with 415 and an error saying what to send; the types it parses still work', async () => {
    const sent = (contentType: string, body: string, accept?: string) =>
      fetch(`${gateway.url}/graphql`, {
        method: 'POST',
        headers: {
          'content-type': contentType,
          authorization: `Bearer ${token}`,
          ...(accept ? { accept } : {}),
        },
        body,
      });
    for (const [contentType, accept, answeredIn] of [
      ['text/plain', undefined, 'application/json'],
      ['application/xml; charset=utf-8', MODERN, MODERN],
    ] as const) {
      const refused = await sent(contentType, JSON.stringify({ query: '{ me { name } }' }), accept);
      expect(refused.status).toBe(415);
      expect(refused.headers.get('content-type')).toBe(`${answeredIn}; charset=utf-8`);
      const { errors } = (await refused.json()) as Answer['body'];
      expect(errors).toEqual([
        {
          message: expect.stringMatching(
            /^Unsupported Content-Type "(text\/plain|application\/xml)": send a POST of application\/json/,
          ),
          extensions: { code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 },
        },
      ]);
    }
    const form = await sent(
      'application/x-www-form-urlencoded',
      new URLSearchParams({ query: '{ me { name } }' }).toString(),
    );
    expect(form.status).toBe(200);
    expect(((await form.json()) as Answer['body']).data).toEqual({ me: { name: expect.any(String) } });
    const text = await sent('application/graphql', '{ me { name } }');
    expect(text.status).toBe(200);
    await text.arrayBuffer();
  });

  it('reads the quality values of Accept: a type given q=0 is never answered in', async () => {
    const refusesModern = 'application/graphql-response+json;q=0, application/json';
    const answered = await post(gateway, { query: '{ me { name } }' }, { token, accept: refusesModern });
    expect(answered.status).toBe(200);
    expect(answered.headers.get('content-type')).toContain('application/json');
    expect(answered.headers.get('content-type')).not.toContain('graphql-response');
    // Only the legacy type accepted: a request error is 200, as for `accept: application/json`.
    expect((await post(gateway, { query: '{ me { ' }, { token, accept: refusesModern })).status).toBe(200);

    const prefersModern = 'application/json;q=0.5, application/graphql-response+json';
    const preferred = await post(gateway, { query: '{ me { ' }, { token, accept: prefersModern });
    expect(preferred.headers.get('content-type')).toContain('application/graphql-response+json');
    expect(preferred.status).toBe(400);

    const nothing = await fetch(`${gateway.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json;q=0', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: '{ me { name } }' }),
    });
    expect(nothing.status).toBe(406);
    await nothing.arrayBuffer();
  });

  it('logs refusals as REST does: warn for 401, 403 and 429, whole or of fields; info for the others', async () => {
    logs.length = 0;
    await post(gateway, { query: '{ me { name } }' });
    await post(gateway, { query: '{ me { name } settings { key } }' }, { token });
    await post(gateway, { query: '{ me { nope } }' }, { token });
    const { token: fresh } = await gateway.user();
    await post(gateway, { query: '{ me { name } usage(mdn: "12ab") { status } }' }, { token: fresh });
    expect(logs).toEqual([
      {
        level: 'warn',
        message: 'graphql request refused',
        fields: expect.objectContaining({ status: 401, code: 'UNAUTHENTICATED' }),
      },
      { level: 'warn', message: 'graphql fields refused', fields: expect.objectContaining({ codes: ['FORBIDDEN'] }) },
      {
        level: 'info',
        message: 'graphql request refused',
        fields: expect.objectContaining({ status: 400, code: 'GRAPHQL_VALIDATION_FAILED' }),
      },
      {
        level: 'info',
        message: 'graphql fields refused',
        fields: expect.objectContaining({ codes: ['BAD_USER_INPUT'] }),
      },
    ]);
  });

  it('answers a field refused for its input with 200 and BAD_USER_INPUT, status 422 (as REST)', async () => {
    const { token: fresh } = await gateway.user(); // usage's rate limit is per user
    const answer = await post(gateway, { query: '{ usage(mdn: "12ab") { status } }' }, { token: fresh });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ usage: null });
    expect(answer.body.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', status: 422 });
    // No internal `http` extension leaks to the client.
    expect(answer.body.errors![0]!.extensions).not.toHaveProperty('http');
  });

  it('refuses a variable that does not coerce with 400 BAD_USER_INPUT, logged at info, not as unexpected', async () => {
    logs.length = 0;
    const answer = await post(
      gateway,
      { query: 'query ($mdn: String!) { usage(mdn: $mdn) { status } }', variables: { mdn: 5 } },
      { token, accept: MODERN },
    );
    expectRefused(answer, 400, 'BAD_USER_INPUT');
    expect(logs.filter((entry) => entry.level === 'error')).toEqual([]);
    expect(logs).toContainEqual({
      level: 'info',
      message: 'graphql request refused',
      fields: expect.objectContaining({ status: 400, code: 'BAD_USER_INPUT' }),
    });
  });
});

describe('unexpected failures', () => {
  it('masks a field that fails unexpectedly as "Unexpected error." (500 on the error, 200 with data) and logs it with the request id', async () => {
    logs.length = 0;
    const settings = gateway.app.services.settings;
    const values = settings.values.bind(settings);
    // Read from the store, not its cache. The first read is the whole request's (may a document
    // be sent: persisted_operations_only), the second the field's.
    vi.spyOn(settings, 'cachedValues').mockReturnValue(undefined);
    vi.spyOn(settings, 'values')
      .mockImplementationOnce(values)
      .mockRejectedValueOnce(new Error('settings store lost at /var/secret/path'));
    const answer = await post(gateway, { query: '{ usage(mdn: "3215550001") { status } }' }, { token });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      data: { usage: null },
      errors: [
        {
          message: 'Unexpected error.',
          locations: [{ line: 1, column: 3 }],
          path: ['usage'],
          extensions: { code: 'INTERNAL_SERVER_ERROR', status: 500 },
        },
      ],
      extensions: { cost: expect.objectContaining({ requestedQueryCost: 1, actualQueryCost: 0 }) },
    });
    expect(logs).toContainEqual({
      level: 'error',
      message: 'unexpected error',
      fields: expect.objectContaining({
        requestId: expect.any(String),
        path: 'usage',
        err: expect.objectContaining({ message: 'settings store lost at /var/secret/path' }),
      }),
    });
  });

  it('answers 500 without data when the caller cannot be looked up, and logs it', async () => {
    logs.length = 0;
    vi.spyOn(gateway.app.services.authenticator, 'authenticate').mockRejectedValueOnce(
      new Error('database unreachable'),
    );
    const answer = await post(gateway, { query: '{ me { name } }' }, { token });
    expectRefused(answer, 500, 'INTERNAL_SERVER_ERROR');
    expect(answer.body.errors![0]!.message).toBe('Unexpected error.');
    expect(logs).toContainEqual({
      level: 'error',
      message: 'unexpected error',
      fields: expect.objectContaining({ err: expect.objectContaining({ message: 'database unreachable' }) }),
    });
  });
});

describe('introspection, suggestions and GraphiQL', () => {
  const introspection = { query: '{ __schema { queryType { name } } }' };

  it('refuses anonymous introspection by default and answers it with a token; suggestions show with a token', async () => {
    expectRefused(await post(gateway, introspection), 401, 'UNAUTHENTICATED');
    const allowed = await post(gateway, introspection, { token });
    expect(allowed).toMatchObject({ status: 200, body: { data: { __schema: { queryType: { name: 'Query' } } } } });
    const typo = await post(gateway, { query: '{ mee { name } }' }, { token });
    expect(typo.body.errors![0]!.message).toMatch(/Did you mean "me"\?/);
  });

  it('serves GraphiQL without persisting headers, showing where the token goes', async () => {
    const response = await fetch(`${gateway.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).not.toContain('"shouldPersistHeaders":true');
    expect(html).toContain('"shouldPersistHeaders":false');
    expect(html).toContain(JSON.stringify({ headers: '{"Authorization": "Bearer <token>"}' }).slice(1, -1));
  });

  it("serves GraphiQL with /docs's protective headers, running only its own inline script", async () => {
    for (const method of ['GET', 'HEAD']) {
      const response = await fetch(`${gateway.url}/graphql`, { method, headers: { accept: 'text/html' } });
      expect(response.status, method).toBe(200);
      expect(response.headers.get('x-frame-options'), method).toBe('DENY');
      expect(response.headers.get('referrer-policy'), method).toBe('no-referrer');
      expect(response.headers.get('x-content-type-options'), method).toBe('nosniff');
      expect(response.headers.get('content-security-policy'), method).toBeTruthy();
    }
    const response = await fetch(`${gateway.url}/graphql`, { headers: { accept: 'text/html' } });
    const html = await response.text();
    const directives = new Map(
      response.headers
        .get('content-security-policy')!
        .split(';')
        .map((directive) => directive.trim().split(/\s+/))
        .map(([name, ...sources]) => [name!, sources]),
    );
    for (const [name, sources] of [
      ['default-src', ["'self'"]],
      ['connect-src', ["'self'"]],
      ['object-src', ["'none'"]],
      ['base-uri', ["'none'"]],
      ['frame-ancestors', ["'none'"]],
    ] as const)
      expect(directives.get(name), name).toEqual(sources);
    // Every inline script of the page is allowed by its hash, and nothing else inline or eval'd.
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
    expect(inline.length).toBeGreaterThan(0);
    const scriptSources = directives.get('script-src')!;
    for (const script of inline)
      expect(scriptSources).toContain(`'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    expect(scriptSources).not.toContain("'unsafe-inline'");
    expect(scriptSources).not.toContain("'unsafe-eval'");
    // What the editor needs: its workers are started from blob: URLs the page makes, its styles
    // are inserted inline, its fonts are data: URLs.
    expect(html).toContain('URL.createObjectURL(blob)');
    expect(directives.get('worker-src')).toContain('blob:');
    expect(directives.get('style-src')).toContain("'unsafe-inline'");
    expect(html).toMatch(/@font-face\{[^}]*url\(data:/);
    expect(directives.get('font-src')).toContain('data:');
  });

  describe('INTROSPECTION=public', () => {
    let open: TestGateway;
    beforeAll(async () => {
      open = await startTestGateway({ env: { INTROSPECTION: 'public' } });
    });
    afterAll(() => open.close());

    it('answers anonymous introspection, but refuses anything else sent with it', async () => {
      expect(await post(open, introspection)).toMatchObject({
        status: 200,
        body: { data: { __schema: { queryType: { name: 'Query' } } } },
      });
      const fragment = await post(open, {
        query: '{ ...Meta } fragment Meta on Query { __typename __type(name: "Line") { name } }',
      });
      expect(fragment).toMatchObject({
        status: 200,
        body: { data: { __typename: 'Query', __type: { name: 'Line' } } },
      });
      expectRefused(
        await post(open, { query: '{ __schema { queryType { name } } me { name } }' }),
        401,
        'UNAUTHENTICATED',
      );
      expectRefused(
        await post(open, { query: '{ ...Mixed } fragment Mixed on Query { __typename me { name } }' }),
        401,
        'UNAUTHENTICATED',
      );
    });
  });

  describe('INTROSPECTION=off, GRAPHIQL=off', () => {
    let closed: TestGateway;
    let closedToken: string;
    beforeAll(async () => {
      closed = await startTestGateway({ env: { INTROSPECTION: 'off', GRAPHIQL: 'off' } });
      ({ token: closedToken } = await closed.user());
    });
    afterAll(() => closed.close());

    it('refuses introspection even with a token, and hides suggestions', async () => {
      const refused = await post(closed, introspection, { token: closedToken });
      expect(refused.status).toBe(400);
      expect(refused.body.errors![0]!.extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', status: 400 });
      const typo = await post(closed, { query: '{ mee { name } }' }, { token: closedToken });
      expect(typo.status).toBe(400);
      expect(typo.body.errors![0]!.message).not.toMatch(/Did you mean/);
      expect(typo.body.errors![0]!.message).toMatch(/^Cannot query field "mee" on type "Query"/);
      // A variable's enum value: GraphQL suggests at coercion, after validation.
      const enumTypo = await post(
        closed,
        {
          query: 'mutation ($input: SetVoicemailLanguageInput!) { setVoicemailLanguage(input: $input) { status } }',
          variables: { input: { mdn: '3215550001', language: 'ENGLISH' } },
        },
        { token: closedToken },
      );
      expectRefused(enumTypo, 400, 'BAD_USER_INPUT');
      expect(enumTypo.body.errors![0]!.message).toMatch(/"ENGLISH" does not exist in "VoicemailLanguage" enum/);
      expect(enumTypo.body.errors![0]!.message).not.toMatch(/Did you mean/);
    });

    it('does not serve GraphiQL: 404', async () => {
      const response = await fetch(`${closed.url}/graphql`, { headers: { accept: 'text/html' } });
      expect(response.status).toBe(404);
      expect(await response.text()).not.toMatch(/graphiql/i);
    });
  });
});
