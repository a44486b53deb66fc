// Disconnect and reconnect over real HTTP against the sandbox carriers, REST and GraphQL:
// active → disconnected (acknowledge_final, the line's SIM) → reconnected within 30 days on
// an authorized plan (403 otherwise), WFC partial success, and GENS-0147 once the sandbox
// clock has moved 31 days on (the last test of this file, as it moves the clock for all).

import { beforeAll, describe, expect, it, vi } from 'vitest';
import { noData } from '../../support/gateway.js';
import { expectBadInput, expectSameOutcome, graphqlMutation } from '../../support/surfaces.js';
import { freshSim, seedLine, type SeededLine } from '../../support/lines.js';
import { useGateway } from '../../support/use-gateway.js';

let token: string;

const DAY_MS = 86_400_000;
const registry = async (mdn: string) => (await gateway.app.services.lines.byMdns([mdn])).get(mdn);
const post = (path: string, body: Record<string, unknown>, as = token) =>
  gateway.rest('POST', path, { token: as, body });

/** A line disconnected through the gateway (a fresh caller each time: disconnect is 10/min). */
async function disconnected(): Promise<SeededLine> {
  const line = await seedLine(gateway);
  const { token: own } = await gateway.user();
  expect((await post('/sim/disconnect/', { mdn: line.mdn, sim: line.sim, acknowledge_final: true }, own)).status).toBe(
    200,
  );
  return line;
}

/** The carrier answers 915 for everything but reconnect on a disconnected line. */
const expectDisconnected = (mdn: string) =>
  expect(gateway.sandboxes.cores['321'].getUsage(mdn)).rejects.toMatchObject({ code: '915' });

const reconnectBody = (line: SeededLine, extra: Record<string, unknown> = {}) => ({
  mdn: line.mdn,
  sim: line.sim,
  plan_id: 'BASIC',
  zip_code: '30301',
  ...extra,
});

const gateway = useGateway();
beforeAll(async () => {
  await gateway.plan({ planId: 'WFCPLAN', name: 'Unlimited with Wi-Fi Calling', carrierPlanId: 'UNLWFC', wfc: true });
  ({ token } = await gateway.user({ plans: ['BASIC', 'WFCPLAN'] }));
});

