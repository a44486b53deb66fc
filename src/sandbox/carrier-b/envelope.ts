// carrier_b's RPC envelope as the sandbox server reads and writes it: the request envelope
// `{method, requestId, params}`, the answer `{requestId, result}` / `{requestId, fault}`, and
// the protocol fault codes for requests that are not a usable envelope.

import { z } from 'zod';
import type { JsonReply } from '../http-kit.js';

/**
 * Protocol fault codes, in their own `RPC-` namespace so they can never be mistaken for a
 * carrier business code (numeric spec codes and `GENS-` codes).
 */
export const PROTOCOL_FAULTS = {
  /** HTTP 400: the body is not JSON at all (or a sandbox control got a bad value). */
  unparseable: 'RPC-1000',
  /** The body is JSON but not an envelope (method, requestId, params missing or ill-typed). */
  notAnEnvelope: 'RPC-1001',
  /** No such method (this includes every extended operation: carrier_b has none). */
  unknownMethod: 'RPC-1002',
  /** The method exists but its params are missing, ill-typed or out of range. */
  invalidParams: 'RPC-1003',
  /** HTTP 404: a path other than the one RPC endpoint. */
  noSuchEndpoint: 'RPC-1004',
} as const;

export type ProtocolFaultCode = (typeof PROTOCOL_FAULTS)[keyof typeof PROTOCOL_FAULTS];

/** A request the RPC layer refuses before any carrier logic runs. */
export class RpcProtocolFault extends Error {
  override readonly name = 'RpcProtocolFault';

  constructor(
    readonly code: ProtocolFaultCode,
    message: string,
  ) {
    super(message);
  }
}

export interface Envelope {
  method: string;
  requestId: string;
  params: Record<string, unknown>;
}

const envelopeSchema = z.object({
  method: z.string().regex(/^[A-Z][A-Za-z]*\.[A-Z][A-Za-z]*$/, 'must look like Area.Action'),
  requestId: z.string().min(1).max(128),
  params: z.record(z.string(), z.unknown()),
});

export function parseEnvelope(body: unknown): Envelope {
  const parsed = envelopeSchema.safeParse(body);
  if (!parsed.success)
    throw new RpcProtocolFault(PROTOCOL_FAULTS.notAnEnvelope, `Not an RPC envelope: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

/** The request id to echo in a fault, when the body carried a usable one. */
export function requestIdOf(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const requestId = (body as { requestId?: unknown }).requestId;
  return typeof requestId === 'string' && requestId.length > 0 && requestId.length <= 128 ? requestId : null;
}

/** Names the offending fields and what is wrong with them, never the values sent. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'} ${issue.message}`)
    .join('; ');
}

/** Spec codes that are all digits travel as JSON numbers; everything else as a string. */
export function wireFaultCode(code: string): number | string {
  return /^\d+$/.test(code) ? Number(code) : code;
}

export function resultReply(requestId: string, result: unknown): JsonReply {
  return { status: 200, body: { requestId, result } };
}

export function faultReply(requestId: string | null, code: string, text: string, status = 200): JsonReply {
  return { status, body: { requestId, fault: { faultCode: wireFaultCode(code), faultString: text } } };
}
