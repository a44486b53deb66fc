// How the carrier_b adapter talks to the carrier: one keep-alive client, every call wrapped in
// the RPC envelope `{method, requestId, params}` and posted to /rpc/v3, and every answer either
// validated into a domain value, turned into a CarrierRejection (a fault in the envelope), or
// turned into a CarrierFault (anything that is not a well-formed answer to this request).

import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { CarrierFault, CarrierRejection, type CarrierFaultKind } from '../errors.js';
import type { CarrierCallScope } from '../call-scope.js';
import {
  createCarrierHttpClient,
  type CarrierHttpClient,
  type CarrierHttpOptions,
  type CarrierHttpRequest,
  type CarrierHttpResponse,
} from '../http-client.js';
import { probeCarrier, type CarrierReadiness } from '../probe.js';
import { wireAnswerEnvelope } from './codec.js';

export interface CarrierBCall<T> {
  /** The RPC method, `Area.Action`. */
  method: string;
  params: Record<string, unknown>;
  /** Validates the envelope's `result` and translates it to the domain value. */
  schema: z.ZodType<T>;
}

export interface CarrierBTransport {
  /** A query: the requestId is a fresh UUID. */
  read<T>(call: CarrierBCall<T>): Promise<T>;
  /** A write: the requestId is the transaction id, on which carrier_b de-duplicates. */
  write<T>(transactionId: string, call: CarrierBCall<T>): Promise<T>;
  /** One authenticated read, sent once, for readiness checks. */
  /** One authenticated coverage call, sent once, for readiness checks; `coverage` reads its answer. */
  probe(coverage: z.ZodType<unknown>): Promise<CarrierReadiness>;
  /** The same transport, its calls counted under `scope`. */
  scoped(scope: CarrierCallScope): CarrierBTransport;
  close(): Promise<void>;
}

export interface CarrierBTransportOptions {
  baseUrl: string;
  accountId: string;
  apiSecret: string;
  timeoutMs: number;
  retries: number;
  breaker?: CarrierHttpOptions['breaker'];
  onBreakerChange?: CarrierHttpOptions['onBreakerChange'];
}

const RPC_PATH = 'rpc/v3';

function basicAuthorization(accountId: string, apiSecret: string): string {
  return `Basic ${Buffer.from(`${accountId}:${apiSecret}`, 'utf8').toString('base64')}`;
}

export function createCarrierBTransport(options: CarrierBTransportOptions): CarrierBTransport {
  const client = createCarrierHttpClient({
    carrier: 'carrier_b',
    baseUrl: options.baseUrl,
    headers: { authorization: basicAuthorization(options.accountId, options.apiSecret) },
    timeoutMs: options.timeoutMs,
    retries: options.retries,
    breaker: options.breaker,
    onBreakerChange: options.onBreakerChange,
    breakerTrial: () => probeRequest(randomUUID()),
  });
  return transportOver(client);
}

/** The readiness probe: coverage of one postcode, a read sent once under its own request id. */
const probeRequest = (requestId: string): CarrierHttpRequest => ({
  method: 'POST',
  path: RPC_PATH,
  json: { method: 'Network.CheckCoverage', requestId, params: { postCode: '10001' } },
  idempotent: false,
  readOnly: true,
  probe: true,
});

function transportOver(client: CarrierHttpClient): CarrierBTransport {
  async function send<T>(requestId: string, call: CarrierBCall<T>, write: boolean): Promise<T> {
    // Every attempt of a write carries the same requestId, so retries are safe for writes too.
    // Transport faults come from the shared client, which knows whether anything was sent.
    const response = await client.send({
      method: 'POST',
      path: RPC_PATH,
      json: { method: call.method, requestId, params: call.params },
      idempotent: true,
      readOnly: !write,
    });
    return interpret(response, requestId, call.schema, write);
  }

  // A coverage lookup reads nothing of a subscriber's and changes nothing; a fault in the
  // envelope still proves the carrier is up and took our credentials. Sent once, no retries.
  const probe = (coverage: z.ZodType<unknown>) => {
    const requestId = randomUUID();
    return probeCarrier(
      () => client.send(probeRequest(requestId)),
      (response) => interpret(response, requestId, coverage, false),
    );
  };

  return {
    read: (call) => send(randomUUID(), call, false),
    write: (transactionId, call) => send(transactionId, call, true),
    probe,
    scoped: (scope) => transportOver(client.scoped(scope)),
    close: () => client.close(),
  };
}

/** Once a write has been sent, a bad answer does not tell us it did not happen. */
function fault(kind: CarrierFaultKind, write: boolean): CarrierFault {
  return new CarrierFault('carrier_b', kind, !write);
}

function interpret<T>(response: CarrierHttpResponse, requestId: string, schema: z.ZodType<T>, write: boolean): T {
  // Refused credentials: the carrier turned the request away before doing anything, so the
  // outcome is known. Reported like carrier 321's adapter does (the carrier cannot be used);
  // the message names only the carrier, never the account id or the secret.
  if (response.status === 401) throw new CarrierFault('carrier_b', 'unreachable', true);
  if (response.status >= 500) throw fault('server_error', write);
  if (response.status !== 200) throw fault('bad_response', write);

  const answer = wireAnswerEnvelope.safeParse(response.body);
  if (!answer.success || answer.data.requestId !== requestId) throw fault('bad_response', write);
  const { result, fault: refusal } = answer.data;
  if ((result === undefined) === (refusal === undefined)) throw fault('bad_response', write);
  if (refusal) throw new CarrierRejection(String(refusal.faultCode), refusal.faultString);

  const parsed = schema.safeParse(result);
  if (!parsed.success) throw fault('bad_response', write);
  return parsed.data;
}
