// Wi-Fi Calling over real HTTP against the sandbox carriers: addWfc (POST /sim/wfc/add/) and
// updateE911Address (POST /sim/wfc/address/) on REST and GraphQL, their refusals and 422s.

import { beforeAll, describe, expect, it } from 'vitest';
import { expectBadInput, expectSameOutcome, graphqlMutation, snakeInput } from '../../support/surfaces.js';
import { seedLine } from '../../support/lines.js';
import { useGateway } from '../../support/use-gateway.js';

const address = { address1: '12 Peachtree St', address2: 'Apt 4', city: 'Atlanta', state: 'GA', zipCode: '30303' };

const gateway = useGateway();

describe('addWfc', () => {
  let token: string;
  beforeAll(async () => {
    ({ token } = await gateway.user());
  });
  const add = (body: Record<string, unknown>, as = token) => gateway.rest('POST', '/sim/wfc/add/', { token: as, body });

  it('enables WFC with the E911 address; the same on GraphQL', async () => {
    const line = await seedLine(gateway);
    const rest = await add(snakeInput({ mdn: line.mdn, sim: line.sim, ...address }));
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      status: 'success',
      mdn: line.mdn,
      sim: line.sim,
      transaction_id: expect.stringMatching(/^ADD_WFC_[0-9A-F]{12}$/),
      message: 'Success',
    });
    const profile = await gateway.sandboxes.cores['321'].getServiceProfile(line.mdn);
    expect(profile.e911Address).toMatchObject({
      address1: address.address1,
      city: 'Atlanta',
      state: 'GA',
      zipCode: '30303',
    });

    const other = await seedLine(gateway);
    const graphql = await graphqlMutation(gateway, 'addWfc', { mdn: other.mdn, sim: other.sim, ...address }, token);
    expectSameOutcome({ ...rest, body: { ...rest.body, mdn: other.mdn, sim: other.sim } }, graphql, 'addWfc');
  });

  it('refuses a second addWfc with GENS-0010 (duplicate products) on both surfaces', async () => {
    const line = await seedLine(gateway);
    const input = { mdn: line.mdn, sim: line.sim, ...address };
    expect((await add(snakeInput(input))).status).toBe(200);
    const rest = await add(snakeInput(input));
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({
      status: 'failure',
      mdn: line.mdn,
      sim: line.sim,
      transaction_id: expect.stringMatching(/^ADD_WFC_/),
      message: 'Duplicate products (GENS-0010)',
    });
    expectSameOutcome(rest, await graphqlMutation(gateway, 'addWfc', input, token), 'addWfc');
  });

  it.each([
    [
      'GENS-0090',
      'an invalid E911 address',
      (line: { mdn: string; sim: string }) => ({ mdn: line.mdn, sim: line.sim, ...address, address1: '1 Invalid Rd' }),
    ],
    [
      'GENS-0170',
      "a SIM that is not the line's",
      (line: { mdn: string; sim: string }) => ({ mdn: line.mdn, sim: '8901000000000000999', ...address }),
    ],
    [
      '918',
      'an unknown number',
      (line: { mdn: string; sim: string }) => ({ mdn: '5550001234', sim: line.sim, ...address }),
    ],
    [
      '909',
      "another vendor's number",
      (line: { mdn: string; sim: string }) => ({ mdn: '9095550000', sim: line.sim, ...address }),
    ],
  ])('answers %s for %s, on both surfaces', async (code, _what, inputOf) => {
    const line = await seedLine(gateway);
    const input = inputOf(line);
    const rest = await add(snakeInput(input));
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({ status: 'failure', mdn: input.mdn });
    expect(String(rest.body.message)).toMatch(new RegExp(`\\(${code}\\)$`));
    expectSameOutcome(rest, await graphqlMutation(gateway, 'addWfc', input, token), 'addWfc');
  });

  it('answers 915 on a disconnected line', async () => {
    const line = await seedLine(gateway);
    await gateway.sandboxes.cores['321'].disconnect({
      mdn: line.mdn,
      sim: line.sim,
      transactionId: `DISC_${line.sim}`,
    });
    const rest = await add(snakeInput({ mdn: line.mdn, sim: line.sim, ...address }));
    expect(rest.status).toBe(400);
    expect(String(rest.body.message)).toMatch(/\(915\)$/);
  });

  it.each([
    ['mdn', { mdn: '12345' }, 'value_error', 'mdn must be exactly 10 digits'],
    ['sim', { sim: 'x'.repeat(26) }, 'value_error', 'sim must be alphanumeric, at most 25 characters'],
    ['state', { state: 'Georgia' }, 'value_error', 'state must be a 2-letter US state code'],
    ['state', { state: 'ZZ' }, 'value_error', 'state must be a 2-letter US state code'],
    ['zip_code', { zipCode: '3030' }, 'value_error', 'zip_code must be 5 digits'],
    ['address1', { address1: '  ' }, 'value_error', 'address1 must not be empty'],
    ['city', { city: '' }, 'value_error', 'city must not be empty'],
    ['mdn', { mdn: undefined }, 'missing', 'Field required'],
    ['sim', { sim: undefined }, 'missing', 'Field required'],
    ['address1', { address1: undefined }, 'missing', 'Field required'],
    ['city', { city: undefined }, 'missing', 'Field required'],
    ['state', { state: undefined }, 'missing', 'Field required'],
    ['zip_code', { zipCode: undefined }, 'missing', 'Field required'],
  ])('refuses a bad %s with 422 (%j: %s) and changes nothing', async (field, change, type, msg) => {
    // A fresh caller per row: the table alone would spend the 20/min budget.
    const { token: own } = await gateway.user();
    const line = await seedLine(gateway);
    const transactionId = `WFC-422-${line.mdn}`;
    const rest = await add(snakeInput({ mdn: line.mdn, sim: line.sim, ...address, transactionId, ...change }), own);
    expect(rest.status).toBe(422);
    expect(rest.body).toEqual({ detail: [{ type, loc: ['body', field], msg }] });
    // Nothing happened: WFC is still off and the transaction id is still free.
    const ok = await add(snakeInput({ mdn: line.mdn, sim: line.sim, ...address, transactionId }), own);
    expect(ok.status).toBe(200);
    expect(ok.body.transaction_id).toBe(transactionId);
  });

  it('refuses a bad state with BAD_USER_INPUT on GraphQL', async () => {
    const { token: own } = await gateway.user();
    const line = await seedLine(gateway);
    const graphql = await graphqlMutation(
      gateway,
      'addWfc',
      { mdn: line.mdn, sim: line.sim, ...address, state: 'Georgia' },
      own,
    );
    expectBadInput(graphql, ['state'], 'value_error', 'state must be a 2-letter US state code');
  });

  it('answers 401 without a token, on both surfaces', async () => {
    const line = await seedLine(gateway);
    const input = { mdn: line.mdn, sim: line.sim, ...address };
    expect((await gateway.rest('POST', '/sim/wfc/add/', { body: snakeInput(input) })).status).toBe(401);
    const graphql = await graphqlMutation(gateway, 'addWfc', input);
    expect(graphql.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('updateE911Address', () => {
  let token: string;
  beforeAll(async () => {
    ({ token } = await gateway.user());
  });
  const update = (body: Record<string, unknown>, as = token) =>
    gateway.rest('POST', '/sim/wfc/address/', { token: as, body });
  const newAddress = { address1: '200 Ponce De Leon Ave', city: 'Decatur', state: 'GA', zipCode: '30030' };
  const withWfc = async () => {
    const line = await seedLine(gateway);
    await gateway.sandboxes.cores['321'].addWfc({
      mdn: line.mdn,
      sim: line.sim,
      address: { ...address },
      transactionId: `WFC_${line.sim}`,
    });
    return line;
  };

  it('replaces the E911 address of a line with WFC on; the same on GraphQL', async () => {
    const line = await withWfc();
    const rest = await update(snakeInput({ mdn: line.mdn, sim: line.sim, ...newAddress }));
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      status: 'success',
      mdn: line.mdn,
      sim: line.sim,
      transaction_id: expect.stringMatching(/^UPD_WFC_ADDR_[0-9A-F]{12}$/),
      message: 'Success',
    });
    const profile = await gateway.sandboxes.cores['321'].getServiceProfile(line.mdn);
    expect(profile.e911Address).toMatchObject(newAddress);

    const other = await withWfc();
    const graphql = await graphqlMutation(gateway, 'updateE911Address', { mdn: other.mdn, ...newAddress }, token);
    expectSameOutcome(
      { ...rest, body: { ...rest.body, mdn: other.mdn, sim: other.sim } },
      graphql,
      'updateE911Address',
    );
  });

  it('refuses with GENS-0124 when WFC is off, with the spec failure body, on both surfaces', async () => {
    const line = await seedLine(gateway);
    const input = { mdn: line.mdn, ...newAddress };
    const rest = await update(snakeInput(input));
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({
      status: 'failure',
      mdn: line.mdn,
      transaction_id: expect.stringMatching(/^UPD_WFC_ADDR_/),
      message: 'Cannot update E911, WFC not active (GENS-0124)',
    });
    expectSameOutcome(rest, await graphqlMutation(gateway, 'updateE911Address', input, token), 'updateE911Address');
  });

  it.each([
    ['GENS-0090', { address1: 'INVALID street' }],
    ['GENS-0404', { sim: '8901000000000000999' }],
  ])('answers %s and keeps the old address', async (code, change) => {
    const line = await withWfc();
    const rest = await update(snakeInput({ mdn: line.mdn, ...newAddress, ...change }));
    expect(rest.status).toBe(400);
    expect(Object.keys(rest.body).sort()).toEqual(['mdn', 'message', 'status', 'transaction_id']);
    expect(String(rest.body.message)).toMatch(new RegExp(`\\(${code}\\)$`));
    const profile = await gateway.sandboxes.cores['321'].getServiceProfile(line.mdn);
    expect(profile.e911Address).toMatchObject({ address1: address.address1 });
  });

  it.each([
    ['state', { state: 'G1' }, 'value_error'],
    ['zip_code', { zipCode: '303030' }, 'value_error'],
    ['sim', { sim: 'bad-sim!' }, 'value_error'],
    ['address1', { address1: undefined }, 'missing'],
    ['city', { city: undefined }, 'missing'],
    ['state', { state: undefined }, 'missing'],
    ['zip_code', { zipCode: undefined }, 'missing'],
  ])('refuses a bad %s with 422 (%j: %s) and keeps the old address', async (field, change, type) => {
    const { token: own } = await gateway.user();
    const line = await withWfc();
    const rest = await update(snakeInput({ mdn: line.mdn, ...newAddress, ...change }), own);
    expect(rest.status).toBe(422);
    expect(rest.body.detail).toEqual([expect.objectContaining({ type, loc: ['body', field] })]);
    const profile = await gateway.sandboxes.cores['321'].getServiceProfile(line.mdn);
    expect(profile.e911Address).toMatchObject({ address1: address.address1 });
  });

  it('refuses a bad zip code with BAD_USER_INPUT on GraphQL', async () => {
    const line = await withWfc();
    const graphql = await graphqlMutation(
      gateway,
      'updateE911Address',
      { mdn: line.mdn, ...newAddress, zipCode: 'ABCDE' },
      token,
    );
    expectBadInput(graphql, ['zipCode'], 'value_error', 'zipCode must be 5 digits');
  });

  it('answers 401 without a token', async () => {
    expect(
      (await gateway.rest('POST', '/sim/wfc/address/', { body: { mdn: '3215550001', ...snakeInput(newAddress) } }))
        .status,
    ).toBe(401);
  });
});
