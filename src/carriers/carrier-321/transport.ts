// How the carrier 321 adapter talks to the carrier: one keep-alive client, the
// Idempotency-Key header on writes, and every answer either validated into a domain value,
// turned into a CarrierRejection, or turned into a CarrierFault. Nothing half-parsed escapes.

import type { z } from 'zod';
import { CarrierFault, CarrierRejection, type CarrierFaultKind } from '../errors.js';
import { probeCarrier, type CarrierReadiness } from '../probe.js';
import type { CarrierCallScope } from '../call-scope.js';
import {
  createCarrierHttpClient,
  type CarrierHttpClient,
  type CarrierHttpOptions,
  type CarrierHttpRequest,
  type CarrierHttpResponse,
} from '../http-client.js';
import { wireErrorSchema } from './codec.js';

export interface Carrier321ReadCall<T> {
  /** POST only for reads without side effects (address validation). */
  method?: 'GET' | 'POST';
  path: string;
  searchParams?: Record<string, string | undefined>;
  json?: unknown;
  /** Validates the 2xx body and translates it to the domain value. */
  schema: z.ZodType<T>;
}

export interface Carrier321WriteCall<T> {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  searchParams?: Record<string, string | undefined>;
  json?: unknown;
  schema: z.ZodType<T>;
}

export interface Carrier321Transport {
  read<T>(call: Carrier321ReadCall<T>): Promise<T>;
  /** Sends `transactionId` as Idempotency-Key; the carrier de-duplicates on it. */
  write<T>(transactionId: string, call: Carrier321WriteCall<T>): Promise<T>;
  /** One authenticated coverage read, sent once, for readiness checks; `coverage` reads its answer. */
  probe(coverage: z.ZodType<unknown>): Promise<CarrierReadiness>;
  /** The same transport, its calls counted under `scope`. */
  scoped(scope: CarrierCallScope): Carrier321Transport;
  close(): Promise<void>;
}

export interface Carrier321TransportOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  retries: number;
  breaker?: CarrierHttpOptions['breaker'];
  onBreakerChange?: CarrierHttpOptions['onBreakerChange'];
}

/** Builds a path from a template, percent-encoding every interpolated value. */
export function wirePath(strings: TemplateStringsArray, ...values: string[]): string {
  return strings.reduce(
    (path, part, index) => path + part + (index < values.length ? encodeURIComponent(values[index]!) : ''),
    '',
  );
}

export function createCarrier321Transport(options: Carrier321TransportOptions): Carrier321Transport {
  const base: CarrierHttpOptions = {
    carrier: '321',
    baseUrl: options.baseUrl,
    headers: { 'X-Api-Key': options.apiKey, accept: 'application/json' },
    timeoutMs: options.timeoutMs,
    retries: options.retries,
    breaker: options.breaker,
    onBreakerChange: options.onBreakerChange,
    breakerTrial: probeRequest,
  };
  return transportOver(createCarrierHttpClient(base));
}

/** The readiness probe: coverage of one ZIP code, a read sent once. */
const probeRequest = (): CarrierHttpRequest => ({
  method: 'GET',
  path: 'v1/coverage/10001',
  idempotent: false,
  probe: true,
});

function transportOver(client: CarrierHttpClient): Carrier321Transport {
  async function read<T>(call: Carrier321ReadCall<T>): Promise<T> {
    const response = await client.send({
      method: call.method ?? 'GET',
      path: call.path,
      searchParams: call.searchParams,
      json: call.json,
      idempotent: true,
    });
    return interpret(response, call.schema, false);
  }

  async function write<T>(transactionId: string, call: Carrier321WriteCall<T>): Promise<T> {
    const response = await client.send({
      method: call.method,
      path: call.path,
      searchParams: call.searchParams,
      json: call.json,
      headers: { 'Idempotency-Key': transactionId },
      // The carrier de-duplicates on the Idempotency-Key, so a retry cannot apply twice.
      idempotent: true,
    });
    return interpret(response, call.schema, true);
  }

  // A coverage lookup reads nothing of a subscriber's and changes nothing; no retries, so one
  // readiness check costs the carrier exactly one request.
  const probe = (coverage: z.ZodType<unknown>) =>
    probeCarrier(
      () => client.send(probeRequest()),
      (response) => interpret(response, coverage, false),
    );

  return {
    read,
    write,
    probe,
    scoped: (scope) => transportOver(client.scoped(scope)),
    close: () => client.close(),
  };
}

function fault(kind: CarrierFaultKind, write: boolean): CarrierFault {
  return new CarrierFault('321', kind, !write);
}

function interpret<T>(response: CarrierHttpResponse, schema: z.ZodType<T>, write: boolean): T {
  const { status, body } = response;
  if (status >= 200 && status < 300) {
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw fault('bad_response', write);
    return parsed.data;
  }
  // Bad credentials: the carrier refused before doing anything, so the outcome is known.
  // The fault message names only the carrier; the key is never part of it.
  if (status === 401) throw new CarrierFault('321', 'unreachable', true);
  if (status >= 500) throw fault('server_error', write);
  if (status >= 400) {
    const parsed = wireErrorSchema.safeParse(body);
    if (parsed.success) throw new CarrierRejection(parsed.data.error.code, parsed.data.error.description);
  }
  throw fault('bad_response', write);
}
