// Suspend (hotline) and restore over real HTTP against the sandbox carriers, REST and
// GraphQL: NEW/ACTIVE → suspended (935 when already suspended) → restored (GENS-0033 when
// not suspended), per-service scopes, the line registry's status, 422s and 401.

import { beforeAll, describe, expect, it } from 'vitest';
import { expectBadInput, expectSameOutcome, graphqlMutation } from '../../support/surfaces.js';
import { seedLine } from '../../support/lines.js';
import { useGateway } from '../../support/use-gateway.js';

let token: string;

const registryStatus = async (mdn: string) => (await gateway.app.services.lines.byMdns([mdn])).get(mdn)?.status;
const lineStatus = async (mdn: string) => (await gateway.sandboxes.cores['321'].getUsage(mdn)).lineStatus;
const post = (path: string, body: Record<string, unknown>, as = token) =>
  gateway.rest('POST', path, { token: as, body });

const gateway = useGateway();
beforeAll(async () => {
  ({ token } = await gateway.user());
});

describe('suspend → restore', () => {
  it('suspends, refuses a second suspend with 935, restores, refuses a second restore with GENS-0033', async () => {
    const line = await seedLine(gateway);
    const suspended = await post('/sim/suspend/', {
      mdn: line.mdn,
      hotline_number: '4045550100',
      hotline_chargeable: true,
      reason: 'non-payment',
    });
    expect(suspended.status).toBe(200);
    expect(suspended.body).toEqual({
      status: 'success',
      mdn: line.mdn,
      transaction_id: expect.stringMatching(/^SUSPEND_[0-9A-F]{12}$/),
      message: 'Success',
    });
    expect(await lineStatus(line.mdn)).toBe('SUSPENDED');
    expect(await registryStatus(line.mdn)).toBe('SUSPENDED');

    const again = await post('/sim/suspend/', { mdn: line.mdn });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      status: 'failure',
      mdn: line.mdn,
      transaction_id: expect.stringMatching(/^SUSPEND_/),
      message: 'Subscriber state not NEW or ACTIVE (935)',
    });

    const restored = await post('/sim/restore/', { mdn: line.mdn });
    expect(restored.status).toBe(200);
    expect(restored.body).toEqual({
      status: 'success',
      mdn: line.mdn,
      transaction_id: expect.stringMatching(/^RESTORE_[0-9A-F]{12}$/),
      message: 'Success',
    });
    expect(await lineStatus(line.mdn)).toBe('ACTIVE');
    expect(await registryStatus(line.mdn)).toBe('ACTIVE');

    const second = await post('/sim/restore/', { mdn: line.mdn });
    expect(second.status).toBe(400);
    expect(second.body).toEqual({
      status: 'failure',
      mdn: line.mdn,
      transaction_id: expect.stringMatching(/^RESTORE_/),
      message: 'MSISDN is not suspended (GENS-0033)',
    });
  });

  it('gives the same outcomes on GraphQL', async () => {
    const [viaRest, viaGraphql] = [await seedLine(gateway), await seedLine(gateway)];
    for (const [field, path] of [
      ['suspendLine', '/sim/suspend/'],
      ['suspendLine', '/sim/suspend/'],
      ['restoreLine', '/sim/restore/'],
      ['restoreLine', '/sim/restore/'],
    ] as const) {
      const rest = await post(path, { mdn: viaRest.mdn });
      const graphql = await graphqlMutation(gateway, field, { mdn: viaGraphql.mdn }, token);
      expectSameOutcome({ ...rest, body: { ...rest.body, mdn: viaGraphql.mdn } }, graphql, field);
    }
    expect(await registryStatus(viaGraphql.mdn)).toBe('ACTIVE');
  });

  it('restores one service at a time; the line is active once none is left hotlined', async () => {
    const line = await seedLine(gateway);
    expect((await post('/sim/suspend/', { mdn: line.mdn })).status).toBe(200);
    expect((await post('/sim/restore/', { mdn: line.mdn, service: 'SMS' })).status).toBe(200);
    expect(await registryStatus(line.mdn)).toBe('SUSPENDED');
    const notHotlined = await post('/sim/restore/', { mdn: line.mdn, service: 'SMS' });
    expect(notHotlined.status).toBe(400);
    expect(notHotlined.body.message).toBe('MSISDN is not suspended for SMS (GENS-0033)');
    expect((await post('/sim/restore/', { mdn: line.mdn, service: 'VOICE' })).status).toBe(200);
    expect((await post('/sim/restore/', { mdn: line.mdn, service: 'DATA' })).status).toBe(200);
    expect(await lineStatus(line.mdn)).toBe('ACTIVE');
    expect(await registryStatus(line.mdn)).toBe('ACTIVE');
  });

  it('reads an empty or null service as all services, as the spec says of suspend and restore (REST)', async () => {
    for (const service of ['', null]) {
      const line = await seedLine(gateway);
      const suspended = await post('/sim/suspend/', { mdn: line.mdn, service });
      expect(suspended.status).toBe(200);
      expect(await lineStatus(line.mdn)).toBe('SUSPENDED');
      // Every service is hotlined: one restored alone leaves the line suspended.
      expect((await post('/sim/restore/', { mdn: line.mdn, service: 'VOICE' })).status).toBe(200);
      expect(await lineStatus(line.mdn)).toBe('SUSPENDED');
      expect((await post('/sim/restore/', { mdn: line.mdn, service })).status).toBe(200);
      expect(await lineStatus(line.mdn)).toBe('ACTIVE');
      expect(await registryStatus(line.mdn)).toBe('ACTIVE');
    }
  });

  it('suspends one service only; restoring it makes the line active', async () => {
    const line = await seedLine(gateway);
    expect((await post('/sim/suspend/', { mdn: line.mdn, service: 'DATA' })).status).toBe(200);
    expect((await post('/sim/restore/', { mdn: line.mdn, service: 'DATA' })).status).toBe(200);
    expect(await registryStatus(line.mdn)).toBe('ACTIVE');
  });
});

