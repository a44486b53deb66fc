// The seven runtime settings (the spec’s five, line_ownership and persisted_operations_only) over REST and GraphQL: listing, reading, every PUT validation rule
// of the spec (422 `{detail:[{type,loc,msg}]}` / BAD_USER_INPUT, nothing changed), unknown keys
// (404), carrier status without credentials, and a change seen by another replica.

import { beforeAll, describe, expect, it } from 'vitest';
import { startGateway, statusesOf, startReplica } from '../support/gateway.js';
import { errorOf } from '../support/surfaces.js';
import { seedUnknownLine } from '../support/lines.js';
import { useGateway } from '../support/use-gateway.js';
import { eventually } from '../support/eventually.js';

let admin: string;

const CREDENTIALS = ['sandbox-321-key', 'sandbox-b-secret', 'sandbox-b-account'];
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

const gateway = useGateway();
beforeAll(async () => {
  ({ token: admin } = await gateway.user({ superuser: true }));
});

const put = (key: string, body: unknown) => gateway.rest('PUT', `/settings/${key}`, { token: admin, body });
const value = async (key: string) => (await gateway.rest('GET', `/settings/${key}`, { token: admin })).body.value;

async function updateOnGraphQL(key: string, raw: string) {
  return gateway.graphql<{ updateSetting: { key: string; value: string } }>(
    'mutation ($key: String!, $value: String!) { updateSetting(input: { key: $key, value: $value }) { key value description updatedAt } }',
    {
      token: admin,
      variables: { key, value: raw },
    },
  );
}

/** PUT `raw` on REST and on GraphQL: both refused with the same message, nothing changed. */
async function expectRuleViolation(key: string, raw: string, message: RegExp): Promise<void> {
  const before = await value(key);
  const rest = await put(key, { value: raw });
  expect({ raw, status: rest.status }).toEqual({ raw, status: 422 });
  expect(rest.body).toEqual({
    detail: [{ type: 'value_error', loc: ['body', 'value'], msg: expect.stringMatching(message) }],
  });
  const graphql = await updateOnGraphQL(key, raw);
  expect(statusesOf(graphql)).toEqual({ http: 200, rest: 422 });
  expect(errorOf(graphql).code).toBe('BAD_USER_INPUT');
  // The same issue, located as each surface locates an input member.
  expect(graphql.errors?.[0]?.extensions?.issues).toEqual([
    { type: 'value_error', loc: ['input', 'value'], msg: (rest.body.detail as { msg: string }[])[0]!.msg },
  ]);
  expect(await value(key)).toBe(before);
}

describe('reading settings', () => {
  it('lists all six with key, JSON value, description and an ISO 8601 UTC updated_at', async () => {
    const answer = await gateway.rest<Record<string, unknown>[]>('GET', '/settings/', { token: admin });
    expect(answer.status).toBe(200);
    expect(answer.body.map((setting) => setting.key)).toEqual([
      'default_carrier',
      'carriers_enabled',
      'carrier_321_display_name',
      'carrier_carrier_b_display_name',
      'maintenance_mode',
      'line_ownership',
      'persisted_operations_only',
    ]);
    for (const setting of answer.body) {
      expect(Object.keys(setting).sort()).toEqual(['description', 'key', 'updated_at', 'value']);
      expect(typeof setting.description).toBe('string');
      expect((setting.description as string).length).toBeGreaterThan(5);
      expect(setting.updated_at).toMatch(ISO_UTC);
      expect(() => JSON.parse(setting.value as string)).not.toThrow();
    }
    const values = Object.fromEntries(
      answer.body.map((setting) => [setting.key, JSON.parse(setting.value as string) as unknown]),
    );
    expect(values).toMatchObject({
      default_carrier: '321',
      carriers_enabled: { '321': true, carrier_b: true },
      maintenance_mode: false,
    });
    expect(typeof values.carrier_321_display_name).toBe('string');
    // A string value carries its own quotes inside the string.
    expect(answer.body[0]!.value).toBe('"321"');
  });

  it('reads one setting, the same on GraphQL', async () => {
    const rest = await gateway.rest('GET', '/settings/default_carrier', { token: admin });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ key: 'default_carrier', value: '"321"' });
    const graphql = await gateway.graphql(
      '{ setting(key: "default_carrier") { key value description updatedAt } settings { key } }',
      { token: admin },
    );
    expect(graphql.errors).toBeUndefined();
    // GraphQL answers the JSON value itself (REST: its JSON text) and a DateTime.
    expect(graphql.data?.setting).toEqual({
      key: 'default_carrier',
      value: '321',
      description: rest.body.description,
      updatedAt: new Date(rest.body.updated_at as string).toISOString(),
    });
    expect((graphql.data?.settings as unknown[]).length).toBe(7);
  });

  it('answers 404 for an unknown key on GET and PUT, and NOT_FOUND on GraphQL', async () => {
    const get = await gateway.rest('GET', '/settings/no_such_key', { token: admin });
    expect(get.status).toBe(404);
    expect(get.body).toEqual({ detail: 'Setting no_such_key not found' });
    const update = await put('no_such_key', { value: 'true' });
    expect(update.status).toBe(404);
    expect(update.body).toEqual({ detail: 'Setting no_such_key not found' });
    const graphql = await updateOnGraphQL('no_such_key', 'true');
    expect(statusesOf(graphql)).toEqual({ http: 200, rest: 404 });
    expect(errorOf(graphql)).toEqual({ code: 'NOT_FOUND', message: 'Setting no_such_key not found' });
    expect(errorOf(await gateway.graphql('{ setting(key: "nope") { key } }', { token: admin })).code).toBe('NOT_FOUND');
  });
});

