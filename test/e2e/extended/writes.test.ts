// Extended writes over REST and GraphQL against the carrier 321 sandbox: SMS, phone lists,
// labels and IMEI changes; generated ids, 409, validation (422, changing nothing) and the
// carrier's refusals.

import { beforeEach, describe, expect, it } from 'vitest';
import { graphqlForm } from '../../support/graphql-form.js';
import { seedDisconnectedLine, seedUnknownLine } from '../../support/lines.js';
import { expectGraphQLError, expectInvalid, expectSameAnswer } from '../../support/surfaces.js';
import { useGateway } from '../../support/use-gateway.js';

// SMS allows 10 calls a minute, the others 20: every test takes its own user.
let token: string;

const gateway = useGateway();
beforeEach(async () => {
  ({ token } = await gateway.user());
});

const SMS = `mutation ($input: SendSmsInput!) { sendSms(input: $input) { status mdn messageId transactionId message } }`;
const PHONE_LIST = `mutation ($input: ManagePhoneListInput!) { managePhoneList(input: $input) { status mdn allowed blocked transactionId message } }`;
const LABEL = `mutation ($input: SetLineLabelInput!) { setLineLabel(input: $input) { status mdn label transactionId message } }`;
const IMEI = `mutation ($input: ChangeImeiInput!) { changeImei(input: $input) { status mdn sim imei transactionId message } }`;

async function suspendedLine(): Promise<string> {
  const line = await seedUnknownLine(gateway);
  await gateway.sandboxes.cores['321'].suspend({ mdn: line.mdn, transactionId: `SEED_SUSP_${line.sim}` });
  return line.mdn;
}

const uniqueId = (prefix: string) => `${prefix}-${Date.now()}-${Math.random().toString(16).slice(2)}`;

describe('sendSms (POST /sim/sms/send/)', () => {
  it('sends with a generated SMS_ id over REST, and the same with a given id over GraphQL', async () => {
    const line = await seedUnknownLine(gateway);
    const rest = await gateway.rest('POST', '/sim/sms/send/', {
      token,
      body: { mdn: line.mdn, message: 'x'.repeat(160) },
    });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      status: 'success',
      mdn: line.mdn,
      message_id: expect.stringMatching(/^SMS\d{8}$/),
      transaction_id: expect.stringMatching(/^SMS_[0-9A-F]{12}$/),
      message: 'Success',
    });
    const transactionId = uniqueId('sms');
    const graphql = await gateway.graphql<{ sendSms: Record<string, unknown> }>(SMS, {
      token,
      variables: { input: { mdn: line.mdn, message: 'Hi', transactionId } },
    });
    expect(graphql.errors).toBeUndefined();
    expect(graphql.data?.sendSms).toEqual({
      status: 'SUCCESS',
      mdn: line.mdn,
      messageId: expect.stringMatching(/^SMS\d{8}$/),
      transactionId,
      message: 'Success',
    });
    expect(graphql.data?.sendSms.messageId).not.toBe(rest.body.message_id);
  });

  it.each([
    [
      'a number the carrier never issued',
      async () => '3215559998',
      'Subscriber with given resource does not exist (918)',
    ],
    ['a number of another vendor', async () => '9095550001', 'MDN does not belong to this vendor (909)'],
    ['a suspended line', suspendedLine, 'ESN/MDN is inactive (915)'],
  ])('answers %s with the failure envelope, on both surfaces', async (_case, mdnOf, message) => {
    const mdn = await mdnOf();
    const transactionId = uniqueId('sms');
    const rest = await gateway.rest('POST', '/sim/sms/send/', {
      token,
      body: { mdn, message: 'Hi', transaction_id: transactionId },
    });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({ status: 'failure', mdn, transaction_id: transactionId, message });
    const graphql = await gateway.graphql(SMS, { token, variables: { input: { mdn, message: 'Hi' } } });
    expect(graphql.data?.sendSms).toEqual({
      status: 'FAILURE',
      mdn,
      messageId: null,
      message,
      transactionId: expect.stringMatching(/^SMS_[0-9A-F]{12}$/),
    });
  });

  it.each([
    ['mdn missing', { mdn: undefined }, { type: 'missing', loc: ['body', 'mdn'], msg: 'Field required' }],
    ['message missing', { message: undefined }, { type: 'missing', loc: ['body', 'message'], msg: 'Field required' }],
    [
      'mdn of 9 digits',
      { mdn: '321555000' },
      { type: 'value_error', loc: ['body', 'mdn'], msg: 'mdn must be exactly 10 digits' },
    ],
    [
      'an empty message',
      { message: '' },
      { type: 'value_error', loc: ['body', 'message'], msg: 'message must not be empty' },
    ],
    [
      'a message of 161 characters',
      { message: 'x'.repeat(161) },
      { type: 'value_error', loc: ['body', 'message'], msg: 'message must be at most 160 characters' },
    ],
    [
      'an empty transaction_id',
      { transaction_id: '' },
      {
        type: 'value_error',
        loc: ['body', 'transaction_id'],
        msg: 'transaction_id must be 1 to 64 printable ASCII characters without spaces (0x21-0x7E)',
      },
    ],
  ])('refuses %s with 422 and sends nothing', async (_name, change, issue) => {
    const line = await seedUnknownLine(gateway);
    const transactionId = uniqueId('sms');
    const body = { mdn: line.mdn, message: 'Hi', transaction_id: transactionId, ...change };
    const rest = await gateway.rest('POST', '/sim/sms/send/', { token, body });
    const input = { mdn: body.mdn, message: body.message, transactionId: body.transaction_id };
    const twin = issue.type === 'missing' ? undefined : await gateway.graphql(SMS, { token, variables: { input } });
    expectInvalid(rest, twin, issue);
    // Nothing was recorded: the transaction id is still free.
    if (!('transaction_id' in change)) {
      const retry = await gateway.rest('POST', '/sim/sms/send/', {
        token,
        body: { mdn: line.mdn, message: 'Hi', transaction_id: transactionId },
      });
      expect(retry.status).toBe(200);
    }
  });
});

