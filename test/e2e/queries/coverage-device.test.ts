// Coverage, quick coverage and device compatibility over real HTTP against the sandbox
// carriers, on REST and GraphQL: the spec's HTTP-200 "no" answers (uncovered or invalid ZIP,
// unknown device), 510, GENS-0289, 506, 422 and 401.

import { beforeAll, describe, expect, it } from 'vitest';
import { statusesOf } from '../../support/gateway.js';
import { expectTwin } from '../../support/surfaces.js';
import { graphqlQuery, type QueryName } from './selections.js';
import { useGateway } from '../../support/use-gateway.js';

let token: string;

const gateway = useGateway();
beforeAll(async () => {
  ({ token } = await gateway.user());
});

/** Calls both surfaces and checks they agree; returns the REST answer. */
async function both(name: QueryName, path: string, args: Record<string, string>) {
  const rest = await gateway.rest('GET', path, { token });
  const graphql = await graphqlQuery(gateway, name, args, token);
  expect(graphql.errors).toBeUndefined();
  expectTwin(rest.body, graphql.data?.[name]);
  return rest;
}

const UNKNOWN_DEVICE = {
  compatible: false,
  status: 'failure',
  status_code: 'FAILURE',
  technology: null,
  sim_type: null,
  sim_size: null,
  message: 'Invalid ESN / device (506)',
  model: null,
  manufacturer: null,
  marketing_name: null,
  os_name: null,
  esim_capable: false,
  volte_capable: false,
  wifi_calling_capable: false,
  network_approved: false,
};

describe('coverage', () => {
  it('answers a covered ZIP with its areas', async () => {
    const rest = await both('coverage', '/sim/coverage/30301', { zipCode: '30301' });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      zip_code: '30301',
      covered: true,
      status: 'success',
      areas: expect.any(Array),
      message: 'Success',
    });
    const areas = rest.body.areas as Record<string, unknown>[];
    expect(areas.length).toBeGreaterThan(0);
    for (const area of areas)
      expect(area).toEqual({
        city: expect.any(String),
        state: expect.stringMatching(/^[A-Z]{2}$/),
        zip_code: '30301',
        quality: expect.any(String),
      });
  });

  it.each([
    { zip: '99999', message: 'Service is not available in this zip code (GENS-0289)' },
    { zip: '00000', message: 'Invalid zip code (510)' },
  ])('answers $zip with HTTP 200, covered false, status failure, no areas: $message', async ({ zip, message }) => {
    const rest = await both('coverage', `/sim/coverage/${zip}`, { zipCode: zip });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({ zip_code: zip, covered: false, status: 'failure', areas: [], message });
  });
});

describe('quickCoverage', () => {
  it('answers a covered ZIP: activation eligible true', async () => {
    const rest = await both('quickCoverage', '/sim/coverage/quick/30301', { zipCode: '30301' });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      zip_code: '30301',
      covered: true,
      status: 'success',
      message: 'Activation eligible: true',
    });
  });

  it.each([
    { zip: '99999', reason: 'Service is not available in this zip code (GENS-0289)' },
    { zip: '00000', reason: 'Invalid zip code (510)' },
  ])(
    'answers $zip with covered false, still status success (HTTP 200): activation eligible false',
    async ({ zip, reason }) => {
      const rest = await both('quickCoverage', `/sim/coverage/quick/${zip}`, { zipCode: zip });
      expect(rest.status).toBe(200);
      expect(rest.body).toEqual({
        zip_code: zip,
        covered: false,
        status: 'success',
        message: `Activation eligible: false: ${reason}`,
      });
    },
  );
});

describe('deviceCompatibility', () => {
  it('answers a known device with its make, model and capabilities', async () => {
    const rest = await both('deviceCompatibility', '/sim/device/356789012345678', { imei: '356789012345678' });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      imei: '356789012345678',
      compatible: true,
      status: 'success',
      status_code: 'SUCCESS',
      technology: '5G',
      sim_type: expect.any(String),
      sim_size: expect.any(String),
      message: 'Success',
      model: expect.any(String),
      manufacturer: expect.any(String),
      marketing_name: expect.any(String),
      os_name: expect.any(String),
      esim_capable: true,
      volte_capable: true,
      wifi_calling_capable: true,
      network_approved: true,
    });
  });

  it('answers an unknown device (506) with HTTP 200, compatible false, FAILURE, false booleans and nulls', async () => {
    const rest = await gateway.rest('GET', '/sim/device/990000000000001', { token });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({ imei: '990000000000001', ...UNKNOWN_DEVICE });
    const graphql = await graphqlQuery(gateway, 'deviceCompatibility', { imei: '990000000000001' }, token);
    expect(graphql.data?.deviceCompatibility).toMatchObject({
      status: 'FAILURE',
      statusCode: 'FAILURE',
      compatible: false,
      model: null,
      esimCapable: false,
    });
  });
});

describe.each([
  {
    name: 'coverage' as const,
    path: (value: string) => `/sim/coverage/${value}`,
    arg: 'zipCode',
    loc: 'zip_code',
    bad: '3030',
    msg: 'zip_code must be 5 digits',
    graphqlMsg: 'zipCode must be 5 digits',
  },
  {
    name: 'quickCoverage' as const,
    path: (value: string) => `/sim/coverage/quick/${value}`,
    arg: 'zipCode',
    loc: 'zip_code',
    bad: '30301-1234',
    msg: 'zip_code must be 5 digits',
    graphqlMsg: 'zipCode must be 5 digits',
  },
  {
    name: 'deviceCompatibility' as const,
    path: (value: string) => `/sim/device/${value}`,
    arg: 'imei',
    loc: 'imei',
    bad: '35678901234567X',
    msg: 'imei must be exactly 15 digits',
    graphqlMsg: 'imei must be exactly 15 digits',
  },
])('$name refusals', ({ name, path, arg, loc, bad, msg, graphqlMsg }) => {
  it(`refuses a malformed ${loc} with 422 (REST) / BAD_USER_INPUT (GraphQL)`, async () => {
    const rest = await gateway.rest('GET', path(bad), { token });
    expect(rest.status).toBe(422);
    expect(rest.body).toEqual({ detail: [{ type: 'value_error', loc: ['path', loc], msg }] });
    const graphql = await graphqlQuery(gateway, name, { [arg]: bad }, token);
    expect(statusesOf(graphql)).toEqual({ http: 200, rest: 422 });
    expect(graphql.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      // At the field's own argument, named as GraphQL names it (REST keeps the spec's names).
      issues: [{ type: 'value_error', loc: [arg], msg: graphqlMsg }],
    });
  });

  it('refuses a call without a token with 401 (REST) / UNAUTHENTICATED (GraphQL)', async () => {
    const good = arg === 'imei' ? '356789012345678' : '30301';
    const rest = await gateway.rest('GET', path(good));
    expect(rest.status).toBe(401);
    expect(rest.body).toEqual({ detail: 'Not authenticated' });
    const graphql = await graphqlQuery(gateway, name, { [arg]: good });
    expect(graphql.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});