describe('PUT /settings/{key}: the request body', () => {
  it.each([
    ['missing value', {}, { type: 'missing', loc: ['body', 'value'] }],
    ['value not a string (a JSON boolean)', { value: true }, { type: 'string_type', loc: ['body', 'value'] }],
    ['value not a string (a JSON number)', { value: 321 }, { type: 'string_type', loc: ['body', 'value'] }],
  ])('refuses %s with 422', async (_name, body, issue) => {
    const answer = await put('maintenance_mode', body);
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({ detail: [expect.objectContaining(issue)] });
    expect(await value('maintenance_mode')).toBe('false');
  });

  it('refuses a body that is not JSON with 422 json_invalid', async () => {
    const answer = await put('maintenance_mode', '{"value": ');
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({ detail: [expect.objectContaining({ type: 'json_invalid' })] });
  });
});

describe('validation rules for PUT', () => {
  it('accepts a valid display name and answers the Setting', async () => {
    const answer = await put('carrier_carrier_b_display_name', { value: '"Bravo Mobile"' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      key: 'carrier_carrier_b_display_name',
      value: '"Bravo Mobile"',
      description: expect.any(String),
      updated_at: expect.stringMatching(ISO_UTC),
    });
    const status = await gateway.rest<Record<string, unknown>[]>('GET', '/settings/carriers/status', { token: admin });
    expect(status.body.find((carrier) => carrier.carrier === 'carrier_b')?.display_name).toBe('Bravo Mobile');
  });

  it('refuses a value that is not valid JSON (an unquoted string)', () =>
    expectRuleViolation('carrier_321_display_name', 'Carrier 321', /valid JSON/));

  it.each([
    ['a bare JSON number', '321'],
    ['an unquoted identifier (invalid JSON)', 'carrier_b'],
    ['an unknown carrier', '"carrier_c"'],
    ['null', 'null'],
    ['an object', '{"carrier":"321"}'],
  ])('default_carrier refuses %s', (_name, raw) => expectRuleViolation('default_carrier', raw, /321|JSON/));

  it('default_carrier accepts each quoted carrier, on REST and on GraphQL', async () => {
    const rest = await put('default_carrier', { value: '"carrier_b"' });
    expect(rest.status).toBe(200);
    expect(rest.body.value).toBe('"carrier_b"');
    const graphql = await updateOnGraphQL('default_carrier', '"321"');
    expect(graphql.errors).toBeUndefined();
    expect(graphql.data?.updateSetting).toMatchObject({ key: 'default_carrier', value: '321' });
  });

  it('default_carrier cannot be set to a disabled carrier', async () => {
    expect((await put('carriers_enabled', { value: '{"carrier_b": false}' })).status).toBe(200);
    await expectRuleViolation('default_carrier', '"carrier_b"', /disabled/);
    expect((await put('carriers_enabled', { value: '{"carrier_b": true}' })).status).toBe(200);
  });

  it.each([
    ['an array', '[]'],
    ['a string', '"321"'],
    ['true', 'true'],
    ['null', 'null'],
    ['invalid JSON', '{321: true}'],
    ['a non-boolean flag', '{"321": "yes"}'],
    ['an unknown carrier', '{"carrier_c": true}'],
  ])('carriers_enabled refuses %s', (_name, raw) => expectRuleViolation('carriers_enabled', raw, /.+/));

  it('carriers_enabled must keep at least one carrier enabled', () =>
    expectRuleViolation('carriers_enabled', '{"321": false, "carrier_b": false}', /at least one/));

  it('carriers_enabled cannot disable the current default carrier', async () => {
    await expectRuleViolation('carriers_enabled', '{"321": false}', /default/);
    expect((await put('default_carrier', { value: '"carrier_b"' })).status).toBe(200);
    await expectRuleViolation('carriers_enabled', '{"carrier_b": false}', /default/);
    // Once the default moved, the other carrier may be disabled.
    const disabled = await put('carriers_enabled', { value: '{"321": false}' });
    expect(disabled.status).toBe(200);
    expect(JSON.parse(disabled.body.value as string)).toEqual({ '321': false, carrier_b: true });
    expect((await put('carriers_enabled', { value: '{"321": true, "carrier_b": true}' })).status).toBe(200);
    expect((await put('default_carrier', { value: '"321"' })).status).toBe(200);
  });

  it.each([
    ['a quoted "true"', '"true"'],
    ['1', '1'],
    ['yes (invalid JSON)', 'yes'],
    ['null', 'null'],
  ])('maintenance_mode refuses %s', (_name, raw) => expectRuleViolation('maintenance_mode', raw, /true or false|JSON/));

  it('maintenance_mode accepts true and false, and updated_at moves', async () => {
    const before = (await gateway.rest('GET', '/settings/maintenance_mode', { token: admin })).body
      .updated_at as string;
    const on = await put('maintenance_mode', { value: 'true' });
    expect(on.body.value).toBe('true');
    expect(Date.parse(on.body.updated_at as string)).toBeGreaterThanOrEqual(Date.parse(before));
    const off = await updateOnGraphQL('maintenance_mode', 'false');
    expect(off.data?.updateSetting.value).toBe(false);
  });

  it.each([
    ['another word', '"on"'],
    ['an unquoted word', 'off'],
    ['a boolean', 'false'],
    ['null', 'null'],
  ])('line_ownership refuses %s', (_name, raw) =>
    expectRuleViolation('line_ownership', raw, /"enforced", "strict", "off"|JSON/),
  );

  it('line_ownership defaults to "enforced" and accepts "off", "strict" and back', async () => {
    expect(await value('line_ownership')).toBe('"enforced"');
    expect((await put('line_ownership', { value: '"off"' })).body.value).toBe('"off"');
    expect((await updateOnGraphQL('line_ownership', '"strict"')).data?.updateSetting.value).toBe('strict');
    expect((await updateOnGraphQL('line_ownership', '"enforced"')).data?.updateSetting.value).toBe('enforced');
  });

  it.each([
    ['an empty string', '""'],
    ['a number', '5'],
    ['over 100 characters', JSON.stringify('x'.repeat(101))],
  ])('a display name refuses %s', (_name, raw) => expectRuleViolation('carrier_321_display_name', raw, /string/));
});

