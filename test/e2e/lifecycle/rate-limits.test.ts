// The spec's per-minute rate limits of the features and lifecycle operations: each budget is
// per user and per operation, spent by any call (even a refused one), then 429 on REST and
// RATE_LIMITED on GraphQL.

import { describe, expect, it } from 'vitest';
import { graphqlMutation } from '../../support/surfaces.js';
import { useGateway } from '../../support/use-gateway.js';

const gateway = useGateway();

const address = { address1: 'a', city: 'c', state: 'GA', zipCode: '30301' };
const child = { parentMdn: '1', parentSim: '1', childMdn: '1' };
// Each GraphQL input has every required member (GraphQL checks those itself), so that the call
// reaches the pipeline's rate limit.
const limits: [
  field: string,
  path: string,
  perMinute: number,
  superuser: boolean,
  graphqlInput: Record<string, unknown>,
][] = [
  ['addWfc', '/sim/wfc/add/', 20, false, { mdn: '1', sim: '1', ...address }],
  ['updateE911Address', '/sim/wfc/address/', 20, false, { mdn: '1', ...address }],
  ['resetVoicemailPassword', '/sim/voicemail/reset/', 20, false, { mdn: '1' }],
  ['setVoicemailLanguage', '/sim/voicemail/language/', 20, false, { mdn: '1', language: 'ENGL' }],
  ['cancelDeviceLocation', '/sim/device-location/cancel/', 20, false, { mdn: '1' }],
  ['suspendLine', '/sim/suspend/', 20, false, { mdn: '1' }],
  ['restoreLine', '/sim/restore/', 20, false, { mdn: '1' }],
  ['disconnectLine', '/sim/disconnect/', 10, false, { mdn: '1', sim: '1', acknowledgeFinal: true }],
  ['reconnectLine', '/sim/reconnect/', 20, false, { mdn: '1', sim: '1', planId: 'P', zipCode: '30301' }],
  ['swapSim', '/sim/swap/', 30, false, { mdn: '1', oldSim: '1', newSim: '2' }],
  ['swapMdn', '/sim/mdn/swap/', 20, false, { mdn: '1', sim: '1', zipCode: '30301' }],
  ['adjustBalance', '/sim/balance/adjust/', 20, true, { mdn: '1', subscriptionId: 'S' }],
  ['adjustBalances', '/sim/balance/adjust-multiple/', 20, true, { mdn: '1', adjustments: [] }],
  ['addChildLine', '/sim/line/add/', 20, false, child],
  ['removeChildLine', '/sim/line/remove/', 20, false, child],
];

describe('rate limits', () => {
  it.each(limits)(
    '%s (%s) allows %i calls a minute per user',
    async (field, path, perMinute, superuser, graphqlInput) => {
      const { token } = await gateway.user({ superuser });
      // An empty body is refused by validation (422) after the budget is counted: no carrier call.
      for (let call = 0; call < perMinute; call++) {
        expect((await gateway.rest('POST', path, { token, body: {} })).status).toBe(422);
      }
      const limited = await gateway.rest('POST', path, { token, body: {} });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      const graphql = await graphqlMutation(gateway, field, graphqlInput, token);
      expect(graphql.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
      // Another user, and another operation of the same user, still have their budgets.
      const { token: other } = await gateway.user({ superuser });
      expect((await gateway.rest('POST', path, { token: other, body: {} })).status).toBe(422);
      expect((await gateway.rest('GET', '/sim/usage/12', { token })).status).toBe(422);
    },
  );
});
