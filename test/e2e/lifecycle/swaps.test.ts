// SIM swap and MDN swap over real HTTP against the sandbox carriers, REST and GraphQL: the
// answers, the carrier refusals, 422s, and that later operations on the line are still
// routed right (new SIM; new number works, old number answers 918).

import { beforeAll, describe, expect, it } from 'vitest';
import { expectBadInput, expectSameOutcome, graphqlMutation } from '../../support/surfaces.js';
import { freshSim, seedLine } from '../../support/lines.js';
import { useGateway } from '../../support/use-gateway.js';

let token: string;

const registry = async (mdn: string) => (await gateway.app.services.lines.byMdns([mdn])).get(mdn);
const post = (path: string, body: Record<string, unknown>, as = token) =>
  gateway.rest('POST', path, { token: as, body });

const gateway = useGateway();
beforeAll(async () => {
  ({ token } = await gateway.user());
});

describe('swapSim', () => {
  it('moves the line to the new SIM; the answer and the registry carry the new ICCID; the line still works', async () => {
    const line = await seedLine(gateway);
    const newSim = freshSim();
    const rest = await post('/sim/swap/', { mdn: line.mdn, old_sim: line.sim, new_sim: newSim });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      status: 'success',
      mdn: line.mdn,
      sim: newSim,
      transaction_id: expect.stringMatching(/^SWAP_[0-9A-F]{12}$/),
      message: 'Success',
    });
    expect(await registry(line.mdn)).toMatchObject({ sim: newSim, carrier: '321', status: 'ACTIVE' });
    expect((await gateway.sandboxes.cores['321'].getUsage(line.mdn)).sim).toBe(newSim);
    // Later operations reach the line: on its number, and with its new SIM.
    expect((await post('/sim/voicemail/reset/', { mdn: line.mdn, sim: newSim })).status).toBe(200);
    expect((await post('/sim/suspend/', { mdn: line.mdn })).status).toBe(200);
    const back = await post('/sim/swap/', { mdn: line.mdn, old_sim: line.sim, new_sim: freshSim() });
    expect(back.body.message).toMatch(/\(GENS-0012\)$/);
  });

  it('keeps a suspended line suspended in the registry', async () => {
    const line = await seedLine(gateway);
    expect((await post('/sim/suspend/', { mdn: line.mdn })).status).toBe(200);
    expect((await post('/sim/swap/', { mdn: line.mdn, old_sim: line.sim, new_sim: freshSim() })).status).toBe(200);
    expect(await registry(line.mdn)).toMatchObject({ status: 'SUSPENDED' });
  });

  it('gives the same outcome on GraphQL', async () => {
    const [viaRest, viaGraphql] = [await seedLine(gateway), await seedLine(gateway)];
    const [restSim, graphqlSim] = [freshSim(), freshSim()];
    const rest = await post('/sim/swap/', { mdn: viaRest.mdn, old_sim: viaRest.sim, new_sim: restSim });
    const graphql = await graphqlMutation(
      gateway,
      'swapSim',
      { mdn: viaGraphql.mdn, oldSim: viaGraphql.sim, newSim: graphqlSim },
      token,
    );
    expectSameOutcome({ ...rest, body: { ...rest.body, mdn: viaGraphql.mdn, sim: graphqlSim } }, graphql, 'swapSim');
  });

  it.each([
    ['GENS-0012', "an old SIM that is not the line's", async () => ({ old_sim: freshSim(), new_sim: freshSim() })],
    ['GENS-0018', 'a new SIM serving another line', async () => ({ new_sim: (await seedLine(gateway)).sim })],
    ['GENS-0006', 'an unknown new SIM', async () => ({ new_sim: '8933000000000000001' })],
    ['910', "another MVNO's SIM", async () => ({ new_sim: '8999000000000000001' })],
    ['918', 'an unknown number', async () => ({ mdn: '5550001234' })],
    ['909', "another vendor's number", async () => ({ mdn: '9095550000' })],
  ])('answers %s for %s, on both surfaces, and changes nothing', async (code, _what, changeOf) => {
    const { token: own } = await gateway.user();
    const line = await seedLine(gateway);
    const change = await changeOf();
    const body = { mdn: line.mdn, old_sim: line.sim, new_sim: freshSim(), ...change };
    const rest = await post('/sim/swap/', body, own);
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({
      status: 'failure',
      mdn: body.mdn,
      // The spec's response names the new ICCID, on failure too.
      sim: body.new_sim,
      transaction_id: expect.stringMatching(/^SWAP_/),
      message: expect.stringMatching(new RegExp(`\\(${code}\\)$`)),
    });
    const graphql = await graphqlMutation(
      gateway,
      'swapSim',
      { mdn: body.mdn, oldSim: body.old_sim, newSim: body.new_sim },
      own,
    );
    expectSameOutcome(rest, graphql, 'swapSim');
    expect(await registry(line.mdn)).toMatchObject({ sim: line.sim });
  });

  it.each([
    [{ new_sim: undefined }, 'new_sim', 'missing', 'Field required'],
    [{ old_sim: undefined }, 'old_sim', 'missing', 'Field required'],
    [{ new_sim: '8901-2' }, 'new_sim', 'value_error', 'new_sim must be alphanumeric, at most 25 characters'],
    [{ old_sim: 'A'.repeat(26) }, 'old_sim', 'value_error', 'old_sim must be alphanumeric, at most 25 characters'],
    [{ mdn: undefined }, 'mdn', 'missing', 'Field required'],
  ])('refuses %j with 422 on %s', async (change, field, type, msg) => {
    const { token: own } = await gateway.user();
    const line = await seedLine(gateway);
    const rest = await post('/sim/swap/', { mdn: line.mdn, old_sim: line.sim, new_sim: freshSim(), ...change }, own);
    expect(rest.status).toBe(422);
    expect(rest.body).toEqual({ detail: [{ type, loc: ['body', field], msg }] });
    expect((await gateway.sandboxes.cores['321'].getUsage(line.mdn)).sim).toBe(line.sim);
  });

  it('refuses a malformed new SIM with BAD_USER_INPUT on GraphQL', async () => {
    const line = await seedLine(gateway);
    const graphql = await graphqlMutation(
      gateway,
      'swapSim',
      { mdn: line.mdn, oldSim: line.sim, newSim: 'no-sim' },
      token,
    );
    expectBadInput(graphql, ['newSim'], 'value_error', 'newSim must be alphanumeric, at most 25 characters');
  });

  it('answers 401 without a token', async () => {
    expect(
      (await gateway.rest('POST', '/sim/swap/', { body: { mdn: '3215550001', old_sim: '1', new_sim: '2' } })).status,
    ).toBe(401);
  });
});

