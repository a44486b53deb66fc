// Persisted operations: the allow-list built by scripts/persist-operations.mjs from .graphql
// files, loaded at start-up (a bad list stops the start), requests by hash (Apollo's APQ shape)
// or by document, and the `persisted_operations_only` setting (non-superusers: listed
// operations only; superusers: anything).

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client/core/index.js';
import { createPersistedQueryLink } from '@apollo/client/link/persisted-queries/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApplication } from '../../src/app/application.js';
import { loadConfig } from '../../src/config.js';
import { PersistedOperationsError, sha256Hex } from '../../src/graphql/persisted-operations.js';
import { run } from '../support/processes.js';
import { startTestGateway, TEST_JWT_SECRET, type TestGateway } from '../support/gateway.js';

interface Answer {
  status: number;
  body: { data?: Record<string, unknown> | null; errors?: { message: string; extensions?: { code?: string } }[] };
}

const dir = mkdtempSync(join(tmpdir(), 'persisted-'));
const LIST = join(dir, 'persisted-operations.json');
const ME = 'query Me {\n  me {\n    name\n  }\n}';
let meHash: string;
let gateway: TestGateway;
let user: string;
let superuser: string;

async function post(token: string, body: Record<string, unknown>): Promise<Answer> {
  const response = await fetch(`${gateway.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

const byHash = (hash: string) => ({ extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
const setOnly = (value: boolean) =>
  gateway.rest('PUT', '/settings/persisted_operations_only', { token: superuser, body: { value: String(value) } });

beforeAll(async () => {
  // The script builds the list from a .graphql file written the way people write them.
  writeFileSync(join(dir, 'me.graphql'), 'query Me { me { name } }\n');
  const built = await run('node', ['scripts/persist-operations.mjs', LIST, join(dir, 'me.graphql')], {});
  expect(built.code, built.stderr).toBe(0);
  meHash = sha256Hex(ME);
  expect(built.stdout).toBe(`${meHash}  ${join(dir, 'me.graphql')}\n`);
  expect(JSON.parse(readFileSync(LIST, 'utf8'))).toEqual({ [meHash]: ME });
  gateway = await startTestGateway({ env: { PERSISTED_OPERATIONS_FILE: LIST } });
  user = (await gateway.user({ name: 'persisted-user' })).token;
  superuser = (await gateway.user({ superuser: true })).token;
});
afterAll(async () => {
  await gateway?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('by default (persisted_operations_only false)', () => {
  it('runs a listed operation by hash alone', async () => {
    const answer = await post(user, byHash(meHash));
    expect(answer).toEqual({
      status: 200,
      body: expect.objectContaining({ data: { me: { name: 'persisted-user' } } }),
    });
  });

  it('answers an unknown hash with PERSISTED_QUERY_NOT_FOUND (so APQ clients send the document)', async () => {
    const answer = await post(user, byHash('0'.repeat(64)));
    expect(answer.status).toBe(400);
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors![0]).toMatchObject({
      message: 'PersistedQueryNotFound',
      extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' },
    });
  });

  it('runs any document, with or without a hash', async () => {
    expect((await post(user, { query: '{ me { name } }' })).body.data).toEqual({ me: { name: 'persisted-user' } });
    expect((await post(user, { query: '{ me { name } }', ...byHash(sha256Hex('{ me { name } }')) })).body.data).toEqual(
      { me: { name: 'persisted-user' } },
    );
  });
});

describe('with persisted_operations_only true', () => {
  beforeAll(async () => expect((await setOnly(true)).status).toBe(200));
  afterAll(async () => expect((await setOnly(false)).status).toBe(200));

  it('refuses a non-superuser’s document whole: 403 PERSISTED_QUERY_REQUIRED', async () => {
    for (const body of [
      { query: '{ me { name } }' },
      { query: '{ me { name } }', ...byHash(sha256Hex('{ me { name } }')) },
    ]) {
      const answer = await post(user, body);
      expect(answer.status).toBe(403);
      expect(answer.body.data).toBeUndefined();
      expect(answer.body.errors).toEqual([
        {
          message: expect.stringContaining('Only persisted operations'),
          extensions: expect.objectContaining({ code: 'PERSISTED_QUERY_REQUIRED', status: 403 }),
        },
      ]);
    }
  });

  it('runs a listed operation by hash, or by sending exactly its document', async () => {
    expect((await post(user, byHash(meHash))).body.data).toEqual({ me: { name: 'persisted-user' } });
    expect((await post(user, { query: ME })).body.data).toEqual({ me: { name: 'persisted-user' } });
  });

  it('lets a superuser send any document (GraphiQL)', async () => {
    const answer = await post(superuser, { query: '{ me { superuser } }' });
    expect(answer).toMatchObject({ status: 200, body: { data: { me: { superuser: true } } } });
  });

  it('still answers an anonymous request 401, by listed hash or by document', async () => {
    for (const body of [byHash(meHash), { query: '{ me { name } }' }]) {
      const response = await fetch(`${gateway.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(401);
    }
  });
});

