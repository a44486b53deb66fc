// urql with Graphcache and the shipped keys against a real gateway port: the dashboard screen
// caches without a single "Invalid key" warning, and `line(mdn)` after `lines(mdns)` is a hit.

import { Client, fetchExchange, gql } from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { graphcacheKeys, graphcacheResolvers } from '../../src/graphql/client-cache-config.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { ONE_LINE, SCREEN, seedScreen, type Screen } from './dashboard.js';

let gateway: TestGateway;
let screen: Screen;

beforeAll(async () => {
  gateway = await startTestGateway();
  screen = await seedScreen(gateway);
});
afterAll(() => gateway.close());
afterEach(() => {
  vi.restoreAllMocks();
});

describe('urql Graphcache', () => {
  it('caches the dashboard screen with no warning and serves line(mdn) from it', async () => {
    const warnings: string[] = [];
    vi.spyOn(console, 'warn').mockImplementation(
      (...args: unknown[]) => void warnings.push(args.map(String).join(' ')),
    );
    const requests: string[] = [];
    const client = new Client({
      url: `${gateway.url}/graphql`,
      exchanges: [cacheExchange({ keys: graphcacheKeys, resolvers: graphcacheResolvers }), fetchExchange],
      fetch: (input, init) => {
        requests.push(String(init?.body ?? ''));
        return fetch(input, init);
      },
      fetchOptions: { headers: { authorization: `Bearer ${screen.token}` } },
    });
    const first = await client.query(gql(SCREEN), { mdns: screen.mdns }).toPromise();
    expect(first.error).toBeUndefined();
    expect(first.data.lines).toHaveLength(2);
    expect(first.data.lines[1]).toMatchObject({
      id: screen.mdns[1],
      carrier: 'CARRIER_B',
      usage: { status: 'SUCCESS' },
    });

    const again = await client
      .query(gql(ONE_LINE), { mdn: screen.mdns[0] }, { requestPolicy: 'cache-only' })
      .toPromise();
    expect(again.data.line).toEqual(first.data.lines[0]);
    expect(requests).toHaveLength(1);
    expect(warnings).toEqual([]);
  });

  it('warns "Invalid key" without the shipped keys (the check above can fail)', async () => {
    const warnings: string[] = [];
    vi.spyOn(console, 'warn').mockImplementation(
      (...args: unknown[]) => void warnings.push(args.map(String).join(' ')),
    );
    const client = new Client({
      url: `${gateway.url}/graphql`,
      exchanges: [cacheExchange({}), fetchExchange],
      fetchOptions: { headers: { authorization: `Bearer ${screen.token}` } },
    });
    await client.query(gql(SCREEN), { mdns: screen.mdns }).toPromise();
    expect(warnings.some((warning) => warning.includes('Invalid key'))).toBe(true);
  });
});
