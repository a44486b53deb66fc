// Voicemail (password reset, language) and device location cancellation over real HTTP
// against the sandbox carriers, on REST and GraphQL: success, refusals, 422s and 401.

import { beforeAll, describe, expect, it } from 'vitest';
import { expectBadInput, expectSameOutcome, graphqlMutation, snakeInput } from '../../support/surfaces.js';
import { seedLine, type SeededLine } from '../../support/lines.js';
import { useGateway } from '../../support/use-gateway.js';

const gateway = useGateway();

interface Case {
  field: string;
  path: string;
  prefix: string;
  input: (line: SeededLine) => Record<string, unknown>;
}

const cases: Case[] = [
  {
    field: 'resetVoicemailPassword',
    path: '/sim/voicemail/reset/',
    prefix: 'VM_RESET_',
    input: (line) => ({ mdn: line.mdn, sim: line.sim }),
  },
  {
    field: 'setVoicemailLanguage',
    path: '/sim/voicemail/language/',
    prefix: 'VM_LANG_',
    input: (line) => ({ mdn: line.mdn, language: 'SPAN' }),
  },
  {
    field: 'cancelDeviceLocation',
    path: '/sim/device-location/cancel/',
    prefix: 'CANCEL_LOC_',
    input: (line) => ({ mdn: line.mdn }),
  },
];