describe('Apollo Client’s persisted-queries link', () => {
  /** A client that records the bodies it sends. */
  function apollo(token: string) {
    const sent: Record<string, unknown>[] = [];
    const fetchAndRecord: typeof fetch = (input, init) => {
      sent.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
      return fetch(input, init);
    };
    const http = new HttpLink({
      uri: `${gateway.url}/graphql`,
      headers: { authorization: `Bearer ${token}` },
      fetch: fetchAndRecord,
    });
    const link = createPersistedQueryLink({ sha256: async (text: string) => sha256Hex(text) }).concat(http);
    // No __typename added: the document it hashes is then exactly the listed one.
    const client = new ApolloClient({
      link,
      cache: new InMemoryCache({ addTypename: false }),
      defaultOptions: { query: { fetchPolicy: 'no-cache' } },
    });
    return { client, sent };
  }

  it('sends a listed operation by hash alone, and an unlisted one by hash then document', async () => {
    const { client, sent } = apollo(user);
    expect((await client.query({ query: gql(ME) })).data).toEqual({ me: { name: 'persisted-user' } });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.query).toBeUndefined();
    expect(sent[0]!.extensions).toEqual({ persistedQuery: { version: 1, sha256Hash: meHash } });

    const other = await client.query({ query: gql('query Other { me { name superuser } }') });
    expect(other.data).toEqual({ me: { name: 'persisted-user', superuser: false } });
    expect(sent.slice(1).map((body) => typeof body.query)).toEqual(['undefined', 'string']);
  });
});

describe('the setting', () => {
  it('accepts only true or false', async () => {
    const answer = await gateway.rest('PUT', '/settings/persisted_operations_only', {
      token: superuser,
      body: { value: '"yes"' },
    });
    expect(answer.status).toBe(422);
    expect(
      (await gateway.rest<{ value: string }>('GET', '/settings/persisted_operations_only', { token: superuser })).body
        .value,
    ).toBe('false');
  });
});

describe('a bad allow-list stops the start', () => {
  it.each([
    ['not JSON', '{', /is not JSON/],
    ['an array', '[]', /must be a JSON object/],
    ['a wrong hash', JSON.stringify({ ['a'.repeat(64)]: ME }), /is not the sha256/],
    ['a document that does not parse', JSON.stringify({ [sha256Hex('query {')]: 'query {' }), /Syntax Error/],
  ])('%s', async (_name, text, message) => {
    const file = join(dir, `bad-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, text);
    const env = {
      DATABASE_URL: `file:${join(dir, 'never.db')}`,
      DATA_DIR: dir,
      JWT_SECRET: TEST_JWT_SECRET,
      LOG_LEVEL: 'silent',
      PERSISTED_OPERATIONS_FILE: file,
    };
    await expect(startApplication(loadConfig(env), { env })).rejects.toThrow(PersistedOperationsError);
    await expect(startApplication(loadConfig(env), { env })).rejects.toThrow(message);
  });

  it('a missing file', async () => {
    const env = {
      DATABASE_URL: `file:${join(dir, 'never.db')}`,
      DATA_DIR: dir,
      JWT_SECRET: TEST_JWT_SECRET,
      LOG_LEVEL: 'silent',
      PERSISTED_OPERATIONS_FILE: join(dir, 'absent.json'),
    };
    await expect(startApplication(loadConfig(env), { env })).rejects.toThrow(/cannot be read \(ENOENT\)/);
  });
});
