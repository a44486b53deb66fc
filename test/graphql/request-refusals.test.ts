// Refusals of a whole GraphQL request at the edge, one shape for all of them: the status, and
// `{errors: [{message, extensions: {code, status}}]}` with the same status in
// `extensions.status`. A mutation sent by GET is a 405 METHOD_NOT_ALLOWED like any other
// method the endpoint refuses; an Accept header nothing can be answered in is a 406 with a
// body; a body without a query is a 400 BAD_REQUEST whatever the client accepts; a request
// without a valid token is a 401 whatever its body or method.

import { describe, expect, it } from 'vitest';
import { MAX_STREAMS_PER_USER } from '../../src/graphql/use-subscriptions.js';
import { seedLine } from '../support/lines.js';
import { useGateway } from '../support/use-gateway.js';

const gateway = useGateway();

const SUSPEND = 'mutation ($input: SuspendLineInput!) { suspendLine(input: $input) { status } }';
const SUBSCRIPTION = 'subscription { lineEvents { id } }';

interface Answer {
  status: number;
  contentType: string | null;
  allow: string | null;
  body: unknown;
}

async function send(
  path: string,
  init: { method?: string; token?: string | null; accept?: string; body?: unknown } = {},
): Promise<Answer> {
  const token = init.token === undefined ? (await gateway.user()).token : init.token;
  const response = await gateway.fetch(path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(init.accept ? { accept: init.accept } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
  });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    allow: response.headers.get('allow'),
    body: text ? (JSON.parse(text) as unknown) : text,
  };
}

const refusal = (code: string, status: number, message: unknown = expect.any(String)) => ({
  errors: [{ message, extensions: { code, status } }],
});

const query = (document: string, variables?: Record<string, unknown>) =>
  `/graphql?query=${encodeURIComponent(document)}${variables ? `&variables=${encodeURIComponent(JSON.stringify(variables))}` : ''}`;

describe('a mutation sent by GET', () => {
  it('is refused 405 METHOD_NOT_ALLOWED with Allow: POST, executing nothing, whatever the client accepts', async () => {
    const { token } = await gateway.user({ superuser: true });
    const line = await seedLine(gateway);
    for (const accept of [undefined, 'application/json', 'application/graphql-response+json']) {
      const answer = await send(query(SUSPEND, { input: { mdn: line.mdn } }), { token, accept });
      expect(answer, accept).toMatchObject({
        status: 405,
        allow: 'POST',
        body: refusal('METHOD_NOT_ALLOWED', 405, 'Can only perform a mutation operation from a POST request.'),
      });
    }
    expect((await gateway.sandboxes.cores['321'].getUsage(line.mdn)).lineStatus).toBe('ACTIVE');
  });
});

describe('406 Not Acceptable', () => {
  it('answers an Accept header that allows nothing served with a JSON body naming what to accept', async () => {
    const expected = refusal(
      'NOT_ACCEPTABLE',
      406,
      'The Accept header allows no media type /graphql answers in: accept application/graphql-response+json or application/json (a subscription: text/event-stream)',
    );
    const cases: [string, Parameters<typeof send>[1]][] = [
      ['/graphql', { body: { query: '{ me { name } }' }, accept: 'image/png' }],
      [query('{ me { name } }'), { accept: 'image/png' }],
      ['/graphql', { body: { query: '{ me { name } }' }, accept: 'application/json;q=0' }],
      ['/graphql', { body: { query: '{ me { name } }' }, accept: 'application/json; charset=iso-8859-1' }],
      // Refused before the caller is looked up, as a body of an unreadable type is (415).
      ['/graphql', { body: { query: '{ me { name } }' }, accept: 'text/html', token: null }],
    ];
    for (const [path, init] of cases) {
      const answer = await send(path, init);
      expect(answer, init?.accept).toEqual({
        status: 406,
        contentType: 'application/json; charset=utf-8',
        allow: null,
        body: expected,
      });
    }
  });

  it('runs no mutation for a client that cannot read its answer', async () => {
    const { token } = await gateway.user({ superuser: true });
    const line = await seedLine(gateway);
    const answer = await send('/graphql', {
      token,
      accept: 'image/png',
      body: { query: SUSPEND, variables: { input: { mdn: line.mdn } } },
    });
    expect(answer.status).toBe(406);
    expect((await gateway.sandboxes.cores['321'].getUsage(line.mdn)).lineStatus).toBe('ACTIVE');
  });

  it('answers a subscription for a client that accepts no event stream, in the JSON type it accepts', async () => {
    const message = 'A subscription is answered as a stream of Server-Sent Events: send Accept: text/event-stream';
    for (const accept of ['application/json', 'application/graphql-response+json', 'multipart/mixed']) {
      const answer = await send('/graphql', { accept, body: { query: SUBSCRIPTION } });
      expect(answer, accept).toEqual({
        status: 406,
        contentType: `${accept === 'multipart/mixed' ? 'application/json' : accept}; charset=utf-8`,
        allow: null,
        body: refusal('NOT_ACCEPTABLE', 406, message),
      });
    }
  });

  it('starts no subscription it refuses: the user’s open streams are not counted', async () => {
    const { token } = await gateway.user();
    for (let index = 0; index <= MAX_STREAMS_PER_USER; index++) {
      const answer = await send('/graphql', { token, accept: 'application/json', body: { query: SUBSCRIPTION } });
      expect(answer.status).toBe(406);
    }
    const stream = await gateway.fetch('/graphql', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ query: SUBSCRIPTION }),
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    await stream.body?.cancel();
  });
});

describe('a body that is not a GraphQL request', () => {
  it('is a 400 BAD_REQUEST for every client, legacy application/json included', async () => {
    const bodies: unknown[] = [{}, { qeury: '{ __typename }' }, { variables: { a: 1 } }, { query: 123 }];
    for (const accept of [undefined, '*/*', 'application/json', 'application/graphql-response+json']) {
      for (const body of bodies) {
        const answer = await send('/graphql', { accept, body });
        expect(answer, `${accept} ${JSON.stringify(body)}`).toMatchObject({
          status: 400,
          body: refusal('BAD_REQUEST', 400),
        });
      }
      const get = await send('/graphql', { accept: accept ?? 'application/json' });
      expect(get, `GET ${accept}`).toMatchObject({
        status: 400,
        body: refusal('BAD_REQUEST', 400, 'Must provide query string.'),
      });
    }
  });

  it('keeps a GraphQL request error (a parse error) 200 for a legacy application/json client', async () => {
    const answer = await send('/graphql', { accept: 'application/json', body: { query: '{ me { ' } });
    expect(answer).toMatchObject({ status: 200, body: refusal('GRAPHQL_PARSE_FAILED', 400) });
  });
});

describe('a request without a valid token', () => {
  it('is a 401 whatever its method, body or Accept header', async () => {
    const cases: [string, Parameters<typeof send>[1]][] = [
      [query('{ me { name } }'), {}],
      [query('{ me { name } }'), { accept: 'application/json' }],
      ['/graphql', { accept: 'application/json' }],
      ['/graphql', { body: { query: '{ me { name } }' }, accept: 'application/json' }],
      ['/graphql', { body: {}, accept: 'application/json' }],
      ['/graphql', { body: { query: 123 } }],
      [query(SUSPEND), { accept: 'application/graphql-response+json' }],
    ];
    for (const [path, init] of cases) {
      const answer = await send(path, { ...init, token: null });
      expect(answer, `${path} ${JSON.stringify(init)}`).toMatchObject({
        status: 401,
        body: refusal('UNAUTHENTICATED', 401, 'Not authenticated'),
      });
    }
  });
});