describe('a change with the settings cached (as every request reads them)', () => {
  it('is read by the very next request on both surfaces, and so is the change back', async () => {
    const { token } = await gateway.user({ plans: ['BASIC'] });
    const line = await seedUnknownLine(gateway);
    const usageOnGraphQL = () =>
      gateway.graphql('query ($mdn: String!) { usage(mdn: $mdn) { status } }', { token, variables: { mdn: line.mdn } });
    // Read (and so cached) by these requests.
    expect((await gateway.rest('GET', `/sim/usage/${line.mdn}`, { token })).status).toBe(200);
    expect(gateway.app.services.settings.cachedValues()?.maintenance_mode).toBe(false);
    try {
      expect((await put('maintenance_mode', { value: 'true' })).status).toBe(200);
      expect((await gateway.rest('GET', `/sim/usage/${line.mdn}`, { token })).status).toBe(503);
      expect(errorOf(await usageOnGraphQL()).code).toBe('MAINTENANCE');
    } finally {
      expect((await put('maintenance_mode', { value: 'false' })).status).toBe(200);
    }
    expect((await gateway.rest('GET', `/sim/usage/${line.mdn}`, { token })).status).toBe(200);
    expect((await usageOnGraphQL()).data).toEqual({ usage: { status: 'SUCCESS' } });
  });
});