describe('swapMdn', () => {
  it('gives the line a new number: the new one works, the old one answers 918', async () => {
    const line = await seedLine(gateway);
    const rest = await post('/sim/mdn/swap/', {
      mdn: line.mdn,
      sim: line.sim,
      zip_code: '30301',
      imei: '356789012345678',
    });
    expect(rest.status).toBe(200);
    const newMdn = rest.body.new_mdn as string;
    expect(rest.body).toEqual({
      status: 'success',
      mdn: line.mdn,
      new_mdn: expect.stringMatching(/^321555\d{4}$/),
      sim: line.sim,
      transaction_id: expect.stringMatching(/^SWAP_MDN_[0-9A-F]{12}$/),
      message: 'Success',
    });
    expect(newMdn).not.toBe(line.mdn);
    expect(await registry(line.mdn)).toBeUndefined();
    expect(await registry(newMdn)).toMatchObject({ sim: line.sim, carrier: '321', status: 'ACTIVE' });

    const old = await post('/sim/suspend/', { mdn: line.mdn });
    expect(old.status).toBe(400);
    expect(old.body.message).toBe('Subscriber with given resource does not exist (918)');
    expect((await post('/sim/suspend/', { mdn: newMdn })).status).toBe(200);
    expect((await gateway.rest('GET', `/sim/usage/${newMdn}`, { token })).body).toMatchObject({
      mdn: newMdn,
      sim: line.sim,
      status: 'SUSPENDED',
    });
    expect(await registry(newMdn)).toMatchObject({ status: 'SUSPENDED' });
  });

  it('keeps a suspended line suspended under its new number', async () => {
    const line = await seedLine(gateway);
    expect((await post('/sim/suspend/', { mdn: line.mdn })).status).toBe(200);
    const rest = await post('/sim/mdn/swap/', { mdn: line.mdn, sim: line.sim, zip_code: '30301' });
    expect(rest.status).toBe(200);
    expect(await registry(rest.body.new_mdn as string)).toMatchObject({ status: 'SUSPENDED' });
    expect((await post('/sim/restore/', { mdn: rest.body.new_mdn })).status).toBe(200);
  });

  it('gives the same outcome on GraphQL', async () => {
    const [viaRest, viaGraphql] = [await seedLine(gateway), await seedLine(gateway)];
    const rest = await post('/sim/mdn/swap/', { mdn: viaRest.mdn, sim: viaRest.sim, zip_code: '30301' });
    const graphql = await graphqlMutation(
      gateway,
      'swapMdn',
      { mdn: viaGraphql.mdn, sim: viaGraphql.sim, zipCode: '30301' },
      token,
    );
    const newMdn = (graphql.data?.swapMdn as { newMdn: string }).newMdn;
    expectSameOutcome(
      { ...rest, body: { ...rest.body, mdn: viaGraphql.mdn, sim: viaGraphql.sim, new_mdn: newMdn } },
      graphql,
      'swapMdn',
    );
    expect(await registry(newMdn)).toMatchObject({ sim: viaGraphql.sim });
  });

  it.each([
    ['918', "a SIM that is not the line's", { sim: '8901000000000000999' }],
    ['506', 'an unknown device', { imei: '990000000000001' }],
    ['GENS-0289', 'an uncovered ZIP', { zip_code: '99999' }],
    ['510', 'an invalid ZIP', { zip_code: '00000' }],
    ['918', 'an unknown number', { mdn: '5550001234' }],
    ['909', "another vendor's number", { mdn: '9095550000' }],
  ])('answers %s for %s and keeps the number', async (code, _what, change) => {
    const line = await seedLine(gateway);
    const body = { mdn: line.mdn, sim: line.sim, zip_code: '30301', ...change };
    const rest = await post('/sim/mdn/swap/', body);
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({
      status: 'failure',
      mdn: body.mdn,
      sim: body.sim,
      transaction_id: expect.stringMatching(/^SWAP_MDN_/),
      message: expect.stringMatching(new RegExp(`\\(${code}\\)$`)),
    });
    expect((await gateway.sandboxes.cores['321'].getUsage(line.mdn)).mdn).toBe(line.mdn);
  });

  it.each([
    [{ imei: '3567890123456789' }, 'imei', 'value_error', 'imei must be at most 15 digits'],
    [{ imei: '35678A' }, 'imei', 'value_error', 'imei must be at most 15 digits'],
    [{ zip_code: '303' }, 'zip_code', 'value_error', 'zip_code must be 5 digits'],
    [{ zip_code: undefined }, 'zip_code', 'missing', 'Field required'],
    [{ sim: undefined }, 'sim', 'missing', 'Field required'],
    [{ mdn: undefined }, 'mdn', 'missing', 'Field required'],
  ])('refuses %j with 422 on %s and keeps the number', async (change, field, type, msg) => {
    const { token: own } = await gateway.user();
    const line = await seedLine(gateway);
    const rest = await post('/sim/mdn/swap/', { mdn: line.mdn, sim: line.sim, zip_code: '30301', ...change }, own);
    expect(rest.status).toBe(422);
    expect(rest.body).toEqual({ detail: [{ type, loc: ['body', field], msg }] });
    expect((await gateway.sandboxes.cores['321'].getUsage(line.mdn)).mdn).toBe(line.mdn);
  });

  it('accepts an IMEI shorter than 15 digits as far as validation goes (the carrier judges it)', async () => {
    const line = await seedLine(gateway);
    const rest = await post('/sim/mdn/swap/', { mdn: line.mdn, sim: line.sim, zip_code: '30301', imei: '35678901' });
    expect(rest.status).toBe(400);
    expect(rest.body.message).toMatch(/\(506\)$/);
  });

  it('refuses a long IMEI with BAD_USER_INPUT on GraphQL', async () => {
    const line = await seedLine(gateway);
    const graphql = await graphqlMutation(
      gateway,
      'swapMdn',
      { mdn: line.mdn, sim: line.sim, zipCode: '30301', imei: '1234567890123456' },
      token,
    );
    expectBadInput(graphql, ['imei'], 'value_error', 'imei must be at most 15 digits');
  });

  it('answers 401 without a token', async () => {
    expect(
      (await gateway.rest('POST', '/sim/mdn/swap/', { body: { mdn: '3215550001', sim: '1', zip_code: '30301' } }))
        .status,
    ).toBe(401);
  });
});
