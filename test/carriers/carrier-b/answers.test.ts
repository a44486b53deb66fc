// How the carrier_b adapter reads answers that are not plain successes: faults become
// CarrierRejection with the domain's string code; anything that is not a well-formed answer
// to the request sent (wrong requestId, wrong shape, wrong status) becomes a CarrierFault.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCarrierBAdapter, type CarrierBAdapter } from '../../../src/carriers/carrier-b/adapter.js';
import { CarrierFault, CarrierRejection } from '../../../src/carriers/errors.js';
import { startRecordingServer, type RecordingServer, type Responder } from '../../support/recording-server.js';

const MDN = '6465550001';
const SUSPEND = { transactionId: 'SUSPEND_ANSWERS_1', mdn: MDN };

let recorder: RecordingServer;
let adapter: CarrierBAdapter;

beforeAll(async () => {
  recorder = await startRecordingServer(() => ({ status: 200, body: {} }));
  adapter = createCarrierBAdapter({
    baseUrl: recorder.url,
    accountId: 'acct',
    apiSecret: 'secret',
    timeoutMs: 2000,
    retries: 0,
  });
});

afterAll(async () => {
  await adapter.close();
  await recorder.close();
});

async function failure(responder: Responder, call: (a: CarrierBAdapter) => Promise<unknown>): Promise<unknown> {
  recorder.respondWith(responder);
  return call(adapter).then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );
}

const readUsage = (a: CarrierBAdapter) => a.getUsage(MDN);
const writeSuspend = (a: CarrierBAdapter) => a.suspend(SUSPEND);

describe('carrier_b faults', () => {
  it('turns a numeric faultCode into the string code of the domain', async () => {
    const error = await failure(
      (body) => ({
        status: 200,
        body: {
          requestId: body.requestId,
          fault: { faultCode: 935, faultString: 'Subscriber state not NEW or ACTIVE' },
        },
      }),
      writeSuspend,
    );
    expect(error).toBeInstanceOf(CarrierRejection);
    expect((error as CarrierRejection).code).toBe('935');
    expect((error as CarrierRejection).message).toBe('Subscriber state not NEW or ACTIVE (935)');
  });

  it('keeps a GENS faultCode as it is', async () => {
    const error = await failure(
      (body) => ({
        status: 200,
        body: { requestId: body.requestId, fault: { faultCode: 'GENS-0033', faultString: 'MSISDN is not suspended' } },
      }),
      writeSuspend,
    );
    expect((error as CarrierRejection).message).toBe('MSISDN is not suspended (GENS-0033)');
  });
});

describe('carrier_b answers that cannot be trusted', () => {
  const usageResult = {
    msisdn: MDN,
    iccid: '8901260000000000001',
    subscriberState: 'live',
    customerRef: 'C',
    tariffName: 'Basic',
    tariffSince: 0,
    allowances: { voiceMinutes: 0, smsCount: 0, dataBytes: 0 },
    bundles: [],
  };

  const cases: { name: string; responder: Responder; kind: CarrierFault['kind'] }[] = [
    {
      name: 'a requestId that does not echo the one sent',
      responder: () => ({ status: 200, body: { requestId: 'someone-else', result: usageResult } }),
      kind: 'bad_response',
    },
    { name: 'no requestId', responder: () => ({ status: 200, body: { result: usageResult } }), kind: 'bad_response' },
    {
      name: 'both result and fault',
      responder: (b) => ({
        status: 200,
        body: { requestId: b.requestId, result: usageResult, fault: { faultCode: 918, faultString: 'x' } },
      }),
      kind: 'bad_response',
    },
    {
      name: 'neither result nor fault',
      responder: (b) => ({ status: 200, body: { requestId: b.requestId } }),
      kind: 'bad_response',
    },
    {
      name: 'a result of the wrong shape',
      responder: (b) => ({
        status: 200,
        body: { requestId: b.requestId, result: { ...usageResult, tariffSince: '2026-01-02' } },
      }),
      kind: 'bad_response',
    },
    {
      name: 'an unknown subscriber state',
      responder: (b) => ({
        status: 200,
        body: { requestId: b.requestId, result: { ...usageResult, subscriberState: 'zombie' } },
      }),
      kind: 'bad_response',
    },
    {
      name: 'a timestamp beyond year 9999',
      responder: (b) => ({
        status: 200,
        body: { requestId: b.requestId, result: { ...usageResult, tariffSince: 9e15 } },
      }),
      kind: 'bad_response',
    },
    {
      name: 'a fault without a faultString',
      responder: (b) => ({ status: 200, body: { requestId: b.requestId, fault: { faultCode: 918 } } }),
      kind: 'bad_response',
    },
    {
      name: 'a body that is not JSON',
      responder: () => ({ status: 200, body: '<html>oops</html>' }),
      kind: 'bad_response',
    },
    { name: 'an empty body', responder: () => ({ status: 200, body: '' }), kind: 'bad_response' },
    { name: 'a JSON array', responder: () => ({ status: 200, body: [] }), kind: 'bad_response' },
    {
      name: 'HTTP 400',
      responder: (b) => ({
        status: 400,
        body: { requestId: b.requestId, fault: { faultCode: 'RPC-1000', faultString: 'x' } },
      }),
      kind: 'bad_response',
    },
    { name: 'HTTP 404', responder: () => ({ status: 404, body: {} }), kind: 'bad_response' },
    {
      name: 'HTTP 500',
      responder: () => ({ status: 500, body: { serverError: 'Internal error' } }),
      kind: 'server_error',
    },
    {
      name: 'HTTP 503 with a non-JSON body',
      responder: () => ({ status: 503, body: 'Service Unavailable' }),
      kind: 'server_error',
    },
    { name: 'HTTP 401', responder: () => ({ status: 401, body: { authFailure: {} } }), kind: 'unreachable' },
  ];

  it.each(cases)('$name → $kind', async ({ responder, kind }) => {
    const read = await failure(responder, readUsage);
    expect(read).toBeInstanceOf(CarrierFault);
    expect(read).toMatchObject({ carrier: 'carrier_b', kind, outcomeKnown: true });

    const write = await failure(responder, writeSuspend);
    expect(write).toBeInstanceOf(CarrierFault);
    // 401: the carrier refused before doing anything. Otherwise the write may have landed.
    expect(write).toMatchObject({ carrier: 'carrier_b', kind, outcomeKnown: kind === 'unreachable' });
  });
});

describe('carrier_b requests the adapter will not send', () => {
  it('refuses an expiry date that is not a real day instead of sending another one', async () => {
    recorder.requests.length = 0;
    for (const expiryDate of ['2026-02-30', '2026-13-01', '31/12/2026']) {
      await expect(
        adapter.adjustBalance({
          transactionId: 'ADJ_BAL_BAD_DATE',
          mdn: MDN,
          subscriptionId: 'S',
          uom: 'EVENT',
          amount: 1,
          expiryDate,
        }),
      ).rejects.toThrow(TypeError);
    }
    expect(recorder.requests).toHaveLength(0);
  });
});
