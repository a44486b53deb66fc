// The carrier_b sandbox server's own protocol, spoken raw over fetch: result and fault
// envelopes, numeric vs GENS fault codes, the RPC-xxxx protocol faults, the missing extended
// methods, 404 for other paths, and a generic 500 for anything unexpected.

import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCarrierBSandboxServer } from '../../../src/sandbox/carrier-b/server.js';
import { SandboxCarrier } from '../../../src/sandbox/core/index.js';
import type { SandboxServer } from '../../../src/sandbox/http-kit.js';
import { ADDRESS, CREDENTIALS, startSandbox, type RunningSandbox } from './sandbox-helpers.js';

const AUTH = `Basic ${Buffer.from(`${CREDENTIALS.accountId}:${CREDENTIALS.apiSecret}`).toString('base64')}`;

let sandbox: RunningSandbox;

async function post(
  body: string,
  path = '/rpc/v3',
  url = sandbox.url,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: AUTH },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const rpc = (method: string, requestId: string, params: unknown, url?: string) =>
  post(JSON.stringify({ method, requestId, params }), '/rpc/v3', url);

beforeAll(async () => {
  sandbox = await startSandbox();
});

afterAll(async () => {
  await sandbox.server.close();
});

beforeEach(() => {
  sandbox.core.reset();
});

async function activate(): Promise<{ msisdn: string; iccid: string }> {
  const params = {
    iccid: '8901260000000000555',
    ratePlan: 'BASIC1GB',
    postCode: '62701',
    emergencyAddress: {
      line1: ADDRESS.address1,
      town: ADDRESS.city,
      stateCode: ADDRESS.state,
      postCode: ADDRESS.zipCode,
    },
    simKind: 'physical',
    greetingLanguage: 'en',
  };
  const answer = await rpc('Subscriber.Activate', 'ACT_SERVER_1', params);
  expect(answer.status).toBe(200);
  return (answer.body as { result: { msisdn: string; iccid: string } }).result;
}

describe('carrier_b sandbox envelopes', () => {
  it('answers a result envelope that echoes the requestId, with epoch-millisecond times', async () => {
    const line = await activate();
    const answer = await rpc('Subscriber.GetUsage', 'read-1', { msisdn: line.msisdn });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      requestId: 'read-1',
      result: {
        msisdn: line.msisdn,
        iccid: line.iccid,
        subscriberState: 'live',
        tariffSince: Date.parse('2026-01-02T03:04:05Z'),
      },
    });
    expect(answer.body).not.toHaveProperty('fault');
  });

  it('sends numeric spec codes as JSON numbers and GENS codes as strings', async () => {
    const line = await activate();
    expect(await rpc('Subscriber.Resume', 'RESTORE_1', { msisdn: line.msisdn, scope: 'all' })).toEqual({
      status: 200,
      body: { requestId: 'RESTORE_1', fault: { faultCode: 'GENS-0033', faultString: 'MSISDN is not suspended' } },
    });
    expect((await rpc('Subscriber.Suspend', 'SUSPEND_1', { msisdn: line.msisdn, scope: 'all' })).body).toEqual({
      requestId: 'SUSPEND_1',
      result: { msisdn: line.msisdn, accepted: true },
    });
    expect(await rpc('Subscriber.Suspend', 'SUSPEND_2', { msisdn: line.msisdn, scope: 'voice' })).toEqual({
      status: 200,
      body: { requestId: 'SUSPEND_2', fault: { faultCode: 935, faultString: 'Subscriber state not NEW or ACTIVE' } },
    });
  });

  it('de-duplicates writes on the requestId', async () => {
    const line = await activate();
    const first = await rpc('Tariff.PurchaseAddon', 'PURCHASE_1', { msisdn: line.msisdn, ratePlan: 'TOPUP1GB' });
    const again = await rpc('Tariff.PurchaseAddon', 'PURCHASE_1', { msisdn: line.msisdn, ratePlan: 'TOPUP1GB' });
    expect(again).toEqual(first);
    expect((first.body as { result: { orderId: string } }).result.orderId).toMatch(/\S/);
  });
});

