// carrier_b credentials: a wrong account id or secret is a CarrierFault, the sandbox answers
// 401 with its own body, and the secret appears in no error message, property or body.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCarrierBAdapter, type CarrierBAdapter } from '../../../src/carriers/carrier-b/adapter.js';
import { CarrierFault } from '../../../src/carriers/errors.js';
import { caught, CREDENTIALS, startSandbox, type RunningSandbox } from './sandbox-helpers.js';

const WRONG_SECRET = 'wrong-secret-Zq81x';

let sandbox: RunningSandbox;
const adapters: CarrierBAdapter[] = [];

function adapterWith(accountId: string, apiSecret: string): CarrierBAdapter {
  const adapter = createCarrierBAdapter({ baseUrl: sandbox.url, accountId, apiSecret, timeoutMs: 2000, retries: 1 });
  adapters.push(adapter);
  return adapter;
}

/** Everything an error could leak through when logged or serialised. */
function everythingIn(error: unknown): string {
  const fields = error && typeof error === 'object' ? Object.entries(error) : [];
  return [String(error), (error as Error).stack ?? '', JSON.stringify(fields), JSON.stringify(error)].join('\n');
}

beforeAll(async () => {
  sandbox = await startSandbox();
});

afterAll(async () => {
  await Promise.all(adapters.map((adapter) => adapter.close()));
  await sandbox.server.close();
});

describe('carrier_b credentials', () => {
  it('works with the right account id and secret', async () => {
    expect((await adapterWith(CREDENTIALS.accountId, CREDENTIALS.apiSecret).getCoverage('62701')).covered).toBe(true);
  });

  it.each([
    ['a wrong secret', CREDENTIALS.accountId, WRONG_SECRET],
    ['a wrong account id', 'someone-else', CREDENTIALS.apiSecret],
    ['a secret that is a prefix of the right one', CREDENTIALS.accountId, CREDENTIALS.apiSecret.slice(0, -1)],
  ])('refuses %s with a CarrierFault that names no credential', async (_, accountId, apiSecret) => {
    const adapter = adapterWith(accountId, apiSecret);
    for (const error of [
      await caught(adapter.getCoverage('62701')),
      await caught(adapter.suspend({ transactionId: 'SUSPEND_CRED_1', mdn: '6465550001' })),
    ]) {
      expect(error).toBeInstanceOf(CarrierFault);
      expect(error).toMatchObject({ carrier: 'carrier_b', kind: 'unreachable', outcomeKnown: true });
      expect((error as Error).message).toBe('Carrier carrier_b could not be reached');
      const text = everythingIn(error);
      for (const secret of [
        apiSecret,
        CREDENTIALS.apiSecret,
        Buffer.from(`${accountId}:${apiSecret}`).toString('base64'),
      ]) {
        expect(text).not.toContain(secret);
      }
    }
  });

  it('answers 401 with its own body, without and with bad credentials, echoing nothing', async () => {
    const envelope = JSON.stringify({
      method: 'Network.CheckCoverage',
      requestId: 'r-1',
      params: { postCode: '62701' },
    });
    const bad = `Basic ${Buffer.from(`${CREDENTIALS.accountId}:${WRONG_SECRET}`).toString('base64')}`;
    const attempts: Record<string, string>[] = [
      {},
      { authorization: bad },
      { authorization: 'Bearer sandbox-b-secret' },
      { authorization: 'Basic !!!' },
    ];
    for (const headers of attempts) {
      const response = await fetch(`${sandbox.url}/rpc/v3`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: envelope,
      });
      expect(response.status).toBe(401);
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({
        authFailure: { scheme: 'Basic', reason: 'Account id or API secret not accepted' },
      });
      expect(text).not.toContain(WRONG_SECRET);
      expect(text).not.toContain(CREDENTIALS.apiSecret);
    }
  });

  it('refuses to build an adapter or a server without credentials', async () => {
    expect(() =>
      createCarrierBAdapter({ baseUrl: sandbox.url, accountId: 'a', apiSecret: '', timeoutMs: 1000, retries: 0 }),
    ).toThrow(/API secret/);
    expect(() =>
      createCarrierBAdapter({ baseUrl: sandbox.url, accountId: 'a:b', apiSecret: 's', timeoutMs: 1000, retries: 0 }),
    ).toThrow(/colon/);
    const { createCarrierBSandboxServer } = await import('../../../src/sandbox/carrier-b/server.js');
    expect(() =>
      createCarrierBSandboxServer({ core: sandbox.core, credentials: { accountId: 'a', apiSecret: '' } }),
    ).toThrow(/API secret/);
  });
});
