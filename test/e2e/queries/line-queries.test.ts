// The line queries (usage, serviceInfo, carrierUsage, networkStatus) over real HTTP against the
// sandbox carriers, on REST and on GraphQL: exact bodies, 918/909/915, 422, 401.

import { beforeAll, describe, expect, it } from 'vitest';
import { statusesOf } from '../../support/gateway.js';
import { SEED_ADDRESS, seedDisconnectedLine, seedLine } from '../../support/lines.js';
import { expectTwin } from '../../support/surfaces.js';
import { graphqlQuery, type QueryName } from './selections.js';
import { useGateway } from '../../support/use-gateway.js';

let active: { mdn: string; sim: string };
let disconnected: { mdn: string; sim: string };

const gateway = useGateway();
beforeAll(async () => {
  active = await seedLine(gateway);
  disconnected = await seedDisconnectedLine(gateway);
});

interface LineQuery {
  name: QueryName;
  path: (mdn: string) => string;
  /** The REST failure body for a refusal with `message`. */
  failure: (mdn: string, message: string) => Record<string, unknown>;
}

const LINE_QUERIES: LineQuery[] = [
  {
    name: 'usage',
    path: (mdn) => `/sim/usage/${mdn}`,
    failure: (_mdn, message) => ({ status: 'failure', message, errors: [message] }),
  },
  {
    name: 'serviceInfo',
    path: (mdn) => `/sim/service/${mdn}`,
    failure: (_mdn, message) => ({ status: 'failure', message }),
  },
  {
    name: 'carrierUsage',
    path: (mdn) => `/sim/usage/carrier/${mdn}`,
    failure: (_mdn, message) => ({ status: 'failure', message }),
  },
  {
    name: 'networkStatus',
    path: (mdn) => `/sim/network/${mdn}`,
    failure: (mdn, message) => ({ status: 'failure', mdn, message }),
  },
];

const REFUSALS = [
  { code: '918', mdn: () => '5550001111', message: 'Subscriber with given resource does not exist (918)' },
  { code: '909', mdn: () => '9095550000', message: 'MDN does not belong to this vendor (909)' },
  { code: '915', mdn: () => disconnected.mdn, message: 'ESN/MDN is inactive (915)' },
];