describe('managePhoneList (POST /sim/phone-list/manage/)', () => {
  it('adds, blocks and removes numbers with a generated PHONE_LIST_ id, on both surfaces', async () => {
    const line = await seedUnknownLine(gateway);
    const added = await gateway.rest('POST', '/sim/phone-list/manage/', {
      token,
      body: { mdn: line.mdn, action: 'add', numbers: ['4045550001', '4045550002'] },
    });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({
      status: 'success',
      mdn: line.mdn,
      allowed: ['4045550001', '4045550002'],
      blocked: [],
      transaction_id: expect.stringMatching(/^PHONE_LIST_[0-9A-F]{12}$/),
      message: 'Success',
    });
    const blocked = await gateway.graphql(PHONE_LIST, {
      token,
      variables: { input: { mdn: line.mdn, action: 'BLOCK', numbers: ['4045550002'] } },
    });
    expect(blocked.errors).toBeUndefined();
    expect(blocked.data?.managePhoneList).toMatchObject({
      status: 'SUCCESS',
      allowed: ['4045550001'],
      blocked: ['4045550002'],
    });
    const transactionId = uniqueId('pl');
    const removed = await gateway.rest('POST', '/sim/phone-list/manage/', {
      token,
      body: { mdn: line.mdn, action: 'unblock', numbers: ['4045550002'], transaction_id: transactionId },
    });
    expect(removed.body).toMatchObject({ allowed: ['4045550001'], blocked: [], transaction_id: transactionId });
  });

  it.each([
    [
      'a number the carrier never issued',
      async () => '3215559998',
      'Subscriber with given resource does not exist (918)',
    ],
    ['a number of another vendor', async () => '9095550001', 'MDN does not belong to this vendor (909)'],
    [
      'a disconnected line',
      async () => (await seedDisconnectedLine(gateway, { register: false })).mdn,
      'ESN/MDN is inactive (915)',
    ],
  ])('answers %s with 400 and the code, on both surfaces', async (_case, mdnOf, message) => {
    const mdn = await mdnOf();
    const transactionId = uniqueId('pl');
    const rest = await gateway.rest('POST', '/sim/phone-list/manage/', {
      token,
      body: { mdn, action: 'remove', numbers: ['4045550001'], transaction_id: transactionId },
    });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({ status: 'failure', mdn, transaction_id: transactionId, message });
    const graphql = await gateway.graphql(PHONE_LIST, {
      token,
      variables: { input: { mdn, action: 'REMOVE', numbers: ['4045550001'], transactionId: `${transactionId}-gql` } },
    });
    expect(graphql.data?.managePhoneList).toEqual({
      ...graphqlForm(rest.body),
      transactionId: `${transactionId}-gql`,
      allowed: null,
      blocked: null,
    });
  });

  it.each([
    ['action missing', { action: undefined }, { type: 'missing', loc: ['body', 'action'], msg: 'Field required' }],
    ['numbers missing', { numbers: undefined }, { type: 'missing', loc: ['body', 'numbers'], msg: 'Field required' }],
    [
      'an unknown action',
      { action: 'allow' },
      { type: 'value_error', loc: ['body', 'action'], msg: 'action must be add, remove, block or unblock' },
    ],
    [
      'no numbers',
      { numbers: [] },
      { type: 'value_error', loc: ['body', 'numbers'], msg: 'numbers must hold at least one phone number' },
    ],
    [
      '101 numbers',
      { numbers: Array.from({ length: 101 }, (_, i) => String(4045550000 + i)) },
      { type: 'value_error', loc: ['body', 'numbers'], msg: 'numbers must hold at most 100 phone numbers' },
    ],
    [
      'a number of 11 digits',
      { numbers: ['4045550001', '14045550002'] },
      { type: 'value_error', loc: ['body', 'numbers', 1], msg: 'each number must be exactly 10 digits' },
    ],
    [
      'a number with a plus',
      { numbers: ['+4045550001'] },
      { type: 'value_error', loc: ['body', 'numbers', 0], msg: 'each number must be exactly 10 digits' },
    ],
    [
      'numbers not a list',
      { numbers: '4045550001' },
      { type: 'array_type', loc: ['body', 'numbers'], msg: 'Input should be a valid array' },
    ],
  ])('refuses %s with 422 and changes nothing', async (_name, change, issue) => {
    const line = await seedUnknownLine(gateway);
    const body = { mdn: line.mdn, action: 'add', numbers: ['4045550001'], ...change };
    const rest = await gateway.rest('POST', '/sim/phone-list/manage/', { token, body });
    const twin =
      issue.type === 'value_error' && !('action' in change)
        ? await gateway.graphql(PHONE_LIST, {
            token,
            variables: { input: { mdn: body.mdn, action: 'ADD', numbers: body.numbers } },
          })
        : undefined;
    expectInvalid(rest, twin, issue);
    const lists = await gateway.rest('POST', '/sim/phone-list/manage/', {
      token,
      body: { mdn: line.mdn, action: 'remove', numbers: ['4045550009'] },
    });
    expect(lists.body).toMatchObject({ allowed: [], blocked: [] });
  });
});