describe('disconnectLine', () => {
  it("disconnects with the line's SIM; the answer carries the SIM; other operations then answer 915", async () => {
    const line = await seedLine(gateway);
    const rest = await post('/sim/disconnect/', { mdn: line.mdn, sim: line.sim, acknowledge_final: true });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      status: 'success',
      mdn: line.mdn,
      sim: line.sim,
      transaction_id: expect.stringMatching(/^DISCONNECT_[0-9A-F]{12}$/),
      message: 'Success',
    });
    expect(await registry(line.mdn)).toMatchObject({ sim: line.sim, carrier: '321', status: 'DISCONNECTED' });
    const suspend = await post('/sim/suspend/', { mdn: line.mdn });
    expect(suspend.body.message).toBe('ESN/MDN is inactive (915)');
    const again = await post('/sim/disconnect/', { mdn: line.mdn, sim: line.sim, acknowledge_final: true });
    expect(again.body.message).toBe('ESN/MDN is inactive (915)');
  });

  it('gives the same outcome on GraphQL', async () => {
    const [viaRest, viaGraphql] = [await seedLine(gateway), await seedLine(gateway)];
    const rest = await post('/sim/disconnect/', { mdn: viaRest.mdn, sim: viaRest.sim, acknowledge_final: true });
    const graphql = await graphqlMutation(
      gateway,
      'disconnectLine',
      { mdn: viaGraphql.mdn, sim: viaGraphql.sim, acknowledgeFinal: true },
      token,
    );
    expectSameOutcome(
      { ...rest, body: { ...rest.body, mdn: viaGraphql.mdn, sim: viaGraphql.sim } },
      graphql,
      'disconnectLine',
    );
  });

  it("refuses a SIM that is not the line's with GENS-0065, on both surfaces", async () => {
    const line = await seedLine(gateway);
    const rest = await post('/sim/disconnect/', { mdn: line.mdn, sim: '8901000000000000999', acknowledge_final: true });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({
      status: 'failure',
      mdn: line.mdn,
      sim: '8901000000000000999',
      transaction_id: expect.stringMatching(/^DISCONNECT_/),
      message: expect.stringMatching(/\(GENS-0065\)$/),
    });
    const graphql = await graphqlMutation(
      gateway,
      'disconnectLine',
      { mdn: line.mdn, sim: '8901000000000000999', acknowledgeFinal: true },
      token,
    );
    expectSameOutcome(rest, graphql, 'disconnectLine');
    expect((await gateway.sandboxes.cores['321'].getUsage(line.mdn)).lineStatus).toBe('ACTIVE');
  });

  it.each([
    [
      { acknowledge_final: false },
      'acknowledge_final',
      'value_error',
      'acknowledge_final must be true: disconnection is permanent',
    ],
    [{ acknowledge_final: undefined }, 'acknowledge_final', 'missing', 'Field required'],
    [{ acknowledge_final: 'yes' }, 'acknowledge_final', 'boolean_type', 'Input should be a valid boolean'],
    [{ sim: undefined }, 'sim', 'missing', 'Field required'],
    [{ sim: '8901'.repeat(7) }, 'sim', 'value_error', 'sim must be alphanumeric, at most 25 characters'],
    [{ mdn: '321-555-0001' }, 'mdn', 'value_error', 'mdn must be exactly 10 digits'],
  ])('refuses %j with 422 on %s and leaves the line active', async (change, field, type, msg) => {
    const { token: own } = await gateway.user();
    const line = await seedLine(gateway);
    const rest = await post(
      '/sim/disconnect/',
      { mdn: line.mdn, sim: line.sim, acknowledge_final: true, ...change },
      own,
    );
    expect(rest.status).toBe(422);
    expect(rest.body).toEqual({ detail: [{ type, loc: ['body', field], msg }] });
    expect((await gateway.sandboxes.cores['321'].getUsage(line.mdn)).lineStatus).toBe('ACTIVE');
  });

  it('refuses acknowledgeFinal false with BAD_USER_INPUT on GraphQL', async () => {
    const line = await seedLine(gateway);
    const graphql = await graphqlMutation(
      gateway,
      'disconnectLine',
      { mdn: line.mdn, sim: line.sim, acknowledgeFinal: false },
      token,
    );
    expectBadInput(
      graphql,
      ['acknowledgeFinal'],
      'value_error',
      'acknowledgeFinal must be true: disconnection is permanent',
    );
  });

  it('answers 401 without a token', async () => {
    expect(
      (
        await gateway.rest('POST', '/sim/disconnect/', {
          body: { mdn: '3215550001', sim: '8901', acknowledge_final: true },
        })
      ).status,
    ).toBe(401);
  });
});