describe('carrier status', () => {
  it('answers both carriers with enabled, credentials_configured and display_name only', async () => {
    const answer = await gateway.rest<Record<string, unknown>[]>('GET', '/settings/carriers/status', { token: admin });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      { carrier: '321', enabled: true, credentials_configured: true, display_name: expect.any(String) },
      { carrier: 'carrier_b', enabled: true, credentials_configured: true, display_name: expect.any(String) },
    ]);
    const graphql = await gateway.graphql('{ carrierStatuses { carrier enabled credentialsConfigured displayName } }', {
      token: admin,
    });
    expect(graphql.data?.carrierStatuses).toEqual(
      (
        answer.body as { carrier: string; enabled: boolean; credentials_configured: boolean; display_name: string }[]
      ).map((status) => ({
        carrier: status.carrier === '321' ? 'CARRIER_321' : 'CARRIER_B',
        enabled: status.enabled,
        credentialsConfigured: status.credentials_configured,
        displayName: status.display_name,
      })),
    );
  });

  it('never carries a credential in any settings answer', async () => {
    const texts = await Promise.all(
      ['/settings/', '/settings/carriers/status', '/settings/default_carrier', '/settings/carriers_enabled'].map(
        async (path) => JSON.stringify((await gateway.rest('GET', path, { token: admin })).body),
      ),
    );
    texts.push(
      JSON.stringify(
        (
          await gateway.graphql(
            '{ settings { key value description } carrierStatuses { carrier enabled credentialsConfigured displayName } }',
            { token: admin },
          )
        ).data,
      ),
    );
    for (const text of texts) for (const credential of CREDENTIALS) expect(text).not.toContain(credential);
  });

  it('says credentials_configured false for a carrier whose URL is set without credentials', async () => {
    const partial = await startGateway({ env: { CARRIER_321_URL: 'http://127.0.0.1:9' } });
    try {
      const { token } = await partial.user({ superuser: true });
      const answer = await partial.rest<Record<string, unknown>[]>('GET', '/settings/carriers/status', { token });
      expect(answer.body.map((status) => [status.carrier, status.credentials_configured])).toEqual([
        ['321', false],
        ['carrier_b', true],
      ]);
      const health = await partial.rest('GET', '/healthz');
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({
        status: 'unavailable',
        checks: { carriers: { '321': 'missing credentials', carrier_b: 'ok' } },
      });
    } finally {
      await partial.close();
    }
  });

  it('answers 503 (not 501) for the extended operations of carrier 321 when its credentials are missing', async () => {
    const partial = await startGateway({ env: { CARRIER_321_URL: 'http://127.0.0.1:9' } });
    try {
      const { token } = await partial.user({ superuser: true });
      const extended = await partial.rest('GET', '/sim/plan/active/3215550001', { token });
      expect(extended.status).toBe(503);
      expect(extended.body).toEqual({
        status: 'failure',
        message: 'Carrier 321 has no credentials configured',
        code: 'HTTP_503',
      });
      expect((await partial.rest('GET', '/sim/usage/3215550001', { token })).status).toBe(503);
      // carrier_b has no extended operations at all: still 501 there.
      const onB = await partial.user({ carrier: 'carrier_b' });
      expect((await partial.rest('GET', '/sim/plan/active/6465550001', { token: onB.token })).status).toBe(501);
    } finally {
      await partial.close();
    }
  });
});

describe('two replicas on one database', () => {
  it('sees a change made on the other replica within a second, with caches that live for minutes', async () => {
    // SQLite: the other replica's commit changes this one's data_version (PostgreSQL: test/cache/replicas.test.ts).
    const first = await startGateway();
    const second = await startReplica(first);
    try {
      const { token } = await first.user({ superuser: true });
      // The second replica reads (and caches) the current value first.
      expect((await second.rest('GET', '/settings/carrier_321_display_name', { token })).body.value).toBe(
        '"Carrier 321"',
      );
      const changed = await first.rest('PUT', '/settings/carrier_321_display_name', {
        token,
        body: { value: '"Renamed"' },
      });
      expect(changed.status).toBe(200);
      const renamed = async () =>
        (await second.rest('GET', '/settings/carrier_321_display_name', { token })).body.value === '"Renamed"';
      expect(await eventually(renamed, 1000)).toBe(true);
      const status = await second.rest<Record<string, unknown>[]>('GET', '/settings/carriers/status', { token });
      expect(status.body[0]!.display_name).toBe('Renamed');
    } finally {
      await second.close();
      await first.close();
    }
  });
});
