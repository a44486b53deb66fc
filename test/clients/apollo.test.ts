// Apollo Client (core entry, InMemoryCache with the shipped type policies) against a real
// gateway port: the README's dashboard screen normalizes into one `Line` per MDN, and a later
// `line(mdn)` is served from the cache without a request; a bulk job's cached outcomes survive
// its cancellation.

import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apolloTypePolicies } from '../../src/graphql/client-cache-config.js';
import { eventually } from '../support/eventually.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { freshSim } from '../support/lines.js';
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

  it('keeps a bulk job’s outcomes in the cache when the job is cancelled', async () => {
    const JOB = `id status total processed nextCursor results { sim status message }`;
    const VIEW = gql(`query Job($id: String!) { bulkActivation(id: $id) { ${JOB} } }`);
    const apollo = client([]);
    // A plan this user is not authorized for: every SIM fails at once, with no carrier call.
    const activations = Array.from({ length: 3 }, () => ({
      sim: freshSim(),
      planId: 'NOT_MINE',
      zipCode: '30301',
      address1: '1 Main St',
      city: 'Atlanta',
      state: 'GA',
    }));
    const started = await apollo.mutate({
      mutation: gql(
        `mutation Start($input: StartBulkActivationInput!) { startBulkActivation(input: $input) { ${JOB} } }`,
      ),
      variables: { input: { activations } },
    });
    const id = started.data.startBulkActivation.id as string;
    let job: { status: string; results: unknown[] } | undefined;
    const completed = await eventually(async () => {
      job = (await apollo.query({ query: VIEW, variables: { id }, fetchPolicy: 'network-only' })).data.bulkActivation;
      return job?.status === 'COMPLETED';
    }, 30_000);
    expect(completed).toBe(true);
    expect(job!.results).toHaveLength(3);

    const warn = vi.spyOn(console, 'warn');
    try {
      const cancelled = await apollo.mutate({
        mutation: gql(`mutation Cancel($id: String!) { cancelBulkActivation(input: { id: $id }) { ${JOB} } }`),
        variables: { id },
      });
      expect(cancelled.data.cancelBulkActivation.results).toEqual(job!.results);
      // The job's entity, which the dashboard's query reads, still lists every outcome.
      expect(apollo.readQuery({ query: VIEW, variables: { id } })?.bulkActivation).toEqual(job);
      expect(warn.mock.calls.flat().join(' ')).not.toMatch(/Cache data may be lost/);
    } finally {
      warn.mockRestore();
    }
  });
});
