// Apollo Client (core entry, InMemoryCache with the shipped type policies) against a real
// gateway port: the README's dashboard screen normalizes into one `Line` per MDN, and a later
// `line(mdn)` is served from the cache without a request.

import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apolloTypePolicies } from '../../src/graphql/client-cache-config.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { ONE_LINE, SCREEN, seedScreen, type Screen } from './dashboard.js';

let gateway: TestGateway;
let screen: Screen;

beforeAll(async () => {
  gateway = await startTestGateway();
  screen = await seedScreen(gateway);
});
afterAll(() => gateway.close());

function client(requests: string[]) {
  const countingFetch: typeof fetch = (input, init) => {
    requests.push(String(init?.body ?? ''));
    return fetch(input, init);
  };
  return new ApolloClient({
    link: new HttpLink({
      uri: `${gateway.url}/graphql`,
      headers: { authorization: `Bearer ${screen.token}` },
      fetch: countingFetch,
    }),
    cache: new InMemoryCache({ typePolicies: apolloTypePolicies }),
  });
}

describe('Apollo Client', () => {
  it('normalizes the dashboard screen by line and answers line(mdn) from the cache', async () => {
    const requests: string[] = [];
    const apollo = client(requests);
    const first = await apollo.query({ query: gql(SCREEN), variables: { mdns: screen.mdns } });
    expect(first.errors).toBeUndefined();
    expect(first.data.lines.map((line: { carrier: string }) => line.carrier)).toEqual(['CARRIER_321', 'CARRIER_B']);
    expect(first.data.lines[0].usage).toMatchObject({ status: 'SUCCESS', subscriberStatus: 'ACTIVE' });

    const cached = apollo.cache.extract() as Record<string, unknown>;
    expect(Object.keys(cached).sort()).toEqual(
      ['Line:' + screen.mdns[0], 'Line:' + screen.mdns[1], 'ROOT_QUERY'].sort(),
    );

    const again = await apollo.query({
      query: gql(ONE_LINE),
      variables: { mdn: screen.mdns[1] },
      fetchPolicy: 'cache-only',
    });
    expect(again.data.line).toEqual(first.data.lines[1]);
    // cache-first also answers without a request.
    await apollo.query({ query: gql(ONE_LINE), variables: { mdn: screen.mdns[0] } });
    expect(requests).toHaveLength(1);
  });

  it('surfaces a refused line as partial data with errorPolicy all', async () => {
    const apollo = client([]);
    const answer = await apollo.query({
      query: gql(SCREEN),
      variables: { mdns: [screen.mdns[0], screen.foreign] },
      errorPolicy: 'all',
    });
    expect(answer.data.lines[0].usage.status).toBe('SUCCESS');
    expect(answer.data.lines[1].usage).toBeNull();
    expect(answer.errors?.map((error) => error.extensions?.code)).toContain('FORBIDDEN');
  });
});
