// Route helpers for the carrier 321 sandbox: path parameters, zod-checked bodies (a malformed
// request is a 400 in the wire's error format), and the Idempotency-Key every write needs.

import type { z } from 'zod';
import { SandboxBadRequest, type JsonReply, type SandboxRequest, type SandboxRoute } from '../http-kit.js';

export interface RouteContext {
  param(name: string): string;
  query(name: string): string | undefined;
  body: unknown;
}

export interface WriteContext extends RouteContext {
  /** The Idempotency-Key header: the core de-duplicates on it. */
  transactionId: string;
}

type Method = SandboxRoute['method'];

function context(request: SandboxRequest): RouteContext {
  return {
    param(name) {
      const value = request.params[name];
      if (value === undefined || value === '') throw new SandboxBadRequest(`Missing path parameter ${name}`);
      return value;
    },
    query(name) {
      const value = request.query.get(name);
      return value === null || value === '' ? undefined : value;
    },
    body: request.body,
  };
}

export function readRoute(
  method: Method,
  path: string,
  handle: (context: RouteContext) => Promise<JsonReply>,
): SandboxRoute {
  return { method, path, handle: (request) => handle(context(request)) };
}

export function writeRoute(
  method: Method,
  path: string,
  handle: (context: WriteContext) => Promise<JsonReply>,
): SandboxRoute {
  return {
    method,
    path,
    handle(request) {
      const header = request.headers['idempotency-key'];
      const transactionId = Array.isArray(header) ? header[0] : header;
      if (!transactionId || transactionId.trim() === '')
        throw new SandboxBadRequest('Idempotency-Key header is required on writes');
      return handle({ ...context(request), transactionId });
    },
  };
}

/** Reads a request body against its wire schema (no body reads as `{}`); anything else is a 400. */
export function decodeBody<T>(schema: z.ZodType<T>, body: unknown): T {
  return decode(schema, body ?? {}, 'body');
}

/** Reads one query parameter (undefined when absent) against its wire schema. */
export function decodeQuery<T>(schema: z.ZodType<T>, value: string | undefined, name: string): T {
  return decode(schema, value, name);
}

function decode<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${[where, ...issue.path].join('.')}: ${issue.message}`);
  throw new SandboxBadRequest(`Malformed request: ${problems.join('; ')}`);
}