describe('carrier_b sandbox protocol faults', () => {
  it('RPC-1000 (HTTP 400) for a body that is not JSON', async () => {
    const answer = await post('{"method": ');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      requestId: null,
      fault: { faultCode: 'RPC-1000', faultString: 'Request body is not valid JSON' },
    });
  });

  it.each([
    ['an array', '[]'],
    ['no params', JSON.stringify({ method: 'Subscriber.GetUsage', requestId: 'r-2' })],
    ['params that are not an object', JSON.stringify({ method: 'Subscriber.GetUsage', requestId: 'r-2', params: [1] })],
    ['a numeric requestId', JSON.stringify({ method: 'Subscriber.GetUsage', requestId: 7, params: {} })],
    ['a method that is not Area.Action', JSON.stringify({ method: 'getUsage', requestId: 'r-2', params: {} })],
    ['an empty body', ''],
  ])('RPC-1001 for %s', async (_, body) => {
    const answer = await post(body);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ fault: { faultCode: 'RPC-1001' } });
  });

  it('echoes a usable requestId even when the envelope is otherwise broken', async () => {
    const answer = await post(JSON.stringify({ method: 'nope', requestId: 'r-3', params: {} }));
    expect(answer.body).toMatchObject({ requestId: 'r-3', fault: { faultCode: 'RPC-1001' } });
  });

  it.each([
    'Catalogue.ListTariffs',
    'Address.Validate',
    'Account.Get',
    'Sms.Send',
    'Subscriber.SetLabel',
    'Object.Prototype',
  ])('RPC-1002 method not found for %s (carrier_b has no extended operations)', async (method) => {
    expect(await rpc(method, 'r-4', {})).toEqual({
      status: 200,
      body: { requestId: 'r-4', fault: { faultCode: 'RPC-1002', faultString: `Method not found: ${method}` } },
    });
  });

  it('RPC-1003 for invalid params, naming the field but not the value', async () => {
    const answer = await rpc('Voicemail.SetLanguage', 'VM_LANG_1', {
      msisdn: '6465550001',
      greetingLanguage: 'ENGL-secret-looking',
    });
    expect(answer.status).toBe(200);
    const fault = (answer.body as { fault: { faultCode: string; faultString: string } }).fault;
    expect(fault.faultCode).toBe('RPC-1003');
    expect(fault.faultString).toContain('greetingLanguage');
    expect(fault.faultString).not.toContain('ENGL-secret-looking');
    expect(
      (await rpc('Subscriber.Terminate', 'DISCONNECT_1', { msisdn: '6465550001', iccid: '8901' })).body,
    ).toMatchObject({
      fault: { faultCode: 'RPC-1003' },
    });
  });

  it('RPC-1004 (HTTP 404) for any other path or verb', async () => {
    const other = await post('{}', '/rpc/v2');
    expect(other).toEqual({
      status: 404,
      body: { requestId: null, fault: { faultCode: 'RPC-1004', faultString: 'Only POST /rpc/v3 exists' } },
    });
    const get = await fetch(`${sandbox.url}/rpc/v3`, { headers: { authorization: AUTH } });
    expect(get.status).toBe(404);
  });

  it('keeps the sandbox controls outside authentication', async () => {
    const clock = await fetch(`${sandbox.url}/_sandbox/clock`);
    expect(clock.status).toBe(200);
    expect(await clock.json()).toEqual({ now: '2026-01-02T03:04:05.000Z' });
  });
});

describe('carrier_b sandbox unexpected errors', () => {
  let broken: SandboxServer;
  let url: string;

  beforeAll(async () => {
    const core = new SandboxCarrier({ carrier: 'carrier_b' });
    core.getUsage = () => Promise.reject(new Error('internal detail: table lines is locked'));
    broken = createCarrierBSandboxServer({ core, credentials: CREDENTIALS });
    url = await broken.listen();
  });

  afterAll(async () => {
    await broken.close();
  });

  it('answers a generic 500 that reveals nothing of the error', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const answer = await rpc('Subscriber.GetUsage', 'r-5', { msisdn: '6465550001' }, url);
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual({
        serverError: 'Internal error; the request may be retried with the same requestId',
      });
      expect(JSON.stringify(answer.body)).not.toContain('locked');
      expect(log).toHaveBeenCalledTimes(1);
    } finally {
      log.mockRestore();
    }
  });
});
