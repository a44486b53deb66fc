// The REST compatibility layer serves exactly the spec's summary table: every method and
// path (trailing slashes included) and no other, each with its spec'd rate limit.

import { describe, expect, it } from 'vitest';
import { operations } from '../../src/operations/index.js';
import { SPEC_PREFIXES } from '../support/spec.js';

/** The spec's Endpoints summary table: method, path, rate limit (null: superuser, unstated). */
const SPEC: [string, string, string | null][] = [
  ['POST', '/sim/wfc/add/', '20/minute'],
  ['POST', '/sim/wfc/address/', '20/minute'],
  ['POST', '/sim/voicemail/reset/', '20/minute'],
  ['POST', '/sim/voicemail/language/', '20/minute'],
  ['POST', '/sim/device-location/cancel/', '20/minute'],
  ['GET', '/sim/usage/{mdn}', '60/minute'],
  ['GET', '/sim/service/{mdn}', '60/minute'],
  ['GET', '/sim/usage/carrier/{mdn}', '60/minute'],
  ['GET', '/sim/coverage/{zip_code}', '60/minute'],
  ['GET', '/sim/coverage/quick/{zip_code}', '60/minute'],
  ['GET', '/sim/device/{imei}', '60/minute'],
  ['GET', '/sim/network/{mdn}', '60/minute'],
  ['GET', '/sim/esim/{sim}', '60/minute'],
  ['GET', '/sim/details/{sim}', '60/minute'],
  ['POST', '/sim/suspend/', '20/minute'],
  ['POST', '/sim/restore/', '20/minute'],
  ['POST', '/sim/disconnect/', '10/minute'],
  ['POST', '/sim/reconnect/', '20/minute'],
  ['POST', '/sim/swap/', '30/minute'],
  ['POST', '/sim/mdn/swap/', '20/minute'],
  ['POST', '/sim/balance/adjust/', '20/minute'],
  ['POST', '/sim/balance/adjust-multiple/', '20/minute'],
  ['POST', '/sim/line/add/', '20/minute'],
  ['POST', '/sim/line/remove/', '20/minute'],
  ['POST', '/sim/plan/change/', '30/minute'],
  ['POST', '/sim/plan/purchase/', '30/minute'],
  ['POST', '/sim/plan/cancel/', '30/minute'],
  ['POST', '/sim/billing-code/change/', '20/minute'],
  ['POST', '/sim/activate/', '30/minute'],
  ['POST', '/sim/activate/bulk/', '10/hour'],
  ['GET', '/settings/', null],
  ['GET', '/settings/{key}', null],
  ['PUT', '/settings/{key}', null],
  ['GET', '/settings/carriers/status', null],
  ['GET', '/sim/plans/available/', '30/minute'],
  ['POST', '/sim/address/validate/', '30/minute'],
  ['GET', '/sim/device/unlock-status/{imei}', '30/minute'],
  ['GET', '/sim/account/{mdn}', '30/minute'],
  ['GET', '/sim/pool-usage/{account_id}', '30/minute'],
  ['GET', '/sim/ngp/{zip_code}', '30/minute'],
  ['GET', '/sim/plan/active/{mdn}', '30/minute'],
  ['GET', '/sim/imei/{imei}', '30/minute'],
  ['GET', '/sim/products/{mdn}', '30/minute'],
  ['GET', '/sim/cim/', '10/minute'],
  ['POST', '/sim/sms/send/', '10/minute'],
  ['POST', '/sim/phone-list/manage/', '20/minute'],
  ['PATCH', '/sim/label/{mdn}', '20/minute'],
  ['POST', '/sim/imei/change/', '20/minute'],
];

const SUPERUSER = new Set([
  '/sim/balance/adjust/',
  '/sim/balance/adjust-multiple/',
  '/sim/billing-code/change/',
  '/settings/',
  '/settings/{key}',
  '/settings/carriers/status',
]);

describe('the REST surface', () => {
  const served = operations.filter((operation) => operation.rest);

  it('is exactly the 48 endpoints of the spec, plus the gateway’s own transaction lookup and line history', () => {
    expect(SPEC).toHaveLength(48);
    // The transaction lookup lets legacy clients learn a lost outcome as GraphQL clients can;
    // the line history is the GraphQL `line { history }` for them.
    const expected = [
      ...SPEC.map(([method, path]) => `${method} ${path}`),
      'GET /transactions/{id}',
      'GET /sim/history/{mdn}',
    ];
    expect(served.map((operation) => `${operation.rest!.method} ${operation.rest!.path}`).sort()).toEqual(
      expected.sort(),
    );
  });

  it.each(SPEC)('%s %s has the spec rate limit and access', (method, path, limit) => {
    const operation = served.find((candidate) => candidate.rest!.method === method && candidate.rest!.path === path)!;
    expect(operation.rateLimit ? `${operation.rateLimit.max}/${operation.rateLimit.window}` : null).toBe(limit);
    expect(operation.superuserOnly).toBe(SUPERUSER.has(path));
  });

  it('gives every mutating endpoint of the spec its transaction id prefix', () => {
    const prefixes = Object.fromEntries(
      served
        .filter((operation) => operation.transactionPrefix)
        .map((operation) => [operation.rest!.path, operation.transactionPrefix]),
    );
    // The extended operations' prefixes are ours (the spec names none); the others are the spec's.
    expect(prefixes).toMatchObject(SPEC_PREFIXES);
  });
});