describe('characters as the spec counts them (code points: an emoji is one)', () => {
  it('sends an SMS and sets a label of exactly the maximum with emoji, and refuses one more with 422', async () => {
    const line = await seedUnknownLine(gateway);
    for (const message of ['a'.repeat(159) + '😀', '😀'.repeat(160)]) {
      const sent = await gateway.rest('POST', '/sim/sms/send/', { token, body: { mdn: line.mdn, message } });
      expect(sent.status).toBe(200);
    }
    const tooLong = await gateway.rest('POST', '/sim/sms/send/', {
      token,
      body: { mdn: line.mdn, message: '😀'.repeat(161) },
    });
    expect(tooLong.status).toBe(422);
    const label = '😀'.repeat(100);
    const labelled = await gateway.rest('PATCH', `/sim/label/${line.mdn}`, { token, body: { mdn: line.mdn, label } });
    expect(labelled.status).toBe(200);
    expect(labelled.body).toMatchObject({ status: 'success', label });
    const longLabel = await gateway.rest('PATCH', `/sim/label/${line.mdn}`, {
      token,
      body: { mdn: line.mdn, label: label + '😀' },
    });
    expect(longLabel.status).toBe(422);
  });
});

describe('setLineLabel (PATCH /sim/label/{mdn})', () => {
  it('labels the line with a generated LABEL_ id (shown by account), on both surfaces', async () => {
    const line = await seedUnknownLine(gateway);
    const rest = await gateway.rest('PATCH', `/sim/label/${line.mdn}`, {
      token,
      body: { mdn: line.mdn, label: 'x'.repeat(100) },
    });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      status: 'success',
      mdn: line.mdn,
      label: 'x'.repeat(100),
      transaction_id: expect.stringMatching(/^LABEL_[0-9A-F]{12}$/),
      message: 'Success',
    });
    const transactionId = uniqueId('label');
    const graphql = await gateway.graphql(LABEL, {
      token,
      variables: { input: { mdn: line.mdn, label: 'Work phone', transactionId } },
    });
    expectSameAnswer(
      { ...rest, body: { ...rest.body, label: 'Work phone', transaction_id: transactionId } },
      graphql,
      'setLineLabel',
    );
    const account = await gateway.rest('GET', `/sim/account/${line.mdn}`, { token });
    expect(account.body.lines).toEqual([expect.objectContaining({ mdn: line.mdn, label: 'Work phone' })]);
  });

  it.each([
    [
      'a number the carrier never issued',
      async () => '3215559998',
      'Subscriber with given resource does not exist (918)',
    ],
    ['a number of another vendor', async () => '9095550001', 'MDN does not belong to this vendor (909)'],
    [
      'a disconnected line',
      async () => (await seedDisconnectedLine(gateway, { register: false })).mdn,
      'ESN/MDN is inactive (915)',
    ],
  ])('answers %s with 400 and the code, on both surfaces', async (_case, mdnOf, message) => {
    const mdn = await mdnOf();
    const rest = await gateway.rest('PATCH', `/sim/label/${mdn}`, { token, body: { mdn, label: 'Kid' } });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({
      status: 'failure',
      mdn,
      transaction_id: expect.stringMatching(/^LABEL_[0-9A-F]{12}$/),
      message,
    });
    const graphql = await gateway.graphql(LABEL, { token, variables: { input: { mdn, label: 'Kid' } } });
    expect(graphql.data?.setLineLabel).toMatchObject({ status: 'FAILURE', mdn, label: null, message });
  });

  it.each([
    ['mdn missing from the body', { mdn: undefined }, { type: 'missing', loc: ['body', 'mdn'], msg: 'Field required' }],
    ['label missing', { label: undefined }, { type: 'missing', loc: ['body', 'label'], msg: 'Field required' }],
    [
      'a body mdn that is not the path one',
      { mdn: '3215550999' },
      { type: 'value_error', loc: ['body', 'mdn'], msg: 'mdn must match the mdn in the path' },
    ],
    ['an empty label', { label: '' }, { type: 'value_error', loc: ['body', 'label'], msg: 'label must not be empty' }],
    [
      'a label of 101 characters',
      { label: 'x'.repeat(101) },
      { type: 'value_error', loc: ['body', 'label'], msg: 'label must be at most 100 characters' },
    ],
  ])('refuses %s with 422 and changes nothing', async (_name, change, issue) => {
    const line = await seedUnknownLine(gateway);
    const body = { mdn: line.mdn, label: 'Kid', ...change };
    const rest = await gateway.rest('PATCH', `/sim/label/${line.mdn}`, { token, body });
    // GraphQL has no path: only the checks of the fields themselves have a twin.
    const input = { mdn: body.mdn, label: body.label };
    const twin =
      issue.type === 'missing' || issue.msg.includes('path')
        ? undefined
        : await gateway.graphql(LABEL, { token, variables: { input } });
    expectInvalid(rest, twin, issue);
    const account = await gateway.rest('GET', `/sim/account/${line.mdn}`, { token });
    expect(account.body.lines).toEqual([expect.objectContaining({ label: null })]);
  });

  it('refuses a malformed path mdn with 422', async () => {
    const rest = await gateway.rest('PATCH', '/sim/label/321555000', {
      token,
      body: { mdn: '321555000', label: 'Kid' },
    });
    expectInvalid(rest, undefined, { type: 'value_error', loc: ['path', 'mdn'], msg: 'mdn must be exactly 10 digits' });
  });
});

