// carrier_b's RPC envelope on the adapter side: wraps a call as `{method, requestId, params}`,
// posts it to /rpc/v3, and turns the answer into a validated result, a CarrierRejection (a
// fault) or a CarrierFault (anything that is not a well-formed answer to this request).

import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { CarrierFault, CarrierRejection } from '../errors.js';
import { createCarrierHttpClient, type CarrierHttpResponse } from '../http-client.js';
import { probeCarrier, type CarrierReadiness } from '../probe.js';
import { answerEnvelope } from './wire-schemas.js';

export interface CarrierBConnection {
  baseUrl: string;
  accountId: string;
  apiSecret: string;
  timeoutMs: number;
  retries: number;
}

export interface RpcClient {
  /** A query: the requestId is a fresh UUID. */
  read<S extends z.ZodType>(method: string, params: Record<string, unknown>, result: S): Promise<z.output<S>>;
  /** A write: the requestId is the transaction id, on which carrier_b de-duplicates. */
  write<S extends z.ZodType>(method: string, transactionId: string, params: Record<string, unknown>, result: S): Promise<z.output<S>>;
  /** One authenticated read, sent once, for readiness checks. */
  probe(): Promise<CarrierReadiness>;
  close(): Promise<void>;
}

export const RPC_PATH = 'rpc/v3';

export function basicAuthorization(accountId: string, apiSecret: string): string {
  return `Basic ${Buffer.from(`${accountId}:${apiSecret}`, 'utf8').toString('base64')}`;
}

export function createRpcClient(connection: CarrierBConnection): RpcClient {
  if (connection.accountId === '' || connection.apiSecret === '') throw new Error('carrier_b adapter needs an account id and an API secret');
  if (connection.accountId.includes(':')) throw new Error('carrier_b account ids cannot contain a colon');
  const http = createCarrierHttpClient({
    carrier: 'carrier_b',
    baseUrl: connection.baseUrl,
    headers: { authorization: basicAuthorization(connection.accountId, connection.apiSecret) },
    timeoutMs: connection.timeoutMs,
    retries: connection.retries,
  });

  async function call<S extends z.ZodType>(method: string, requestId: string, params: Record<string, unknown>, result: S, write: boolean) {
    // Every attempt of a write carries the same requestId, so retries are safe for writes too.
    // Once a write has been sent, a bad answer does not tell us it did not happen.
    const fault = (kind: CarrierFault['kind']) => new CarrierFault('carrier_b', kind, !write);
    // Transport faults come from the shared client, which knows whether anything was sent.
    const response: CarrierHttpResponse = await http.send({ method: 'POST', path: RPC_PATH, json: { method, requestId, params }, idempotent: true, readOnly: !write });

    // Refused credentials: the carrier turned the request away before doing anything, so the
    // outcome is known. Reported like carrier 321's adapter does (the carrier cannot be used);
    // the message names only the carrier, never the account id or the secret.
    if (response.status === 401) throw new CarrierFault('carrier_b', 'unreachable', true);
    if (response.status >= 500) throw fault('server_error');
    if (response.status !== 200) throw fault('bad_response');

    const answer = answerEnvelope.safeParse(response.body);
    if (!answer.success || answer.data.requestId !== requestId) throw fault('bad_response');
    const { result: payload, fault: refusal } = answer.data;
    if ((payload === undefined) === (refusal === undefined)) throw fault('bad_response');
    if (refusal) throw new CarrierRejection(String(refusal.faultCode), refusal.faultString);

    const parsed = result.safeParse(payload);
    if (!parsed.success) throw fault('bad_response');
    return parsed.data;
  }

  return {
    read: (method, params, result) => call(method, randomUUID(), params, result, false),
    write: (method, transactionId, params, result) => call(method, transactionId, params, result, true),
    // A coverage lookup reads nothing of a subscriber's and changes nothing; a fault in the
    // envelope still proves the carrier is up and took our credentials. Sent once, no retries.
    probe: () =>
      probeCarrier(() =>
        http.send({ method: 'POST', path: RPC_PATH, json: { method: 'Network.CheckCoverage', requestId: randomUUID(), params: { postCode: '10001' } }, idempotent: false, readOnly: true }),
      ),
    close: () => http.close(),
  };
}
