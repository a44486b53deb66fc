// The fourteen extended operations as one table: a valid call of each on REST and on GraphQL,
// with its per-minute rate limit and whether it is routed by the line.

import type { TestGateway } from '../../support/gateway.js';

export interface Line {
  mdn: string;
  sim: string;
}

export interface Call {
  name: string;
  limit: number;
  /** Routed by the line (`mdn`), so a line on carrier_b makes it 501. */
  byLine: boolean;
  rest(line: Line): RestCall;
  graphql: string;
  variables(line: Line): Record<string, unknown>;
  /** A REST call refused by validation (422): it still counts against the budget, at less cost. */
  invalid?: RestCall;
}

interface RestCall {
  method: string;
  path: string;
  body?: Record<string, unknown>;
}

const IMEI = '356938035643809';
export const calls: Call[] = [
  {
    name: 'availablePlans',
    limit: 30,
    byLine: false,
    rest: () => ({ method: 'GET', path: '/sim/plans/available/' }),
    graphql: '{ availablePlans { status } }',
    variables: () => ({}),
  },
  {
    name: 'validateAddress',
    invalid: { method: 'POST', path: '/sim/address/validate/', body: {} },
    limit: 30,
    byLine: false,
    rest: () => ({
      method: 'POST',
      path: '/sim/address/validate/',
      body: { street1: '1 Main St', city: 'Atlanta', state: 'GA', zip_code: '30301' },
    }),
    graphql: '{ validateAddress(street1: "1 Main St", city: "Atlanta", state: "GA", zipCode: "30301") { status } }',
    variables: () => ({}),
  },
  {
    name: 'deviceUnlockStatus',
    invalid: { method: 'GET', path: '/sim/device/unlock-status/1' },
    limit: 30,
    byLine: false,
    rest: () => ({ method: 'GET', path: `/sim/device/unlock-status/${IMEI}` }),
    graphql: `{ deviceUnlockStatus(imei: "${IMEI}") { status } }`,
    variables: () => ({}),
  },
  {
    name: 'account',
    invalid: { method: 'GET', path: '/sim/account/1' },
    limit: 30,
    byLine: true,
    rest: ({ mdn }) => ({ method: 'GET', path: `/sim/account/${mdn}` }),
    graphql: 'query ($mdn: String!) { account(mdn: $mdn) { status } }',
    variables: ({ mdn }) => ({ mdn }),
  },
  {
    name: 'poolUsage',
    invalid: { method: 'GET', path: '/sim/pool-usage/ACCT.1' },
    limit: 30,
    byLine: false,
    rest: () => ({ method: 'GET', path: '/sim/pool-usage/ACCT00000001' }),
    graphql: '{ poolUsage(accountId: "ACCT00000001") { status } }',
    variables: () => ({}),
  },
  {
    name: 'numberGroups',
    invalid: { method: 'GET', path: '/sim/ngp/1' },
    limit: 30,
    byLine: false,
    rest: () => ({ method: 'GET', path: '/sim/ngp/30301' }),
    graphql: '{ numberGroups(zipCode: "30301") { status } }',
    variables: () => ({}),
  },
  {
    name: 'activePlan',
    invalid: { method: 'GET', path: '/sim/plan/active/1' },
    limit: 30,
    byLine: true,
    rest: ({ mdn }) => ({ method: 'GET', path: `/sim/plan/active/${mdn}` }),
    graphql: 'query ($mdn: String!) { activePlan(mdn: $mdn) { status } }',
    variables: ({ mdn }) => ({ mdn }),
  },
  {
    name: 'imeiDetails',
    invalid: { method: 'GET', path: '/sim/imei/1' },
    limit: 30,
    byLine: false,
    rest: () => ({ method: 'GET', path: `/sim/imei/${IMEI}` }),
    graphql: `{ imeiDetails(imei: "${IMEI}") { status } }`,
    variables: () => ({}),
  },
  {
    name: 'products',
    invalid: { method: 'GET', path: '/sim/products/1' },
    limit: 30,
    byLine: true,
    rest: ({ mdn }) => ({ method: 'GET', path: `/sim/products/${mdn}` }),
    graphql: 'query ($mdn: String!) { products(mdn: $mdn) { status } }',
    variables: ({ mdn }) => ({ mdn }),
  },
  {
    name: 'customerImpactingEvents',
    invalid: { method: 'GET', path: '/sim/cim/?start_time=x' },
    limit: 10,
    byLine: false,
    rest: () => ({ method: 'GET', path: '/sim/cim/?start_time=2026-01-01' }),
    graphql: '{ customerImpactingEvents(startTime: "2026-01-01") { status } }',
    variables: () => ({}),
  },
  {
    name: 'sendSms',
    invalid: { method: 'POST', path: '/sim/sms/send/', body: {} },
    limit: 10,
    byLine: true,
    rest: ({ mdn }) => ({ method: 'POST', path: '/sim/sms/send/', body: { mdn, message: 'Hi' } }),
    graphql: 'mutation ($mdn: String!) { sendSms(input: { mdn: $mdn, message: "Hi" }) { status } }',
    variables: ({ mdn }) => ({ mdn }),
  },
  {
    name: 'managePhoneList',
    invalid: { method: 'POST', path: '/sim/phone-list/manage/', body: {} },
    limit: 20,
    byLine: true,
    rest: ({ mdn }) => ({
      method: 'POST',
      path: '/sim/phone-list/manage/',
      body: { mdn, action: 'add', numbers: ['4045550001'] },
    }),
    graphql:
      'mutation ($mdn: String!) { managePhoneList(input: { mdn: $mdn, action: ADD, numbers: ["4045550001"] }) { status } }',
    variables: ({ mdn }) => ({ mdn }),
  },
  {
    name: 'setLineLabel',
    invalid: { method: 'PATCH', path: '/sim/label/3215550001', body: {} },
    limit: 20,
    byLine: true,
    rest: ({ mdn }) => ({ method: 'PATCH', path: `/sim/label/${mdn}`, body: { mdn, label: 'Kid' } }),
    graphql: 'mutation ($mdn: String!) { setLineLabel(input: { mdn: $mdn, label: "Kid" }) { status } }',
    variables: ({ mdn }) => ({ mdn }),
  },
  {
    name: 'changeImei',
    invalid: { method: 'POST', path: '/sim/imei/change/', body: {} },
    limit: 20,
    byLine: true,
    rest: ({ mdn, sim }) => ({ method: 'POST', path: '/sim/imei/change/', body: { mdn, sim, new_imei: IMEI } }),
    graphql: `mutation ($mdn: String!, $sim: String!) { changeImei(input: { mdn: $mdn, sim: $sim, newImei: "${IMEI}" }) { status } }`,
    variables: ({ mdn, sim }) => ({ mdn, sim }),
  },
];

export function callRest(gateway: TestGateway, call: Call, line: Line, token?: string) {
  const { method, path, body } = call.rest(line);
  return gateway.rest(method, path, { token, body });
}

export function callGraphQL(gateway: TestGateway, call: Call, line: Line, token?: string) {
  return gateway.graphql(call.graphql, { token, variables: call.variables(line) });
}