describe('refusals and validation', () => {
  it.each([
    ['/sim/suspend/', '918', '5550001234'],
    ['/sim/suspend/', '909', '9095550000'],
    ['/sim/restore/', '918', '5550001234'],
    ['/sim/restore/', '909', '9095550000'],
  ])('%s answers %s for number %s', async (path, code, mdn) => {
    const rest = await post(path, { mdn });
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({
      status: 'failure',
      mdn,
      message: expect.stringMatching(new RegExp(`\\(${code}\\)$`)),
    });
  });

  it('answers 915 on a disconnected line', async () => {
    const line = await seedLine(gateway);
    await gateway.sandboxes.cores['321'].disconnect({
      mdn: line.mdn,
      sim: line.sim,
      transactionId: `DISC_${line.sim}`,
    });
    for (const path of ['/sim/suspend/', '/sim/restore/']) {
      expect(String((await post(path, { mdn: line.mdn })).body.message)).toMatch(/\(915\)$/);
    }
  });

  it.each([
    ['/sim/suspend/', { service: 'FAX' }, 'service', 'value_error', 'service must be VOICE, SMS or DATA'],
    ['/sim/suspend/', { hotline_number: '12345' }, 'hotline_number', 'value_error', 'hotline_number must be 10 digits'],
    [
      '/sim/suspend/',
      { hotline_chargeable: 'yes' },
      'hotline_chargeable',
      'boolean_type',
      'Input should be a valid boolean',
    ],
    ['/sim/suspend/', { mdn: 'abc' }, 'mdn', 'value_error', 'mdn must be exactly 10 digits'],
    ['/sim/suspend/', { mdn: undefined }, 'mdn', 'missing', 'Field required'],
    ['/sim/suspend/', { mdn: null }, 'mdn', 'string_type', 'Input should be a valid string'],
    ['/sim/suspend/', { service: ' ' }, 'service', 'value_error', 'service must be VOICE, SMS or DATA'],
    ['/sim/suspend/', { hotline_number: '' }, 'hotline_number', 'value_error', 'hotline_number must be 10 digits'],
    ['/sim/restore/', { service: 'voice' }, 'service', 'value_error', 'service must be VOICE, SMS or DATA'],
    ['/sim/restore/', { mdn: '32155500011' }, 'mdn', 'value_error', 'mdn must be exactly 10 digits'],
    ['/sim/restore/', { mdn: undefined }, 'mdn', 'missing', 'Field required'],
  ])('%s refuses %j with 422 and changes nothing', async (path, change, field, type, msg) => {
    const { token: own } = await gateway.user();
    const line = await seedLine(gateway);
    if (path === '/sim/restore/')
      await gateway.sandboxes.cores['321'].suspend({ mdn: line.mdn, transactionId: `SUS_${line.sim}` });
    const before = await lineStatus(line.mdn);
    const rest = await post(path, { mdn: line.mdn, ...change }, own);
    expect(rest.status).toBe(422);
    expect(rest.body).toEqual({ detail: [{ type, loc: ['body', field], msg }] });
    expect(await lineStatus(line.mdn)).toBe(before);
  });

  it('refuses a bad hotline number with BAD_USER_INPUT on GraphQL', async () => {
    const line = await seedLine(gateway);
    const graphql = await graphqlMutation(gateway, 'suspendLine', { mdn: line.mdn, hotlineNumber: '555' }, token);
    expectBadInput(graphql, ['hotlineNumber'], 'value_error', 'hotlineNumber must be 10 digits');
  });

  it('answers 401 without a token, on both surfaces', async () => {
    for (const [field, path] of [
      ['suspendLine', '/sim/suspend/'],
      ['restoreLine', '/sim/restore/'],
    ]) {
      expect((await gateway.rest('POST', path!, { body: { mdn: '3215550001' } })).status).toBe(401);
      expect((await graphqlMutation(gateway, field!, { mdn: '3215550001' })).errors?.[0]?.extensions?.code).toBe(
        'UNAUTHENTICATED',
      );
    }
  });
});