describe('changeImei (POST /sim/imei/change/)', () => {
  it('moves the line to the new device with a generated IMEI_CHG_ id, on both surfaces', async () => {
    const line = await seedUnknownLine(gateway);
    const rest = await gateway.rest('POST', '/sim/imei/change/', {
      token,
      body: { mdn: line.mdn, sim: line.sim, new_imei: '356938035643809' },
    });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      status: 'success',
      mdn: line.mdn,
      sim: line.sim,
      imei: '356938035643809',
      transaction_id: expect.stringMatching(/^IMEI_CHG_[0-9A-F]{12}$/),
      message: 'Success',
    });
    expect((await gateway.sandboxes.cores['321'].getServiceProfile(line.mdn)).imei).toBe('356938035643809');
    const transactionId = uniqueId('imei');
    const graphql = await gateway.graphql(IMEI, {
      token,
      variables: { input: { mdn: line.mdn, sim: line.sim, newImei: '356938035643810', transactionId } },
    });
    expectSameAnswer(
      { ...rest, body: { ...rest.body, imei: '356938035643810', transaction_id: transactionId } },
      graphql,
      'changeImei',
    );
  });

  it.each([
    [
      'a SIM that is not the line’s (GENS-0012)',
      async () => ({ ...(await seedUnknownLine(gateway)), sim: '8901000000000000099' }),
      '356938035643809',
      "SIM does not match the subscriber's current SIM (GENS-0012)",
    ],
    ['an unknown device (506)', () => seedUnknownLine(gateway), '990000862471854', 'Invalid ESN / device (506)'],
    [
      'a number the carrier never issued (918)',
      async () => ({ mdn: '3215559998', sim: '8901000000000000099' }),
      '356938035643809',
      'Subscriber with given resource does not exist (918)',
    ],
    [
      'a number of another vendor (909)',
      async () => ({ mdn: '9095550001', sim: '8901000000000000099' }),
      '356938035643809',
      'MDN does not belong to this vendor (909)',
    ],
    [
      'a disconnected line (915)',
      () => seedDisconnectedLine(gateway, { register: false }),
      '356938035643809',
      'ESN/MDN is inactive (915)',
    ],
  ])('answers %s with 400, on both surfaces', async (_case, lineOf, newImei, message) => {
    const line = await lineOf();
    const rest = await gateway.rest('POST', '/sim/imei/change/', {
      token,
      body: { mdn: line.mdn, sim: line.sim, new_imei: newImei },
    });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({
      status: 'failure',
      mdn: line.mdn,
      transaction_id: expect.stringMatching(/^IMEI_CHG_/),
      message,
    });
    const graphql = await gateway.graphql(IMEI, {
      token,
      variables: { input: { mdn: line.mdn, sim: line.sim, newImei } },
    });
    expect(graphql.data?.changeImei).toMatchObject({
      status: 'FAILURE',
      mdn: line.mdn,
      sim: null,
      imei: null,
      message,
    });
  });

  it.each([
    ['sim missing', { sim: undefined }, { type: 'missing', loc: ['body', 'sim'], msg: 'Field required' }],
    [
      'new_imei missing',
      { new_imei: undefined },
      { type: 'missing', loc: ['body', 'new_imei'], msg: 'Field required' },
    ],
    [
      'a new_imei of 14 digits',
      { new_imei: '35693803564380' },
      { type: 'value_error', loc: ['body', 'new_imei'], msg: 'new_imei must be exactly 15 digits' },
    ],
    [
      'a sim of 26 characters',
      { sim: '8'.repeat(26) },
      { type: 'value_error', loc: ['body', 'sim'], msg: 'sim must be alphanumeric, at most 25 characters' },
    ],
    [
      'an mdn with a letter',
      { mdn: '321555000x' },
      { type: 'value_error', loc: ['body', 'mdn'], msg: 'mdn must be exactly 10 digits' },
    ],
  ])('refuses %s with 422 and changes nothing', async (_name, change, issue) => {
    const line = await seedUnknownLine(gateway);
    const { imei } = await gateway.sandboxes.cores['321'].getServiceProfile(line.mdn);
    const body = { mdn: line.mdn, sim: line.sim, new_imei: '356938035643809', ...change };
    const rest = await gateway.rest('POST', '/sim/imei/change/', { token, body });
    const input = { mdn: body.mdn, sim: body.sim, newImei: body.new_imei };
    const twin = issue.type === 'missing' ? undefined : await gateway.graphql(IMEI, { token, variables: { input } });
    expectInvalid(rest, twin, issue);
    expect((await gateway.sandboxes.cores['321'].getServiceProfile(line.mdn)).imei).toBe(imei);
  });
});

