// Extended queries that are not about a line, over REST and GraphQL against the carrier 321
// sandbox: plan catalogue, address validation, device unlock status and IMEI details, number
// groups and customer-impacting events; their validation (422) and carrier refusals.

import type { GraphQLObjectType } from 'graphql';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildSchema } from '../../../src/graphql/schema.js';
import { graphqlForm } from '../../support/graphql-form.js';
import { expectInvalid, expectSameAnswer } from '../../support/surfaces.js';
import { seedUnknownLine } from '../../support/lines.js';
import { useGateway } from '../../support/use-gateway.js';

let token: string;

const gateway = useGateway();
beforeAll(async () => {
  ({ token } = await gateway.user());
});

const CATALOGUE = [
  { soc: 'BASIC1GB', name: 'Basic 1GB' },
  { soc: 'PLUS5GB', name: 'Plus 5GB' },
  { soc: 'UNL10GB', name: 'Unlimited Talk & Text 10GB' },
  { soc: 'UNLWFC', name: 'Unlimited with Wi-Fi Calling' },
  { soc: 'TOPUP1GB', name: '1GB Data Top-Up' },
  { soc: 'INTL100', name: 'International 100 Minutes' },
];

describe('availablePlans (GET /sim/plans/available/)', () => {
  it('answers the operation envelope with the plan codes and a generated PLANS_ id, on both surfaces', async () => {
    const rest = await gateway.rest('GET', '/sim/plans/available/', { token });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      status: 'success',
      mdn: null,
      sim: null,
      transaction_id: expect.stringMatching(/^PLANS_[0-9A-F]{12}$/),
      message: 'Success',
      plans: CATALOGUE,
    });
    const graphql = await gateway.graphql<{ availablePlans: Record<string, unknown> }>(
      '{ availablePlans { status mdn sim transactionId message plans { soc name } } }',
      { token },
    );
    expect(graphql.errors).toBeUndefined();
    expect(graphql.data?.availablePlans).toEqual({
      status: 'SUCCESS',
      mdn: null,
      sim: null,
      transactionId: expect.stringMatching(/^PLANS_[0-9A-F]{12}$/),
      message: 'Success',
      plans: CATALOGUE,
    });
    expect(graphql.data?.availablePlans.transactionId).not.toBe(rest.body.transaction_id);
  });
});

const addressQuery = `query ($street1: String!, $city: String!, $state: String!, $zipCode: String!) {
  validateAddress(street1: $street1, city: $city, state: $state, zipCode: $zipCode) { status valid normalized { street1 city state zipCode } message }
}`;

