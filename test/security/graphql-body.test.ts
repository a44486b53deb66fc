// A GraphQL request's body is parsed at most once, and only when it may be: without a valid
// token the request is refused (401) before its body is parsed, whatever the body holds; with
// one, JSON nested deeper than MAX_JSON_DEPTH or an object of more than MAX_JSON_KEYS keys is
// refused (400) from one scan of the text, before JSON.parse sees it. Every content type Yoga
// reads JSON from (application/json, application/graphql+json, a form body, a GET's query
// string), on both lanes: the gateway with its direct lane, and one without it on the same
// services. "Not parsed" is seen from inside the process: the gateway answers in-process, and
// JSON.parse is watched (never replaced) for the texts sent.

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_JSON_KEYS } from '../../src/graphql/request-params.js';
import { createGateway } from '../../src/server.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

let gateway: TestGateway;
let yogaOnly: (request: Request) => Promise<Response>;
let closeYogaOnly: () => Promise<void>;
let publicSchema: TestGateway;
let token: string;

beforeAll(async () => {
  gateway = await startGateway();
  const { services } = gateway.app;
  const withoutLane = createGateway(
    { ...services, config: { ...services.config, GRAPHQL_DIRECT_LANE: 'off' } },
    { ready: () => true },
  );
  yogaOnly = withoutLane.handle;
  closeYogaOnly = () => withoutLane.close(100);
  publicSchema = await startGateway({ env: { INTROSPECTION: 'public' } });
  ({ token } = await gateway.user());
}, 60_000);
afterAll(async () => {
  await closeYogaOnly();
  await publicSchema.close();
  await gateway.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const ME = '{ me { name } }';
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const keys = (count: number) => `{${Array.from({ length: count }, (_, i) => `"k${i}":1`).join(',')}}`;
/** The audit's body: `variables` nested 499,000 deep, 998 KB (just under MAX_BODY_BYTES). */
const AUDIT_VARIABLES = `{"a":${nested(499_000)}}`;

type Kind = 'application/json' | 'application/graphql+json' | 'application/x-www-form-urlencoded' | 'GET';
const POSTED: Kind[] = ['application/json', 'application/graphql+json', 'application/x-www-form-urlencoded'];

interface Sent {
  request: Request;
  /** The texts of the request that JSON.parse would be given: the JSON body, or `variables` of a form or GET. */
  json: string;
}

/** `query` and `variables` (JSON text, sent as it is) as a request of `kind`. */
function graphqlRequest(kind: Kind, variables: string, options: { token?: string; query?: string } = {}): Sent {
  const query = options.query ?? ME;
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const url = 'http://gateway.in-process/graphql';
  if (kind === 'GET') {
    const request = new Request(`${url}?query=${encodeURIComponent(query)}&variables=${variables}`, { headers });
    // As the gateway reads the query string back.
    return { request, json: new URL(request.url).searchParams.get('variables')! };
  }
  // A form body carries the JSON text unencoded (URLSearchParams reads `[`, `{`, `"` and `:` as they are).
  const form = kind === 'application/x-www-form-urlencoded';
  const body = form
    ? `query=${encodeURIComponent(query)}&variables=${variables}`
    : `{"query":${JSON.stringify(query)},"variables":${variables}}`;
  return {
    request: new Request(url, { method: 'POST', headers: { ...headers, 'content-type': kind }, body }),
    json: form ? variables : body,
  };
}

interface Answer {
  status: number;
  headers: Headers;
  body: { data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] };
  /** How many times JSON.parse was given one of the request's JSON texts while it was answered. */
  parsed: number;
}

async function send(handle: (request: Request) => Promise<Response>, sent: Sent): Promise<Answer> {
  const parse = vi.spyOn(JSON, 'parse');
  try {
    const response = await handle(sent.request);
    const text = await response.text();
    const parsed = parse.mock.calls.filter(([given]) => given === sent.json).length;
    parse.mockRestore();
    return { status: response.status, headers: response.headers, body: JSON.parse(text) as Answer['body'], parsed };
  } finally {
    parse.mockRestore();
  }
}

const lanes = () =>
  [
    ['with the direct lane', gateway.handle],
    ['without it (Yoga only)', yogaOnly],
  ] as const;

const UNAUTHENTICATED = {
  errors: [{ message: 'Not authenticated', extensions: { code: 'UNAUTHENTICATED', status: 401 } }],
};
const TOO_DEEP = {
  errors: [{ message: 'JSON nests more than 32 levels deep', extensions: { code: 'BAD_REQUEST', status: 400 } }],
};
const TOO_MANY_KEYS = {
  errors: [
    {
      message: `A JSON object has more than ${MAX_JSON_KEYS} keys`,
      extensions: { code: 'BAD_REQUEST', status: 400 },
    },
  ],
};

describe('without a valid token: 401 before the body is parsed, whatever it holds', () => {
  const bodies: [string, string][] = [
    ["the audit's body, nested 499,000 deep", AUDIT_VARIABLES],
    ['variables nested 40 deep', `{"a":${nested(40)}}`],
    ['60,000 keys', keys(60_000)],
    ['249,000 empty objects', `{"a":[${Array(249_000).fill('{}').join(',')}]}`],
    ['text that is not JSON', '{"a": ['],
    ['ordinary variables', '{"a":1}'],
  ];

  for (const kind of POSTED) {
    for (const [name, variables] of bodies) {
      it(`${kind}: ${name}`, async () => {
        for (const [lane, handle] of lanes()) {
          const answer = await send(handle, graphqlRequest(kind, variables));
          expect(answer.status, lane).toBe(401);
          expect(answer.headers.get('www-authenticate'), lane).toBe('Bearer');
          expect(answer.body, lane).toEqual(UNAUTHENTICATED);
          expect(answer.parsed, lane).toBe(0);
        }
      });
    }
  }

  it('GET: variables nested 1,000 deep, or not JSON at all', async () => {
    for (const variables of [`{"a":${nested(1_000)}}`, '{"a": [']) {
      for (const [lane, handle] of lanes()) {
        const answer = await send(handle, graphqlRequest('GET', variables));
        expect(answer.status, lane).toBe(401);
        expect(answer.body, lane).toEqual(UNAUTHENTICATED);
        expect(answer.parsed, lane).toBe(0);
      }
    }
  });

  it('an invalid token: refused the same way, saying why', async () => {
    for (const kind of POSTED) {
      for (const [lane, handle] of lanes()) {
        const answer = await send(handle, graphqlRequest(kind, AUDIT_VARIABLES, { token: 'not-a-token' }));
        expect(answer.status, `${kind} ${lane}`).toBe(401);
        expect(answer.headers.get('www-authenticate')).toBe('Bearer');
        expect(answer.body.errors![0]!.extensions).toEqual({ code: 'UNAUTHENTICATED', status: 401 });
        expect(answer.parsed, `${kind} ${lane}`).toBe(0);
      }
    }
  });

  it('a content type nothing parses stays 415, decided from the headers', async () => {
    const answer = await send(gateway.handle, {
      request: new Request('http://gateway.in-process/graphql', {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: `{"query":"${ME}","variables":${AUDIT_VARIABLES}}`,
      }),
      json: '',
    });
    expect(answer.status).toBe(415);
    expect(answer.body.errors![0]!.extensions!.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('with a valid token: too deep or too many keys is refused from the text, never parsed', () => {
  for (const kind of POSTED) {
    it(`${kind}: the audit's body, and 60,000 keys`, async () => {
      for (const [lane, handle] of lanes()) {
        const deep = await send(handle, graphqlRequest(kind, AUDIT_VARIABLES, { token }));
        expect(deep.status, lane).toBe(400);
        expect(deep.body, lane).toEqual(TOO_DEEP);
        expect(deep.parsed, lane).toBe(0);

        const wide = await send(handle, graphqlRequest(kind, keys(60_000), { token }));
        expect(wide.status, lane).toBe(400);
        expect(wide.body, lane).toEqual(TOO_MANY_KEYS);
        expect(wide.parsed, lane).toBe(0);
      }
    });
  }

  it('GET: variables nested 1,000 deep, and an object of more keys than allowed', async () => {
    for (const [lane, handle] of lanes()) {
      const deep = await send(handle, graphqlRequest('GET', `{"a":${nested(1_000)}}`, { token }));
      expect(deep.status, lane).toBe(400);
      expect(deep.body, lane).toEqual(TOO_DEEP);
      expect(deep.parsed, lane).toBe(0);

      const wide = await send(handle, graphqlRequest('GET', keys(MAX_JSON_KEYS + 1), { token }));
      expect(wide.status, lane).toBe(400);
      expect(wide.body, lane).toEqual(TOO_MANY_KEYS);
      expect(wide.parsed, lane).toBe(0);
    }
  });

  it('60,000 keys in an input object are refused before graphql-js would quote them in every error', async () => {
    const mutation = 'mutation ($i: SuspendLineInput!) { suspendLine(input: $i) { status } }';
    const input = `{"i":${keys(60_000).slice(0, -1)},"mdn":"3215550001"}}`;
    for (const [lane, handle] of lanes()) {
      const answer = await send(handle, graphqlRequest('application/json', input, { token, query: mutation }));
      expect(answer.status, lane).toBe(400);
      expect(answer.body, lane).toEqual(TOO_MANY_KEYS);
      expect(answer.parsed, lane).toBe(0);
    }
  });
});

describe('what is allowed is answered as before, each text parsed once', () => {
  const kinds: Kind[] = [...POSTED, 'GET'];
  const allowed: [string, string][] = [
    // MAX_JSON_DEPTH counts from `variables` itself: the object and 31 arrays.
    ['variables nested exactly MAX_JSON_DEPTH (32) deep', `{"a":${nested(31)}}`],
    [`an object of exactly MAX_JSON_KEYS (${MAX_JSON_KEYS}) keys`, keys(MAX_JSON_KEYS)],
    ['brackets and colons inside strings', JSON.stringify({ a: `${'['.repeat(100)}:{:`.repeat(40) })],
  ];
  for (const kind of kinds) {
    for (const [name, variables] of allowed) {
      it(`${kind}: ${name}`, async () => {
        for (const [lane, handle] of lanes()) {
          const answer = await send(handle, graphqlRequest(kind, variables, { token }));
          expect(answer.status, lane).toBe(200);
          expect(answer.body.errors, lane).toBeUndefined();
          expect(answer.body.data, lane).toEqual({ me: { name: expect.any(String) } });
          expect(answer.parsed, lane).toBe(1);
        }
      });
    }

    it(`${kind}: one level deeper is refused`, async () => {
      for (const [lane, handle] of lanes()) {
        const answer = await send(handle, graphqlRequest(kind, `{"a":${nested(32)}}`, { token }));
        expect(answer.status, lane).toBe(400);
        expect(answer.body, lane).toEqual(TOO_DEEP);
      }
    });
  }

  it('a JSON body the direct lane parses and then leaves to Yoga is not parsed again', async () => {
    // The lane parses the body, finds the document invalid, and Yoga answers from the same parse.
    const invalid = graphqlRequest('application/json', '{}', { token, query: '{ me { nope } }' });
    const answer = await send(gateway.handle, invalid);
    expect(answer.body.errors![0]!.extensions!.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(answer.parsed).toBe(1);
    // Taken by the lane: parsed once too.
    expect((await send(gateway.handle, graphqlRequest('application/json', '{}', { token }))).parsed).toBe(1);
  });

  it('a body that is not JSON is refused as before (400), once parsed', async () => {
    for (const [lane, handle] of lanes()) {
      const answer = await send(handle, graphqlRequest('application/json', '{"a": [', { token }));
      expect(answer.status, lane).toBe(400);
      expect(answer.body, lane).toEqual({
        errors: [{ message: 'POST body sent invalid JSON.', extensions: { code: 'BAD_REQUEST', status: 400 } }],
      });
      expect(answer.parsed, lane).toBe(1);
    }
  });
});

describe('INTROSPECTION=public: an anonymous request is parsed, after the same scan', () => {
  it('answers anonymous introspection, refuses the rest (401), and refuses a deep body (400) unparsed', async () => {
    const introspection = graphqlRequest('application/json', '{}', { query: '{ __schema { queryType { name } } }' });
    const answered = await send(publicSchema.handle, introspection);
    expect(answered.status).toBe(200);
    expect(answered.body.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
    expect(answered.parsed).toBe(1);

    expect((await send(publicSchema.handle, graphqlRequest('application/json', '{}'))).body).toEqual(UNAUTHENTICATED);

    for (const kind of POSTED) {
      const deep = await send(publicSchema.handle, graphqlRequest(kind, AUDIT_VARIABLES));
      expect(deep.status, kind).toBe(400);
      expect(deep.body, kind).toEqual(TOO_DEEP);
      expect(deep.parsed, kind).toBe(0);
    }
  });
});
