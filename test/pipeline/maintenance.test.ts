// Maintenance mode and disabled carriers: carrier operations answer 503 (REST, with
// Retry-After) / MAINTENANCE or CARRIER_DISABLED (GraphQL), change nothing and reserve no
// transaction id; settings and account fields stay reachable; switching back restores service.

import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { statusesOf } from '../support/gateway.js';
import { seedUnknownLine } from '../support/lines.js';
import { errorOf } from '../support/surfaces.js';
import { useGateway } from '../support/use-gateway.js';

let admin: string;
let token: string;

const gateway = useGateway({ env: { CACHE_TTL_MS: '0' } });
beforeAll(async () => {
  ({ token: admin } = await gateway.user({ superuser: true }));
  ({ token } = await gateway.user({ plans: ['BASIC', 'PREMIUM'] }));
});

const setSetting = async (key: string, value: string) => {
  const answer = await gateway.rest('PUT', `/settings/${key}`, { token: admin, body: { value } });
  expect(answer.status).toBe(200);
};

describe('maintenance mode', () => {
  afterEach(() => setSetting('maintenance_mode', 'false'));

  it('answers 503 with Retry-After to carrier operations on REST, and MAINTENANCE on GraphQL', async () => {
    const line = await seedUnknownLine(gateway);
    await setSetting('maintenance_mode', 'true');

    const query = await gateway.rest('GET', `/sim/usage/${line.mdn}`, { token });
    expect(query.status).toBe(503);
    expect(Number(query.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(query.body).toEqual({ status: 'failure', message: expect.stringMatching(/maintenance/i), code: 'HTTP_503' });

    const transactionId = `MAINT-${Date.now()}`;
    const mutation = await gateway.rest('POST', '/sim/suspend/', {
      token,
      body: { mdn: line.mdn, transaction_id: transactionId },
    });
    expect(mutation.status).toBe(503);
    expect(mutation.body).toEqual(query.body);

    const graphqlQuery = await gateway.graphql('query ($mdn: String!) { usage(mdn: $mdn) { status } }', {
      token,
      variables: { mdn: line.mdn },
    });
    expect(statusesOf(graphqlQuery)).toEqual({ http: 200, rest: 503 });
    expect(errorOf(graphqlQuery)).toEqual({ code: 'MAINTENANCE', message: query.body.message });
    // The REST Retry-After, as RATE_LIMITED carries its own (a field error sends no header).
    expect(graphqlQuery.errors?.[0]?.extensions?.retryAfter).toBe(Number(query.headers.get('retry-after')));
    const graphqlMutation = await gateway.graphql(
      'mutation ($mdn: String!) { suspendLine(input: { mdn: $mdn }) { status } }',
      { token, variables: { mdn: line.mdn } },
    );
    expect(statusesOf(graphqlMutation)).toEqual({ http: 200, rest: 503 });
    expect(errorOf(graphqlMutation).code).toBe('MAINTENANCE');

    // Nothing happened: the line is still active and the transaction id was not reserved.
    expect(await gateway.app.services.transactions.find(transactionId)).toBeNull();
    await setSetting('maintenance_mode', 'false');
    const usage = await gateway.rest('GET', `/sim/usage/${line.mdn}`, { token });
    expect(usage.status).toBe(200);
    expect(usage.body.status).toBe('ACTIVE');
    const retried = await gateway.rest('POST', '/sim/suspend/', {
      token,
      body: { mdn: line.mdn, transaction_id: transactionId },
    });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ status: 'success', transaction_id: transactionId });
  });

  it('keeps settings, account and management fields reachable', async () => {
    await setSetting('maintenance_mode', 'true');
    expect((await gateway.rest('GET', '/settings/', { token: admin })).status).toBe(200);
    expect((await gateway.rest('GET', '/settings/maintenance_mode', { token: admin })).body.value).toBe('true');
    expect((await gateway.rest('GET', '/settings/carriers/status', { token: admin })).status).toBe(200);
    expect(
      (
        await gateway.rest('PUT', '/settings/carrier_321_display_name', {
          token: admin,
          body: { value: '"Carrier 321"' },
        })
      ).status,
    ).toBe(200);
    const account = await gateway.graphql('{ me { name } users { name } plans { planId } }', { token: admin });
    expect(account.errors).toBeUndefined();
    expect((await gateway.rest('GET', '/healthz')).status).toBe(200);
    // Switching it off through GraphQL restores service at once.
    const off = await gateway.graphql(
      'mutation { updateSetting(input: { key: "maintenance_mode", value: "false" }) { value } }',
      { token: admin },
    );
    expect(off.data).toEqual({ updateSetting: { value: false } });
    expect((await gateway.rest('GET', '/sim/usage/5550001111', { token })).status).toBe(400);
  });

  it('checks maintenance before validation and spends no rate-limit budget', async () => {
    await setSetting('maintenance_mode', 'true');
    const { token: fresh } = await gateway.user();
    for (let i = 0; i < 25; i++) {
      const answer = await gateway.rest('POST', '/sim/suspend/', { token: fresh, body: { mdn: 'not-an-mdn' } });
      expect(answer.status).toBe(503);
    }
    await setSetting('maintenance_mode', 'false');
    // 25 refused calls did not use the 20/min budget.
    expect((await gateway.rest('POST', '/sim/suspend/', { token: fresh, body: { mdn: '5550009999' } })).status).toBe(
      400,
    );
  });
});