describe.each(LINE_QUERIES)('$name', (query) => {
  let token: string;
  beforeAll(async () => {
    ({ token } = await gateway.user());
  });

  it('answers the line on REST, and the same on GraphQL', async () => {
    const rest = await gateway.rest('GET', query.path(active.mdn), { token });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ mdn: active.mdn });
    const graphql = await graphqlQuery(gateway, query.name, { mdn: active.mdn }, token);
    expect(graphql.errors).toBeUndefined();
    expectTwin(rest.body, graphql.data?.[query.name]);
  });

  it.each(REFUSALS)(
    'answers the carrier refusal $code with HTTP 400 and the failure body; on GraphQL as data',
    async (refusal) => {
      const mdn = refusal.mdn();
      const rest = await gateway.rest('GET', query.path(mdn), { token });
      expect(rest.status).toBe(400);
      expect(rest.body).toEqual(query.failure(mdn, refusal.message));
      const graphql = await graphqlQuery(gateway, query.name, { mdn }, token);
      expect(graphql.errors).toBeUndefined();
      expect(String(graphql.data?.[query.name]?.status).toLowerCase()).toBe('failure');
      expectTwin(rest.body, graphql.data?.[query.name]);
    },
  );

  it('refuses a malformed mdn with 422 (REST) / BAD_USER_INPUT (GraphQL)', async () => {
    const rest = await gateway.rest('GET', query.path('12ab'), { token });
    expect(rest.status).toBe(422);
    expect(rest.body).toEqual({
      detail: [{ type: 'value_error', loc: ['path', 'mdn'], msg: 'mdn must be exactly 10 digits' }],
    });
    const graphql = await graphqlQuery(gateway, query.name, { mdn: '12ab' }, token);
    expect(statusesOf(graphql)).toEqual({ http: 200, rest: 422 });
    expect(graphql.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      issues: [{ type: 'value_error', loc: ['mdn'], msg: 'mdn must be exactly 10 digits' }],
    });
  });

  it('refuses a call without a token with 401 (REST) / UNAUTHENTICATED (GraphQL)', async () => {
    const rest = await gateway.rest('GET', query.path(active.mdn));
    expect(rest.status).toBe(401);
    expect(rest.body).toEqual({ detail: 'Not authenticated' });
    expect(rest.headers.get('www-authenticate')).toBe('Bearer');
    const graphql = await graphqlQuery(gateway, query.name, { mdn: active.mdn });
    expect(graphql.status).toBe(401);
    expect(graphql.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('exact success bodies', () => {
  let token: string;
  beforeAll(async () => {
    ({ token } = await gateway.user());
  });

  it('usage: the subscriber usage record with the subscriber status', async () => {
    const rest = await gateway.rest('GET', `/sim/usage/${active.mdn}`, { token });
    expect(Object.keys(rest.body).sort()).toEqual([
      'balance_details',
      'customer_id',
      'effective_date',
      'mdn',
      'plan_name',
      'sim',
      'status',
      'subscriptions',
    ]);
    expect(rest.body).toMatchObject({ mdn: active.mdn, sim: active.sim, status: 'ACTIVE', plan_name: 'Basic 1GB' });
    expect(rest.body.effective_date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(rest.body.balance_details).toEqual({ talk: 500, text: 1000, data: 1024 ** 3 });
    expect((rest.body.subscriptions as Record<string, unknown>[])[0]).toMatchObject({
      plan_code: 'BASIC1GB',
      plan_name: 'Basic 1GB',
    });
  });

  it('serviceInfo: the full service record, no e911_address while WFC is off, null hotline fields', async () => {
    const rest = await gateway.rest('GET', `/sim/service/${active.mdn}`, { token });
    expect(rest.status).toBe(200);
    expect(Object.keys(rest.body).sort()).toEqual([
      'balance_details',
      'bill_cycle_day',
      'effective_date',
      'hotline_number',
      'hotline_status',
      'imei',
      'mdn',
      'message',
      'plan_name',
      'service_codes',
      'sim',
      'status',
      'subscriptions',
    ]);
    expect(rest.body).toMatchObject({
      mdn: active.mdn,
      sim: active.sim,
      status: 'ACTIVE',
      hotline_status: null,
      hotline_number: null,
      message: 'Success',
    });
    expect(rest.body.imei).toMatch(/^\d{15}$/);
    expect(rest.body.service_codes).toContainEqual({
      code: 'BASIC1GB',
      effective_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
  });

  it('serviceInfo: the E911 address once WFC is on, and the hotline of a suspended line', async () => {
    const line = await seedLine(gateway);
    const core = gateway.sandboxes.cores['321'];
    await core.addWfc({ ...line, address: { ...SEED_ADDRESS, address2: 'Apt 2' }, transactionId: `WFC_${line.sim}` });
    await core.suspend({ mdn: line.mdn, hotlineNumber: '3215550000', transactionId: `SUS_${line.sim}` });
    const rest = await gateway.rest('GET', `/sim/service/${line.mdn}`, { token });
    expect(rest.body).toMatchObject({
      status: 'SUSPENDED',
      e911_address: { address1: '1 Main St', city: 'Atlanta', state: 'GA', zip_code: '30301' },
      hotline_status: 'HOTLINED',
      hotline_number: '3215550000',
    });
    // The spec's E911 object: address1, city, state, zip_code.
    expect(Object.keys(rest.body.e911_address as object).sort()).toEqual(['address1', 'city', 'state', 'zip_code']);
    const graphql = await graphqlQuery(gateway, 'serviceInfo', { mdn: line.mdn }, token);
    expectTwin(rest.body, graphql.data?.serviceInfo);
  });

  it('serviceInfo: the optional sim query parameter verifies the SIM (918 when it is not the line’s; 422 when malformed)', async () => {
    const ok = await gateway.rest('GET', `/sim/service/${active.mdn}?sim=${active.sim}`, { token });
    expect(ok.status).toBe(200);
    expect(ok.body.sim).toBe(active.sim);
    const wrong = await gateway.rest('GET', `/sim/service/${active.mdn}?sim=89010000000000000099`, { token });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ status: 'failure', message: expect.stringMatching(/\(918\)$/) });
    const graphql = await graphqlQuery(gateway, 'serviceInfo', { mdn: active.mdn, sim: '89010000000000000099' }, token);
    expectTwin(wrong.body, graphql.data?.serviceInfo);
    const malformed = await gateway.rest('GET', `/sim/service/${active.mdn}?sim=not-a-sim`, { token });
    expect(malformed.status).toBe(422);
    expect(malformed.body).toEqual({
      detail: [{ type: 'value_error', loc: ['query', 'sim'], msg: 'sim must be alphanumeric, at most 25 characters' }],
    });
    const tooLong = await graphqlQuery(gateway, 'serviceInfo', { mdn: active.mdn, sim: '8'.repeat(26) }, token);
    expect(tooLong.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      issues: [{ loc: ['sim'] }],
    });
  });

  it('carrierUsage: the wrapper with the raw VOICE, SMS and DATA records', async () => {
    const rest = await gateway.rest('GET', `/sim/usage/carrier/${active.mdn}`, { token });
    expect(Object.keys(rest.body).sort()).toEqual(['mdn', 'message', 'status', 'usage_records']);
    expect(rest.body).toMatchObject({ mdn: active.mdn, status: 'success', message: 'Success' });
    const records = rest.body.usage_records as Record<string, unknown>[];
    const stamp = expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(records.find((record) => record.type === 'VOICE')).toEqual({
      type: 'VOICE',
      duration: expect.any(Number),
      timestamp: stamp,
      destination: expect.any(String),
    });
    expect(records.find((record) => record.type === 'DATA')).toEqual({
      type: 'DATA',
      bytes_used: expect.any(Number),
      timestamp: stamp,
    });
    expect(records.find((record) => record.type === 'SMS')).toEqual({
      type: 'SMS',
      count: expect.any(Number),
      timestamp: stamp,
      destination: expect.any(String),
    });
  });

  it('networkStatus: the HLR record with the subscriber status', async () => {
    const rest = await gateway.rest('GET', `/sim/network/${active.mdn}`, { token });
    expect(rest.body).toEqual({
      status: 'ACTIVE',
      mdn: active.mdn,
      sim: active.sim,
      imei: expect.stringMatching(/^\d{15}$/),
      imsi: `310240${active.mdn.slice(-9)}`,
      sim_status: 'INUSE',
      service_codes: expect.arrayContaining(['BASIC1GB', 'VOLTE', 'VMBOX']),
      message: 'Success',
    });
  });

  it('routes a line the gateway knows on carrier_b to carrier_b', async () => {
    const line = await seedLine(gateway, { carrier: 'carrier_b' });
    const rest = await gateway.rest('GET', `/sim/network/${line.mdn}`, { token });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ mdn: line.mdn, sim: line.sim, status: 'ACTIVE' });
  });
});
