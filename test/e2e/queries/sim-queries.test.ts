// The SIM queries (esimProfile, simDetails) over real HTTP against the sandbox carriers, on
// REST and GraphQL: exact bodies, 506/8011/8010/918/910, the SIM details failure body, 422, 401.

import { beforeAll, describe, expect, it } from 'vitest';
import { statusesOf } from '../../support/gateway.js';
import { expectTwin } from '../../support/surfaces.js';
import { graphqlQuery } from './selections.js';
import { seedLine } from '../../support/lines.js';
import { useGateway } from '../../support/use-gateway.js';

let token: string;

const gateway = useGateway();
beforeAll(async () => {
  ({ token } = await gateway.user());
});

const ESIM = '89020000000000000001';
const COMPLETED_ESIM = '89029000000000000001';
const PHYSICAL = '89010000000000000001';
const UNKNOWN_89 = '8903000000000000001';
const NOT_ICCID = 'ABC123';
const FOREIGN = '89990000000000000001';

async function both(name: 'esimProfile' | 'simDetails', path: string, sim: string) {
  const rest = await gateway.rest('GET', path, { token });
  const graphql = await graphqlQuery(gateway, name, { sim }, token);
  expect(graphql.errors).toBeUndefined();
  expectTwin(rest.body, graphql.data?.[name]);
  return rest;
}

describe('esimProfile', () => {
  it('answers the profile of an eSIM with its QR activation code', async () => {
    const rest = await both('esimProfile', `/sim/esim/${ESIM}`, ESIM);
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      status: 'success',
      sim: ESIM,
      activation_code: expect.stringMatching(/^LPA:1\$/),
      matching_id: expect.any(String),
      profile_state: 'AVAILABLE',
      profile_type: 'CONSUMER',
      esim_brand: expect.any(String),
      last_modified: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      message: 'Success',
    });
  });

  it.each([
    { sim: COMPLETED_ESIM, message: 'eSIM profile already completed and mapped (8011)' },
    { sim: PHYSICAL, message: 'eSIM not available for this MVNO (8010)' },
    { sim: UNKNOWN_89, message: 'Subscriber with given resource does not exist (918)' },
    { sim: NOT_ICCID, message: 'Invalid ESN / device (506)' },
  ])('answers $message with HTTP 400 and the failure body carrying the sim', async ({ sim, message }) => {
    const rest = await both('esimProfile', `/sim/esim/${sim}`, sim);
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({ status: 'failure', sim, message });
  });
});

describe('simDetails', () => {
  it('answers an available SIM: activation eligible, PUKs, dates, AVAILABLE', async () => {
    const rest = await both('simDetails', `/sim/details/${PHYSICAL}`, PHYSICAL);
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      sim: PHYSICAL,
      status: 'success',
      activation_eligible: true,
      wfc_eligible: true,
      puk1: expect.stringMatching(/^\d+$/),
      puk2: expect.stringMatching(/^\d+$/),
      create_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/),
      expiration_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/),
      iccid_status: 'AVAILABLE',
      message: 'Success',
    });
  });

  it('answers the SIM of a line: no longer activation eligible, INUSE; routed by the line registry', async () => {
    const line = await seedLine(gateway, { carrier: 'carrier_b' });
    const rest = await both('simDetails', `/sim/details/${line.sim}`, line.sim);
    expect(rest.body).toMatchObject({
      sim: line.sim,
      status: 'success',
      activation_eligible: false,
      iccid_status: 'INUSE',
    });
  });

  it.each([
    { sim: FOREIGN, message: 'ESN does not belong to this MVNO (910)' },
    { sim: UNKNOWN_89, message: 'Subscriber with given resource does not exist (918)' },
    { sim: NOT_ICCID, message: 'Invalid ESN / device (506)' },
  ])('answers $message with HTTP 400, both flags false and the other fields null', async ({ sim, message }) => {
    const rest = await both('simDetails', `/sim/details/${sim}`, sim);
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({
      sim,
      status: 'failure',
      activation_eligible: false,
      wfc_eligible: false,
      puk1: null,
      puk2: null,
      create_date: null,
      expiration_date: null,
      iccid_status: null,
      message,
    });
  });
});

describe.each([
  { name: 'esimProfile' as const, path: (sim: string) => `/sim/esim/${sim}` },
  { name: 'simDetails' as const, path: (sim: string) => `/sim/details/${sim}` },
])('$name refusals', ({ name, path }) => {
  it.each(['8901-0000', '8'.repeat(26)])(
    'refuses the malformed sim %s with 422 (REST) / BAD_USER_INPUT (GraphQL)',
    async (bad) => {
      const rest = await gateway.rest('GET', path(bad), { token });
      expect(rest.status).toBe(422);
      expect(rest.body).toEqual({
        detail: [{ type: 'value_error', loc: ['path', 'sim'], msg: 'sim must be alphanumeric, at most 25 characters' }],
      });
      const graphql = await graphqlQuery(gateway, name, { sim: bad }, token);
      expect(statusesOf(graphql)).toEqual({ http: 200, rest: 422 });
      expect(graphql.errors?.[0]?.extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        issues: [{ type: 'value_error', loc: ['sim'] }],
      });
    },
  );

  it('refuses a call without a token with 401 (REST) / UNAUTHENTICATED (GraphQL)', async () => {
    const rest = await gateway.rest('GET', path(PHYSICAL));
    expect(rest.status).toBe(401);
    expect(rest.body).toEqual({ detail: 'Not authenticated' });
    const graphql = await graphqlQuery(gateway, name, { sim: PHYSICAL });
    expect(graphql.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});