describe('validateAddress (POST /sim/address/validate/)', () => {
  it('answers the normalised address of a valid one, on both surfaces', async () => {
    const body = { street1: ' 1  main   st ', city: 'atlanta', state: 'ga', zip_code: '30301-1234' };
    const rest = await gateway.rest('POST', '/sim/address/validate/', { token, body });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      status: 'success',
      valid: true,
      normalized: { street1: '1 MAIN ST', city: 'ATLANTA', state: 'GA', zip_code: '30301-1234' },
      message: 'Success',
    });
    const graphql = await gateway.graphql(addressQuery, {
      token,
      variables: { street1: body.street1, city: body.city, state: body.state, zipCode: body.zip_code },
    });
    expectSameAnswer(rest, graphql, 'validateAddress');
  });

  it.each([
    ['an INVALID street', { street1: '12 Invalid Road', zip_code: '30301' }],
    ['the invalid ZIP 00000', { street1: '1 Main St', zip_code: '00000' }],
  ])('answers HTTP 200, status failure and valid false for %s, on both surfaces', async (_name, address) => {
    const body = { city: 'Atlanta', state: 'GA', ...address };
    const rest = await gateway.rest('POST', '/sim/address/validate/', { token, body });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      status: 'failure',
      valid: false,
      normalized: null,
      message: 'Invalid address: the carrier cannot validate it',
    });
    const graphql = await gateway.graphql(addressQuery, {
      token,
      variables: { street1: body.street1, city: body.city, state: body.state, zipCode: body.zip_code },
    });
    expectSameAnswer(rest, graphql, 'validateAddress');
  });

  it('says on GraphQL what an invalid address answers: FAILURE without an error code, as described', async () => {
    const graphql = await gateway.graphql<{ validateAddress: Record<string, unknown> }>(
      `query ($street1: String!) {
        validateAddress(street1: $street1, city: "Atlanta", state: "GA", zipCode: "30301") { status errorCode message valid }
      }`,
      { token, variables: { street1: '12 INVALID Road' } },
    );
    expect(graphql.data?.validateAddress).toEqual({
      status: 'FAILURE',
      errorCode: null,
      message: 'Invalid address: the carrier cannot validate it',
      valid: false,
    });
    const type = buildSchema().getType('AddressValidationResult') as GraphQLObjectType;
    const { status, message, errorCode } = type.getFields();
    expect(status!.description).toContain('failure: it is not (HTTP 200, no error code)');
    expect(message!.description).toContain(
      '"Invalid address: the carrier cannot validate it" for an invalid address (the carrier gives no reason or code)',
    );
    expect(errorCode!.description).toContain('null when `message` ends with none');
  });

  const valid = { street1: '1 Main St', city: 'Atlanta', state: 'GA', zip_code: '30301' };
  it.each([
    ['street1 missing', { street1: undefined }, { type: 'missing', loc: ['body', 'street1'], msg: 'Field required' }],
    ['city missing', { city: undefined }, { type: 'missing', loc: ['body', 'city'], msg: 'Field required' }],
    ['state missing', { state: undefined }, { type: 'missing', loc: ['body', 'state'], msg: 'Field required' }],
    [
      'zip_code missing',
      { zip_code: undefined },
      { type: 'missing', loc: ['body', 'zip_code'], msg: 'Field required' },
    ],
    [
      'street1 blank',
      { street1: '   ' },
      { type: 'value_error', loc: ['body', 'street1'], msg: 'street1 must not be empty' },
    ],
    ['city empty', { city: '' }, { type: 'value_error', loc: ['body', 'city'], msg: 'city must not be empty' }],
    [
      'state of 3 letters',
      { state: 'GAA' },
      { type: 'value_error', loc: ['body', 'state'], msg: 'state must be a 2-letter US state code' },
    ],
    [
      'zip_code of 4 digits',
      { zip_code: '3030' },
      { type: 'value_error', loc: ['body', 'zip_code'], msg: 'zip_code must be 5 digits or ZIP+4 (NNNNN-NNNN)' },
    ],
    [
      'zip_code 30301-12',
      { zip_code: '30301-12' },
      { type: 'value_error', loc: ['body', 'zip_code'], msg: 'zip_code must be 5 digits or ZIP+4 (NNNNN-NNNN)' },
    ],
    [
      'state not a string',
      { state: 12 },
      { type: 'string_type', loc: ['body', 'state'], msg: 'Input should be a valid string' },
    ],
  ])('refuses %s with 422', async (_name, change, issue) => {
    const rest = await gateway.rest('POST', '/sim/address/validate/', { token, body: { ...valid, ...change } });
    // A missing or mistyped argument is refused by GraphQL itself; value rules are the gateway's.
    const twin =
      issue.type === 'value_error'
        ? await gateway.graphql(addressQuery, {
            token,
            variables: Object.fromEntries(
              Object.entries({ ...valid, ...change }).map(([key, value]) => [
                key === 'zip_code' ? 'zipCode' : key,
                value,
              ]),
            ),
          })
        : undefined;
    expectInvalid(rest, twin, issue);
  });
});

const unlockQuery =
  'query ($imei: String!) { deviceUnlockStatus(imei: $imei) { status imei unlocked unlockEligible reason message } }';
const imeiQuery =
  'query ($imei: String!) { imeiDetails(imei: $imei) { status imei manufacturer model marketingName osName esimCapable volteCapable blacklisted message } }';