describe('a disabled carrier', () => {
  afterEach(() => setSetting('carriers_enabled', '{"321": true, "carrier_b": true}'));

  it('answers CARRIER_DISABLED (503) for operations routed to it, and serves the other carrier', async () => {
    const onB = await seedUnknownLine(gateway, { carrier: 'carrier_b' });
    await gateway.app.services.lines.record({ mdn: onB.mdn, sim: onB.sim, carrier: 'carrier_b' });
    const on321 = await seedUnknownLine(gateway, { carrier: '321' });
    await setSetting('carriers_enabled', '{"carrier_b": false}');

    const transactionId = `DISABLED-${Date.now()}`;
    const rest = await gateway.rest('POST', '/sim/suspend/', {
      token,
      body: { mdn: onB.mdn, transaction_id: transactionId },
    });
    expect(rest.status).toBe(503);
    expect(rest.body).toEqual({
      status: 'failure',
      message: 'Carrier carrier_b is disabled by an administrator',
      code: 'HTTP_503',
    });
    expect(await gateway.app.services.transactions.find(transactionId)).toBeNull();

    const query = await gateway.rest('GET', `/sim/usage/${onB.mdn}`, { token });
    expect(query.status).toBe(503);
    const graphql = await gateway.graphql('query ($mdn: String!) { usage(mdn: $mdn) { status } }', {
      token,
      variables: { mdn: onB.mdn },
    });
    expect(statusesOf(graphql)).toEqual({ http: 200, rest: 503 });
    expect(errorOf(graphql)).toEqual({
      code: 'CARRIER_DISABLED',
      message: 'Carrier carrier_b is disabled by an administrator',
    });

    // The line on 321 is served as usual.
    expect((await gateway.rest('GET', `/sim/usage/${on321.mdn}`, { token })).status).toBe(200);

    await setSetting('carriers_enabled', '{"carrier_b": true}');
    const usage = await gateway.rest('GET', `/sim/usage/${onB.mdn}`, { token });
    expect(usage.status).toBe(200);
    expect(usage.body.status).toBe('ACTIVE');
  });

  it('refuses a plan whose carrier is disabled, and a user whose preferred carrier is disabled', async () => {
    await gateway.plan({ planId: 'B-ONLY', name: 'B only', carrierPlanId: 'PLUS5GB', carrier: 'carrier_b' });
    const { user, token: bUser } = await gateway.user({ carrier: 'carrier_b' });
    await gateway.app.services.directory.authorize(user.name, ['B-ONLY']);
    const line = await seedUnknownLine(gateway, { carrier: 'carrier_b' });
    await setSetting('carriers_enabled', '{"carrier_b": false}');

    const change = await gateway.rest('POST', '/sim/plan/change/', {
      token: bUser,
      body: { mdn: line.mdn, new_plan_id: 'B-ONLY' },
    });
    expect(change.status).toBe(503);
    expect(change.body.message).toBe('Carrier carrier_b is disabled by an administrator');
    // An unknown line falls back to the user's preference: carrier_b, disabled.
    const usage = await gateway.graphql('query ($mdn: String!) { usage(mdn: $mdn) { status } }', {
      token: bUser,
      variables: { mdn: line.mdn },
    });
    expect(errorOf(usage).code).toBe('CARRIER_DISABLED');

    await setSetting('carriers_enabled', '{"carrier_b": true}');
    const changed = await gateway.rest('POST', '/sim/plan/change/', {
      token: bUser,
      body: { mdn: line.mdn, new_plan_id: 'B-ONLY' },
    });
    expect(changed.status).toBe(200);
  });
});