describe('reconnectLine', () => {
  it('reconnects a disconnected line on its own SIM, with billing code BC123 by default', async () => {
    const line = await disconnected();
    const spy = vi.spyOn(gateway.sandboxes.cores['321'], 'reconnect');
    const rest = await post('/sim/reconnect/', reconnectBody(line));
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      status: 'success',
      mdn: line.mdn,
      sim: line.sim,
      transaction_id: expect.stringMatching(/^RECONNECT_[0-9A-F]{12}$/),
      message: 'Success',
    });
    expect(spy).toHaveBeenCalledWith(
      expect.objectContaining({ mdn: line.mdn, billingCode: 'BC123', carrierPlanId: 'SOC-BASIC' }),
    );
    spy.mockRestore();
    expect((await gateway.sandboxes.cores['321'].getUsage(line.mdn)).lineStatus).toBe('ACTIVE');
    expect(await registry(line.mdn)).toMatchObject({ sim: line.sim, status: 'ACTIVE' });
    expect((await post('/sim/suspend/', { mdn: line.mdn })).status).toBe(200);
  });

  it('reconnects on a new SIM with a caller billing code; the registry follows the SIM', async () => {
    const line = await disconnected();
    const sim = freshSim();
    const spy = vi.spyOn(gateway.sandboxes.cores['321'], 'reconnect');
    const rest = await post('/sim/reconnect/', reconnectBody(line, { sim, billing_code: 'BC777' }));
    expect(rest.status).toBe(200);
    expect(rest.body.sim).toBe(sim);
    expect(spy).toHaveBeenCalledWith(expect.objectContaining({ billingCode: 'BC777' }));
    spy.mockRestore();
    expect(await registry(line.mdn)).toMatchObject({ sim, status: 'ACTIVE' });
  });

  it('gives the same outcome on GraphQL', async () => {
    const [viaRest, viaGraphql] = [await disconnected(), await disconnected()];
    const rest = await post('/sim/reconnect/', reconnectBody(viaRest));
    const graphql = await graphqlMutation(
      gateway,
      'reconnectLine',
      { mdn: viaGraphql.mdn, sim: viaGraphql.sim, planId: 'BASIC', zipCode: '30301' },
      token,
    );
    expectSameOutcome(
      { ...rest, body: { ...rest.body, mdn: viaGraphql.mdn, sim: viaGraphql.sim } },
      graphql,
      'reconnectLine',
    );
  });

  it('refuses an unauthorized plan with 403 and the spec body, on both surfaces, and changes nothing', async () => {
    const line = await disconnected();
    await gateway.plan({ planId: 'GOLD', name: 'Gold', carrierPlanId: 'PLUS5GB' });
    const rest = await post('/sim/reconnect/', reconnectBody(line, { plan_id: 'GOLD' }));
    expect(rest.status).toBe(403);
    expect(rest.body).toEqual({
      status: 'failure',
      message: 'Plan GOLD is not authorized for this user',
      code: 'HTTP_403',
    });
    const graphql = await graphqlMutation(
      gateway,
      'reconnectLine',
      { mdn: line.mdn, sim: line.sim, planId: 'GOLD', zipCode: '30301' },
      token,
    );
    expect(noData(graphql)).toBe(true);
    expect(graphql.errors?.[0]?.extensions?.code).toBe('PLAN_NOT_AUTHORIZED');
    await expectDisconnected(line.mdn);
  });

  it('succeeds with a warning and wfc_status false when WFC cannot be added (invalid E911 address)', async () => {
    const line = await disconnected();
    const rest = await post(
      '/sim/reconnect/',
      reconnectBody(line, { plan_id: 'WFCPLAN', address1: '1 INVALID Way', city: 'Atlanta', state: 'GA' }),
    );
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      status: 'success',
      mdn: line.mdn,
      sim: line.sim,
      transaction_id: expect.stringMatching(/^RECONNECT_/),
      message: 'Success',
      warning: expect.stringContaining('(GENS-0090)'),
      wfc_status: false,
    });
    const other = await disconnected();
    const graphql = await graphqlMutation(
      gateway,
      'reconnectLine',
      { mdn: other.mdn, sim: other.sim, planId: 'WFCPLAN', zipCode: '30301' },
      token,
    );
    expect(graphql.data?.reconnectLine).toMatchObject({
      status: 'SUCCESS',
      wfcStatus: false,
      warning: expect.stringContaining('GENS-0090'),
    });
  });

  it('adds WFC without a warning when the E911 address is valid', async () => {
    const line = await disconnected();
    const rest = await post(
      '/sim/reconnect/',
      reconnectBody(line, { plan_id: 'WFCPLAN', address1: '1 Main St', city: 'Atlanta', state: 'GA' }),
    );
    expect(rest.status).toBe(200);
    expect(rest.body).not.toHaveProperty('warning');
    expect((await gateway.sandboxes.cores['321'].getServiceProfile(line.mdn)).e911Address).toMatchObject({
      address1: '1 Main St',
    });
  });

  it.each([
    ['GENS-0147', 'a line that is not disconnected', async () => reconnectBody(await seedLine(gateway))],
    ['GENS-0289', 'an uncovered ZIP', async () => reconnectBody(await disconnected(), { zip_code: '99999' })],
    ['GENS-0006', 'an unknown SIM', async () => reconnectBody(await disconnected(), { sim: '8933000000000000001' })],
    [
      '914',
      'a SIM serving another line',
      async () => reconnectBody(await disconnected(), { sim: (await seedLine(gateway)).sim }),
    ],
    ['910', "another MVNO's SIM", async () => reconnectBody(await disconnected(), { sim: '8999000000000000001' })],
    ['918', 'an unknown number', async () => reconnectBody(await disconnected(), { mdn: '5550001234' })],
    ['906', 'an inactive plan code', async () => reconnectBody(await disconnected(), { plan_id: 'OLDPLAN' })],
  ])('answers %s for %s', async (code, _what, bodyOf) => {
    await gateway.plan({ planId: 'OLDPLAN', name: 'Retired', carrierPlanId: 'INVALID-OLD' });
    const { token: own } = await gateway.user({ plans: ['BASIC', 'OLDPLAN'] });
    const body = await bodyOf();
    const rest = await post('/sim/reconnect/', body, own);
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({
      status: 'failure',
      mdn: body.mdn,
      sim: body.sim,
      transaction_id: expect.stringMatching(/^RECONNECT_/),
      message: expect.stringMatching(new RegExp(`\\(${code}\\)$`)),
    });
  });

  it.each([
    [{ plan_id: undefined }, 'plan_id', 'missing'],
    [{ plan_id: ' ' }, 'plan_id', 'value_error'],
    [{ zip_code: undefined }, 'zip_code', 'missing'],
    [{ zip_code: '3030A' }, 'zip_code', 'value_error'],
    [{ sim: undefined }, 'sim', 'missing'],
    [{ mdn: '123' }, 'mdn', 'value_error'],
    [{ state: 'Georgia' }, 'state', 'value_error'],
    [{ billing_code: '' }, 'billing_code', 'value_error'],
  ])('refuses %j with 422 on %s and leaves the line disconnected', async (change, field, type) => {
    const { token: own } = await gateway.user({ plans: ['BASIC'] });
    const line = await disconnected();
    const rest = await post('/sim/reconnect/', reconnectBody(line, change), own);
    expect(rest.status).toBe(422);
    expect(rest.body.detail).toEqual([expect.objectContaining({ type, loc: ['body', field] })]);
    await expectDisconnected(line.mdn);
  });

  it('answers 401 without a token', async () => {
    const line = await disconnected();
    expect((await gateway.rest('POST', '/sim/reconnect/', { body: reconnectBody(line) })).status).toBe(401);
  });

  // Moves the sandbox clock for every line of this file: keep it last.
  it('is refused with GENS-0147 more than 30 days after disconnection (and works on day 30)', async () => {
    const early = await disconnected();
    const late = await disconnected();
    gateway.sandboxes.cores['321'].advanceClock(30 * DAY_MS - 60_000);
    expect((await post('/sim/reconnect/', reconnectBody(early))).status).toBe(200);
    gateway.sandboxes.cores['321'].advanceClock(DAY_MS);
    const rest = await post('/sim/reconnect/', reconnectBody(late));
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({
      status: 'failure',
      mdn: late.mdn,
      message: expect.stringMatching(/^MSISDN ineligible for reactivation.*\(GENS-0147\)$/),
    });
    const graphql = await graphqlMutation(
      gateway,
      'reconnectLine',
      { mdn: late.mdn, sim: late.sim, planId: 'BASIC', zipCode: '30301' },
      token,
    );
    expectSameOutcome(rest, graphql, 'reconnectLine');
    await expectDisconnected(late.mdn);
    expect(await registry(late.mdn)).toMatchObject({ status: 'DISCONNECTED' });
  });
});