describe('deviceUnlockStatus (GET /sim/device/unlock-status/{imei})', () => {
  it('says a device on a new line is not eligible yet, on both surfaces', async () => {
    const line = await seedUnknownLine(gateway);
    const { imei } = await gateway.sandboxes.cores['321'].getServiceProfile(line.mdn);
    const rest = await gateway.rest('GET', `/sim/device/unlock-status/${imei}`, { token });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      status: 'success',
      imei,
      unlocked: false,
      unlock_eligible: false,
      reason: 'Device has been active on the network for less than 60 days',
      message: 'Success',
    });
    expectSameAnswer(rest, await gateway.graphql(unlockQuery, { token, variables: { imei } }), 'deviceUnlockStatus');
  });

  it('says a device on no line is eligible', async () => {
    const rest = await gateway.rest('GET', '/sim/device/unlock-status/356938035643809', { token });
    expect(rest.body).toEqual({
      status: 'success',
      imei: '356938035643809',
      unlocked: false,
      unlock_eligible: true,
      reason: null,
      message: 'Success',
    });
    expectSameAnswer(
      rest,
      await gateway.graphql(unlockQuery, { token, variables: { imei: '356938035643809' } }),
      'deviceUnlockStatus',
    );
  });

  it('answers an unknown device (506) with 400 and the failure envelope', async () => {
    const rest = await gateway.rest('GET', '/sim/device/unlock-status/990000862471854', { token });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({ status: 'failure', imei: '990000862471854', message: 'Invalid ESN / device (506)' });
    const graphql = await gateway.graphql(unlockQuery, { token, variables: { imei: '990000862471854' } });
    expect(graphql.data?.deviceUnlockStatus).toEqual({
      ...graphqlForm(rest.body),
      unlocked: null,
      unlockEligible: null,
      reason: null,
    });
  });

  it.each(['35693803564380', '3569380356438091', '35693803564380x'])('refuses the IMEI %s with 422', async (imei) => {
    const rest = await gateway.rest('GET', `/sim/device/unlock-status/${imei}`, { token });
    const graphql = await gateway.graphql(unlockQuery, { token, variables: { imei } });
    expectInvalid(rest, graphql, { type: 'value_error', loc: ['path', 'imei'], msg: 'imei must be exactly 15 digits' });
  });
});

describe('imeiDetails (GET /sim/imei/{imei})', () => {
  it('answers the device details, on both surfaces', async () => {
    const rest = await gateway.rest('GET', '/sim/imei/356938035643809', { token });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({
      status: 'success',
      imei: '356938035643809',
      esim_capable: true,
      volte_capable: true,
      blacklisted: false,
      message: 'Success',
    });
    for (const key of ['manufacturer', 'model', 'marketing_name', 'os_name'])
      expect(typeof rest.body[key]).toBe('string');
    expectSameAnswer(
      rest,
      await gateway.graphql(imeiQuery, { token, variables: { imei: '356938035643809' } }),
      'imeiDetails',
    );
  });

  it('answers an unknown device (506) with 400', async () => {
    const rest = await gateway.rest('GET', '/sim/imei/991234567890123', { token });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({ status: 'failure', imei: '991234567890123', message: 'Invalid ESN / device (506)' });
    const graphql = await gateway.graphql<{ imeiDetails: Record<string, unknown> }>(imeiQuery, {
      token,
      variables: { imei: '991234567890123' },
    });
    expect(graphql.data?.imeiDetails).toMatchObject(graphqlForm(rest.body));
  });

  it('refuses a malformed IMEI with 422', async () => {
    const rest = await gateway.rest('GET', '/sim/imei/12345', { token });
    const graphql = await gateway.graphql(imeiQuery, { token, variables: { imei: '12345' } });
    expectInvalid(rest, graphql, { type: 'value_error', loc: ['path', 'imei'], msg: 'imei must be exactly 15 digits' });
  });
});

const groupsQuery =
  'query ($zipCode: String!) { numberGroups(zipCode: $zipCode) { status zipCode groups { npa nxx city state available } message } }';

describe('numberGroups (GET /sim/ngp/{zip_code})', () => {
  it('answers the number groups of a covered ZIP, on both surfaces', async () => {
    const rest = await gateway.rest('GET', '/sim/ngp/10001', { token });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ status: 'success', zip_code: '10001', message: 'Success' });
    const groups = rest.body.groups as Record<string, unknown>[];
    expect(groups.length).toBeGreaterThanOrEqual(1);
    for (const group of groups)
      expect(group).toEqual({
        npa: '321',
        nxx: expect.stringMatching(/^\d{3}$/),
        city: expect.any(String),
        state: expect.any(String),
        available: expect.any(Number),
      });
    expectSameAnswer(
      rest,
      await gateway.graphql(groupsQuery, { token, variables: { zipCode: '10001' } }),
      'numberGroups',
    );
  });

  it('answers no groups for the uncovered ZIP 99999', async () => {
    const rest = await gateway.rest('GET', '/sim/ngp/99999', { token });
    expect(rest.body).toEqual({ status: 'success', zip_code: '99999', groups: [], message: 'Success' });
  });

  it('answers the invalid ZIP 00000 (510) with 400, on both surfaces', async () => {
    const rest = await gateway.rest('GET', '/sim/ngp/00000', { token });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({ status: 'failure', zip_code: '00000', message: 'Invalid zip code (510)' });
    const graphql = await gateway.graphql(groupsQuery, { token, variables: { zipCode: '00000' } });
    expect(graphql.data?.numberGroups).toEqual({ ...graphqlForm(rest.body), groups: null });
  });

  it.each(['1000', '100011', '10001-1234', 'abcde'])('refuses the ZIP %s with 422', async (zip) => {
    const rest = await gateway.rest('GET', `/sim/ngp/${zip}`, { token });
    const graphql = await gateway.graphql(groupsQuery, { token, variables: { zipCode: zip } });
    expectInvalid(rest, graphql, { type: 'value_error', loc: ['path', 'zip_code'], msg: 'zip_code must be 5 digits' });
  });
});