describe.each(cases)('$field ($path)', ({ field, path, prefix, input }) => {
  let token: string;
  beforeAll(async () => {
    ({ token } = await gateway.user());
  });

  it('succeeds with status, mdn, transaction_id and message; the same on GraphQL', async () => {
    const line = await seedLine(gateway);
    const rest = await gateway.rest('POST', path, { token, body: snakeInput(input(line)) });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      status: 'success',
      mdn: line.mdn,
      transaction_id: expect.stringMatching(new RegExp(`^${prefix}[0-9A-F]{12}$`)),
      message: 'Success',
    });
    const other = await seedLine(gateway);
    const graphql = await graphqlMutation(gateway, field, input(other), token);
    expectSameOutcome({ ...rest, body: { ...rest.body, mdn: other.mdn } }, graphql, field);
  });

  it('keeps a caller-supplied transaction id and answers 409 when it is repeated', async () => {
    const line = await seedLine(gateway);
    const body = { ...snakeInput(input(line)), transaction_id: `${field}-${line.mdn}` };
    const first = await gateway.rest('POST', path, { token, body });
    expect(first.body.transaction_id).toBe(body.transaction_id);
    const again = await gateway.rest('POST', path, { token, body });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      status: 'failure',
      message: `Transaction ID ${body.transaction_id} already exists`,
      code: 'HTTP_409',
    });
  });

  it.each([
    ['918', '5550001234'],
    ['909', '9095550000'],
  ])('answers %s for number %s, on both surfaces', async (code, mdn) => {
    const line = await seedLine(gateway);
    const given = { ...input(line), mdn };
    const rest = await gateway.rest('POST', path, { token, body: snakeInput(given) });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({
      status: 'failure',
      mdn,
      transaction_id: expect.stringMatching(new RegExp(`^${prefix}`)),
      message: expect.stringMatching(new RegExp(`\\(${code}\\)$`)),
    });
    expectSameOutcome(rest, await graphqlMutation(gateway, field, given, token), field);
  });

  it('answers 915 on a disconnected line', async () => {
    const line = await seedLine(gateway);
    await gateway.sandboxes.cores['321'].disconnect({
      mdn: line.mdn,
      sim: line.sim,
      transactionId: `DISC_${line.sim}`,
    });
    const rest = await gateway.rest('POST', path, { token, body: snakeInput(input(line)) });
    expect(rest.status).toBe(400);
    expect(String(rest.body.message)).toMatch(/\(915\)$/);
  });

  it('refuses a malformed or missing mdn with 422, on both surfaces', async () => {
    const line = await seedLine(gateway);
    const bad = await gateway.rest('POST', path, { token, body: snakeInput({ ...input(line), mdn: '321555' }) });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({
      detail: [{ type: 'value_error', loc: ['body', 'mdn'], msg: 'mdn must be exactly 10 digits' }],
    });
    const missing = await gateway.rest('POST', path, { token, body: snakeInput({ ...input(line), mdn: undefined }) });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ detail: [{ type: 'missing', loc: ['body', 'mdn'], msg: 'Field required' }] });
    expectBadInput(
      await graphqlMutation(gateway, field, { ...input(line), mdn: '321555' }, token),
      ['mdn'],
      'value_error',
      'mdn must be exactly 10 digits',
    );
  });

  it('answers 401 without a token, on both surfaces', async () => {
    const line = await seedLine(gateway);
    expect((await gateway.rest('POST', path, { body: snakeInput(input(line)) })).status).toBe(401);
    expect((await graphqlMutation(gateway, field, input(line))).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('resetVoicemailPassword with a SIM', () => {
  it("answers GENS-0149 when the SIM is not the line's, and 422 for a malformed SIM", async () => {
    const { token } = await gateway.user();
    const line = await seedLine(gateway);
    const wrong = await gateway.rest('POST', '/sim/voicemail/reset/', {
      token,
      body: { mdn: line.mdn, sim: '8901000000000000999' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({
      status: 'failure',
      mdn: line.mdn,
      message: expect.stringMatching(/\(GENS-0149\)$/),
    });
    const malformed = await gateway.rest('POST', '/sim/voicemail/reset/', {
      token,
      body: { mdn: line.mdn, sim: '8901-0000' },
    });
    expect(malformed.status).toBe(422);
    expect(malformed.body).toEqual({
      detail: [{ type: 'value_error', loc: ['body', 'sim'], msg: 'sim must be alphanumeric, at most 25 characters' }],
    });
  });

  it('resets without a SIM', async () => {
    const { token } = await gateway.user();
    const line = await seedLine(gateway);
    const rest = await gateway.rest('POST', '/sim/voicemail/reset/', { token, body: { mdn: line.mdn } });
    expect(rest.status).toBe(200);
  });
});

describe('setVoicemailLanguage values', () => {
  it.each(['FREN', 'span', 'ENGLISH', ''])('refuses language %j with the spec 422 message', async (language) => {
    const { token } = await gateway.user();
    const line = await seedLine(gateway);
    const rest = await gateway.rest('POST', '/sim/voicemail/language/', { token, body: { mdn: line.mdn, language } });
    expect(rest.status).toBe(422);
    expect(rest.body).toEqual({
      detail: [{ type: 'value_error', loc: ['body', 'language'], msg: 'language must be ENGL or SPAN' }],
    });
  });

  it('refuses a missing language with 422 missing', async () => {
    const { token } = await gateway.user();
    const rest = await gateway.rest('POST', '/sim/voicemail/language/', { token, body: { mdn: '3215550001' } });
    expect(rest.status).toBe(422);
    expect(rest.body).toEqual({ detail: [{ type: 'missing', loc: ['body', 'language'], msg: 'Field required' }] });
  });

  it('accepts ENGL and answers the GraphQL enum value SPAN', async () => {
    const { token } = await gateway.user();
    const line = await seedLine(gateway);
    expect(
      (await gateway.rest('POST', '/sim/voicemail/language/', { token, body: { mdn: line.mdn, language: 'ENGL' } }))
        .status,
    ).toBe(200);
    const graphql = await gateway.graphql<{ setVoicemailLanguage: { status: string } }>(
      `mutation ($mdn: String!) { setVoicemailLanguage(input: { mdn: $mdn, language: SPAN }) { status } }`,
      { token, variables: { mdn: line.mdn } },
    );
    expect(graphql.data?.setVoicemailLanguage.status).toBe('SUCCESS');
  });
});
