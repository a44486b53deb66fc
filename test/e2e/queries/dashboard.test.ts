// The dashboard entry points `line(mdn)` and `lines(mdns)`: lazily fetched fields through the
// shared pipeline, one registry query for N lines, per-line failures as data, validation, auth.

import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
// Registers `line` and `lines` on the builder before the gateway builds its schema.
import '../../../src/graphql/dashboard.js';
import { statusesOf } from '../../support/gateway.js';
import { seedLine } from '../../support/lines.js';
import { useGateway } from '../../support/use-gateway.js';

let on321: { mdn: string; sim: string };
let onB: { mdn: string; sim: string };
let unregistered: { mdn: string; sim: string };

type Line = Record<string, Record<string, unknown> | string | null>;

const gateway = useGateway();
beforeAll(async () => {
  on321 = await seedLine(gateway);
  onB = await seedLine(gateway, { carrier: 'carrier_b' });
  unregistered = await seedLine(gateway, { register: false });
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The carrier 321 adapter the pipeline hands the handler of `operation` (one per operation). */
const adapterServing = (operation: string) =>
  gateway.app.services.carriers.scopedAdapter('321', { operation, metrics: gateway.app.services.metrics });

const EVERYTHING = `mdn carrier
  usage { status subscriberStatus mdn sim planName balanceDetails { talk text data } message }
  service { status subscriberStatus sim imei planName message }
  carrierUsage { status mdn usageRecords { type } message }
  networkStatus { status subscriberStatus mdn simStatus message }
  simDetails { status sim iccidStatus activationEligible message }
  esimProfile { status sim message }
  activePlan { status soc message }
  products { status products { code } message }
  account { status accountId lines { mdn } message }`;

describe('line(mdn)', () => {
  it('answers every field of a carrier 321 line, each as its query would', async () => {
    const { token } = await gateway.user();
    const answer = await gateway.graphql<{ line: Line }>(
      `query ($mdn: String!) { line(mdn: $mdn) { ${EVERYTHING} } }`,
      { token, variables: { mdn: on321.mdn } },
    );
    expect(answer.errors).toBeUndefined();
    const line = answer.data!.line;
    expect(line).toMatchObject({
      mdn: on321.mdn,
      carrier: 'CARRIER_321',
      usage: { status: 'SUCCESS', subscriberStatus: 'ACTIVE', mdn: on321.mdn, sim: on321.sim, planName: 'Basic 1GB' },
      service: { status: 'SUCCESS', subscriberStatus: 'ACTIVE', sim: on321.sim, message: 'Success' },
      carrierUsage: { status: 'SUCCESS', mdn: on321.mdn },
      networkStatus: { status: 'SUCCESS', subscriberStatus: 'ACTIVE', simStatus: 'INUSE' },
      // The SIM comes from the service record.
      simDetails: { status: 'SUCCESS', sim: on321.sim, iccidStatus: 'INUSE', activationEligible: false },
      esimProfile: { status: 'FAILURE', sim: on321.sim, message: 'eSIM not available for this MVNO (8010)' },
      activePlan: { status: 'SUCCESS', soc: 'BASIC1GB' },
      account: { status: 'SUCCESS', lines: [{ mdn: on321.mdn }] },
    });
    expect((line.products as { products: { code: string }[] }).products.map((product) => product.code)).toContain(
      'VOLTE',
    );
    // The REST twin of one field gives the same answer.
    const rest = await gateway.rest('GET', `/sim/network/${on321.mdn}`, { token });
    expect(rest.body).toMatchObject({ status: 'ACTIVE', sim_status: 'INUSE' });
  });

  it('answers a carrier_b line from carrier_b; the carrier-321-only fields fail alone with NOT_SUPPORTED', async () => {
    const { token } = await gateway.user();
    const answer = await gateway.graphql<{ line: Line }>(
      `query ($mdn: String!) { line(mdn: $mdn) { mdn carrier usage { status subscriberStatus sim } activePlan { status } } }`,
      {
        token,
        variables: { mdn: onB.mdn },
      },
    );
    expect(answer.data?.line).toEqual({
      mdn: onB.mdn,
      carrier: 'CARRIER_B',
      usage: { status: 'SUCCESS', subscriberStatus: 'ACTIVE', sim: onB.sim },
      activePlan: null,
    });
    expect(answer.errors).toHaveLength(1);
    expect(answer.errors?.[0]).toMatchObject({ path: ['line', 'activePlan'], extensions: { code: 'NOT_SUPPORTED' } });
  });

  it('answers carrier null for a line the gateway has not seen, and still reaches the carrier for its fields', async () => {
    const { token } = await gateway.user();
    const answer = await gateway.graphql<{ line: Line }>(
      `query ($mdn: String!) { line(mdn: $mdn) { carrier usage { status subscriberStatus } } }`,
      { token, variables: { mdn: unregistered.mdn } },
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.line).toEqual({ carrier: null, usage: { status: 'SUCCESS', subscriberStatus: 'ACTIVE' } });
  });

  it('fetches only the fields asked for, and the service record once for service, simDetails and esimProfile', async () => {
    const { token } = await gateway.user();
    const getUsage = vi.spyOn(adapterServing('usage'), 'getUsage');
    const getServiceProfile = ['serviceInfo', 'simDetails', 'esimProfile'].map((operation) =>
      vi.spyOn(adapterServing(operation), 'getServiceProfile'),
    );
    const serviceProfileCalls = () => getServiceProfile.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
    const getNetworkStatus = vi.spyOn(adapterServing('networkStatus'), 'getNetworkStatus');
    await gateway.graphql(`query ($mdn: String!) { line(mdn: $mdn) { usage { status } } }`, {
      token,
      variables: { mdn: on321.mdn },
    });
    expect(getUsage).toHaveBeenCalledTimes(1);
    expect(serviceProfileCalls()).toBe(0);
    expect(getNetworkStatus).not.toHaveBeenCalled();
    await gateway.graphql(
      `query ($mdn: String!) { line(mdn: $mdn) { service { sim } simDetails { sim } esimProfile { sim } } }`,
      { token, variables: { mdn: on321.mdn } },
    );
    expect(serviceProfileCalls()).toBe(1);
  });

  it('resolves sibling fields in parallel', async () => {
    const { token } = await gateway.user();
    const usageAdapter = adapterServing('usage');
    const networkAdapter = adapterServing('networkStatus');
    const events: string[] = [];
    const track =
      <A extends unknown[], R>(name: string, original: (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        events.push(`start ${name}`);
        try {
          return await original(...args);
        } finally {
          events.push(`end ${name}`);
        }
      };
    const usage = track('usage', usageAdapter.getUsage.bind(usageAdapter));
    const network = track('network', networkAdapter.getNetworkStatus.bind(networkAdapter));
    vi.spyOn(usageAdapter, 'getUsage').mockImplementation(usage);
    vi.spyOn(networkAdapter, 'getNetworkStatus').mockImplementation(network);
    // Slow carrier answers, so that both calls are surely under way before either returns.
    await fetch(`${gateway.sandboxes.urls['321']}/_sandbox/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latency_ms: 200 }),
    });
    try {
      const answer = await gateway.graphql(
        `query ($mdn: String!) { line(mdn: $mdn) { usage { status } networkStatus { status } } }`,
        { token, variables: { mdn: on321.mdn } },
      );
      expect(answer.errors).toBeUndefined();
    } finally {
      await fetch(`${gateway.sandboxes.urls['321']}/_sandbox/faults`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ latency_ms: 0 }),
      });
    }
    expect(events.slice(0, 2).sort()).toEqual(['start network', 'start usage']);
  });
});

describe('lines(mdns)', () => {
  it('looks up where all N lines live with one registry query, and a failing line does not fail the others', async () => {
    const { token } = await gateway.user();
    const extra = await seedLine(gateway);
    const mdns = [on321.mdn, '5550001111', onB.mdn, '9095550000', extra.mdn, unregistered.mdn];
    const byMdns = vi.spyOn(gateway.app.services.lines, 'byMdns');
    const answer = await gateway.graphql<{ lines: Line[] }>(
      `query ($mdns: [String!]!) { lines(mdns: $mdns) { mdn carrier usage { status subscriberStatus sim message } carrierUsage { status message } networkStatus { status subscriberStatus } } }`,
      { token, variables: { mdns } },
    );
    expect(answer.errors).toBeUndefined();
    expect(byMdns).toHaveBeenCalledTimes(1);
    expect(byMdns.mock.calls[0]?.[0]).toEqual(mdns);
    const lines = answer.data!.lines;
    expect(lines.map((line) => line.mdn)).toEqual(mdns);
    expect(lines.map((line) => line.carrier)).toEqual(['CARRIER_321', null, 'CARRIER_B', null, 'CARRIER_321', null]);
    expect(lines[0]).toMatchObject({
      usage: { status: 'SUCCESS', subscriberStatus: 'ACTIVE', sim: on321.sim },
      carrierUsage: { status: 'SUCCESS' },
      networkStatus: { status: 'SUCCESS', subscriberStatus: 'ACTIVE' },
    });
    expect(lines[1]).toMatchObject({
      usage: {
        status: 'FAILURE',
        subscriberStatus: null,
        sim: null,
        message: 'Subscriber with given resource does not exist (918)',
      },
      carrierUsage: { status: 'FAILURE', message: 'Subscriber with given resource does not exist (918)' },
      networkStatus: { status: 'FAILURE', subscriberStatus: null },
    });
    expect(lines[2]).toMatchObject({ usage: { status: 'SUCCESS', subscriberStatus: 'ACTIVE', sim: onB.sim } });
    expect(lines[3]).toMatchObject({
      carrierUsage: { status: 'FAILURE', message: 'MDN does not belong to this vendor (909)' },
    });
    expect(lines[4]).toMatchObject({ usage: { status: 'SUCCESS', subscriberStatus: 'ACTIVE', sim: extra.sim } });
    expect(lines[5]).toMatchObject({ usage: { status: 'SUCCESS', subscriberStatus: 'ACTIVE', sim: unregistered.sim } });
  });

  it('answers an empty list for no MDNs', async () => {
    const { token } = await gateway.user();
    const answer = await gateway.graphql<{ lines: Line[] }>(`{ lines(mdns: []) { mdn } }`, { token });
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.lines).toEqual([]);
  });
});

describe('refusals', () => {
  it.each([
    { query: '{ line(mdn: "12ab") { mdn } }', loc: ['mdn'], msg: 'mdn must be exactly 10 digits' },
    {
      query: `{ lines(mdns: ["${'3215550001'}", "123"]) { mdn } }`,
      loc: ['mdns', 1],
      msg: 'mdn must be exactly 10 digits',
    },
    {
      query: `{ lines(mdns: [${Array.from({ length: 51 }, (_, i) => `"32155${String(i).padStart(5, '0')}"`).join(', ')}]) { mdn } }`,
      loc: ['mdns'],
      msg: 'mdns must hold at most 50 numbers',
    },
  ])('refuses bad input with BAD_USER_INPUT (422) at $loc and calls no carrier', async ({ query, loc, msg }) => {
    const { token } = await gateway.user();
    const byMdns = vi.spyOn(gateway.app.services.lines, 'byMdns');
    const answer = await gateway.graphql<Record<string, unknown>>(query, { token });
    expect(statusesOf(answer)).toEqual({ http: 200, rest: 422 });
    expect(answer.data?.line ?? answer.data?.lines ?? null).toBeNull();
    expect(answer.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      issues: [{ type: 'value_error', loc, msg }],
    });
    expect(byMdns).not.toHaveBeenCalled();
  });

  it.each(['{ line(mdn: "3215550001") { mdn carrier } }', '{ lines(mdns: ["3215550001"]) { mdn carrier } }'])(
    'refuses %s without a token: UNAUTHENTICATED',
    async (query) => {
      const answer = await gateway.graphql(query);
      expect(answer.status).toBe(401);
      expect(answer.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    },
  );

  it('charges line fields to the cost budget, not to the per-operation limit of the query of the same name', async () => {
    const { token } = await gateway.user();
    const mdns = Array.from({ length: 50 }, () => on321.mdn);
    for (let refresh = 0; refresh < 2; refresh++) {
      const answer = await gateway.graphql<{ lines: Line[] }>(
        `query ($mdns: [String!]!) { lines(mdns: $mdns) { usage { status } } }`,
        { token, variables: { mdns } },
      );
      expect(answer.errors).toBeUndefined();
      expect(answer.data?.lines.filter((line) => line.usage !== null)).toHaveLength(50);
    }
    // 100 line fields later, the 60 per minute of `usage` are whole for REST and the top-level query.
    for (let call = 0; call < 60; call++)
      expect((await gateway.rest('GET', `/sim/usage/${on321.mdn}`, { token })).status).toBe(200);
    const refused = await gateway.graphql(`{ usage(mdn: "${on321.mdn}") { status } }`, { token });
    expect(refused.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
  });
});