const eventsQuery = `query ($startTime: String, $endTime: String) {
  customerImpactingEvents(startTime: $startTime, endTime: $endTime) { status events { eventId category description zipCodes startTime endTime } message }
}`;

describe('customerImpactingEvents (GET /sim/cim/)', () => {
  // 10 calls a minute per user: each test takes its own user.
  let token: string;
  beforeEach(async () => {
    ({ token } = await gateway.user());
  });

  it('answers every seeded event without a window, on both surfaces', async () => {
    const rest = await gateway.rest('GET', '/sim/cim/', { token });
    expect(rest.status).toBe(200);
    const events = rest.body.events as Record<string, unknown>[];
    expect(events.map((event) => event.event_id)).toEqual(['CIM-0001', 'CIM-0002', 'CIM-0003', 'CIM-0004']);
    expect(events[2]).toMatchObject({ category: 'DEGRADED_SERVICE', end_time: null });
    expect(events[0]).toEqual({
      event_id: 'CIM-0001',
      category: expect.any(String),
      description: expect.any(String),
      zip_codes: expect.any(Array),
      start_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      end_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });
    expectSameAnswer(rest, await gateway.graphql(eventsQuery, { token }), 'customerImpactingEvents');
  });

  it('filters by a window given in any accepted form, on both surfaces', async () => {
    const rest = await gateway.rest('GET', '/sim/cim/?start_time=2000-01-01&end_time=2000-01-02T00:00:00Z', { token });
    expect(rest.body).toEqual({ status: 'success', events: [], message: 'Success' });
    const graphql = await gateway.graphql(eventsQuery, {
      token,
      variables: { startTime: '2000-01-01', endTime: '2000-01-02T00:00:00Z' },
    });
    expectSameAnswer(rest, graphql, 'customerImpactingEvents');
    const open = await gateway.rest('GET', '/sim/cim/?end_time=2000-01-01%2000:00:00', { token });
    expect(open.body.events).toEqual([]);
  });

  it('answers a start after the end with the carrier refusal (GENS-0404)', async () => {
    const rest = await gateway.rest('GET', '/sim/cim/?start_time=2026-03-02&end_time=2026-03-01', { token });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({
      status: 'failure',
      message: 'Invalid request parameter: start_time is after end_time (GENS-0404)',
    });
    const graphql = await gateway.graphql(eventsQuery, {
      token,
      variables: { startTime: '2026-03-02', endTime: '2026-03-01' },
    });
    expect(graphql.data?.customerImpactingEvents).toEqual({ ...graphqlForm(rest.body), events: null });
  });

  it.each([
    ['start_time', 'yesterday'],
    ['start_time', ''],
    ['end_time', '2026-02-30'],
    ['end_time', '2026-03-01 25:00:00'],
    ['end_time', '2026-03-01T10:00:00'],
  ])('refuses %s=%s with 422', async (name, value) => {
    const rest = await gateway.rest('GET', `/sim/cim/?${name}=${encodeURIComponent(value)}`, { token });
    const graphql = await gateway.graphql(eventsQuery, {
      token,
      variables: { [name === 'start_time' ? 'startTime' : 'endTime']: value },
    });
    expectInvalid(rest, graphql, {
      type: 'value_error',
      loc: ['query', name],
      msg: `${name} must be YYYY-MM-DD, YYYY-MM-DD HH:MM:SS (UTC) or ISO 8601 with a time zone`,
    });
  });
});
