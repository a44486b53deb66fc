// The GraphQL-only conventions applied to every object type derived from the operation table,
// so that one schema speaks one language while REST keeps the spec's bodies: one result status
// enum, one carrier enum, DateTime and JSON scalars, and an `id` wherever a type has an identity.

import type { z } from 'zod';
import { carrierId } from '../operations/management/schemas.js';
import { operationStatus } from '../operations/schemas/envelope.js';
import { def } from '../lib/zod-introspect.js';

/** Object type names GraphQL reserves for root types; ours are renamed so no tool mistakes them for roots. */
export const RESERVED_TYPE_NAMES: Readonly<Record<string, string>> = {
  Query: 'QueryRecord',
  Mutation: 'MutationRecord',
  Subscription: 'PlanSubscription',
};

/**
 * The member that identifies each object type without an `id` of its own, exposed as `id: ID!`
 * (normalized client caches key on `id`). Types neither here nor carrying `id` are values
 * embedded in their parent (listed for clients in client-cache-config.ts).
 */
export const IDENTITY_FIELDS: Readonly<Record<string, string>> = {
  Plan: 'planId',
  Setting: 'key',
  CarrierStatus: 'carrier',
  OwnedLine: 'mdn',
  LineOwnership: 'mdn',
};

/** How one zod member appears on GraphQL, when it differs from its REST shape. */
export type Convention =
  | { kind: 'carrier'; schema: z.ZodType }
  | { kind: 'status'; schema: z.ZodType }
  | { kind: 'subscriber-status' }
  | { kind: 'scalar'; scalar: 'DateTime' | 'JSON' | 'ID' };

const TIMESTAMP = /YYYY-MM-DD HH:MM:SS|ISO 8601/;

/**
 * The convention for member `key` of an object whose members are `keys`; undefined = as derived.
 * - a `carrier` string → the CarrierId enum;
 * - a string `status` → on a result (it has `message`) the OperationStatus enum plus
 *   `subscriberStatus`; elsewhere it is the subscriber's status and is named so;
 * - a timestamp (the description names the format) → DateTime; a JSON-text member → JSON;
 * - an own `id` → ID, as the identities derived from IDENTITY_FIELDS are.
 */
export function conventionFor(
  key: string,
  schema: z.ZodType,
  description: string | undefined,
  keys: readonly string[],
): Convention | undefined {
  if (def(schema).type !== 'string') return undefined;
  if (key === 'carrier') return { kind: 'carrier', schema: carrierId };
  if (key === 'id') return { kind: 'scalar', scalar: 'ID' };
  if (key === 'status')
    return keys.includes('message') ? { kind: 'status', schema: operationStatus } : { kind: 'subscriber-status' };
  if (description && TIMESTAMP.test(description)) return { kind: 'scalar', scalar: 'DateTime' };
  if (description && /\bJSON\b/.test(description)) return { kind: 'scalar', scalar: 'JSON' };
  return undefined;
}

/**
 * A timestamp member's description as GraphQL serves it. The operations describe members in the
 * form REST answers them (`YYYY-MM-DD HH:MM:SS (UTC)`, as the carriers write them; ISO 8601 with
 * an offset); GraphQL answers every timestamp as a DateTime, ISO 8601 in UTC, and says so.
 */
export function instantDescription(description: string): string {
  return description.replace(/YYYY-MM-DD HH:MM:SS(?: \(UTC\))?|ISO 8601 with offset/g, 'ISO 8601 in UTC');
}

/** The result status of a body whose `status` is either `failure` or the subscriber's status. */
export const resultStatus = (status: unknown): 'success' | 'failure' => (status === 'failure' ? 'failure' : 'success');

/** The subscriber's own status, which a failed result does not carry. */
export const subscriberStatus = (status: unknown): string | null =>
  typeof status === 'string' && status !== 'failure' ? status : null;

/** A JSON member's value: REST carries it as JSON text, GraphQL as the value itself. */
export function jsonValue(text: unknown): unknown {
  if (typeof text !== 'string') return text ?? null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * An ISO 8601 instant in UTC (`2026-01-02T03:04:05.000Z`). Carrier timestamps without a zone
 * (`YYYY-MM-DD HH:MM:SS`) are UTC, as the carriers' contracts say; a value with an offset keeps its instant.
 */
export function isoInstant(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  const text = String(value);
  const carrierForm = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?)$/.exec(text);
  const instant = new Date(
    carrierForm
      ? `${carrierForm[1]}T${carrierForm[2]}Z`
      : /^\d{4}-\d{2}-\d{2}$/.test(text)
        ? `${text}T00:00:00Z`
        : text,
  );
  if (Number.isNaN(instant.getTime())) throw new TypeError(`Not a timestamp: ${text.slice(0, 40)}`);
  return instant.toISOString();
}