// Every extended write records its transaction id: a repeated one answers 409 on both surfaces.
describe.each([
  {
    name: 'sendSms',
    path: '/sim/sms/send/',
    method: 'POST',
    query: SMS,
    body: (mdn: string) => ({ mdn, message: 'Hi' }),
  },
  {
    name: 'managePhoneList',
    path: '/sim/phone-list/manage/',
    method: 'POST',
    query: PHONE_LIST,
    body: (mdn: string) => ({ mdn, action: 'add', numbers: ['4045550001'] }),
  },
  {
    name: 'setLineLabel',
    path: '/sim/label/{mdn}',
    method: 'PATCH',
    query: LABEL,
    body: (mdn: string) => ({ mdn, label: 'Kid' }),
  },
])('$name with a repeated transaction id', ({ name, path, method, query, body }) => {
  it('answers 409 on REST and DUPLICATE_TRANSACTION on GraphQL', async () => {
    const line = await seedUnknownLine(gateway);
    const transactionId = uniqueId(name);
    const url = path.replace('{mdn}', line.mdn);
    const first = await gateway.rest(method, url, {
      token,
      body: { ...body(line.mdn), transaction_id: transactionId },
    });
    expect(first.status).toBe(200);
    const again = await gateway.rest(method, url, {
      token,
      body: { ...body(line.mdn), transaction_id: transactionId },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      status: 'failure',
      message: `Transaction ID ${transactionId} already exists`,
      code: 'HTTP_409',
    });
    const camel = Object.fromEntries(
      Object.entries(body(line.mdn)).map(([key, value]) => [
        key,
        key === 'action' ? String(value).toUpperCase() : value,
      ]),
    );
    const graphql = await gateway.graphql(query, { token, variables: { input: { ...camel, transactionId } } });
    expectGraphQLError(graphql, 'DUPLICATE_TRANSACTION', 409);
  });
});

it('changeImei with a repeated transaction id answers 409 on REST and DUPLICATE_TRANSACTION on GraphQL', async () => {
  const line = await seedUnknownLine(gateway);
  const transactionId = uniqueId('imei');
  const body = { mdn: line.mdn, sim: line.sim, new_imei: '356938035643809', transaction_id: transactionId };
  expect((await gateway.rest('POST', '/sim/imei/change/', { token, body })).status).toBe(200);
  expect((await gateway.rest('POST', '/sim/imei/change/', { token, body })).status).toBe(409);
  const graphql = await gateway.graphql(IMEI, {
    token,
    variables: { input: { mdn: line.mdn, sim: line.sim, newImei: '356938035643809', transactionId } },
  });
  expectGraphQLError(graphql, 'DUPLICATE_TRANSACTION', 409);
});
