// Writes REST bodies with their members in the order the operation's output schema declares
// them (the spec's order), whatever order a handler built them in.

import type { z } from 'zod';
import { def, objectShape, unwrap } from '../lib/zod-introspect.js';

export function inSchemaOrder(schema: z.ZodType, value: unknown): unknown {
  const inner = unwrap(schema).schema;
  const type = def(inner).type;
  if (Array.isArray(value)) {
    return type === 'array' ? value.map((item) => inSchemaOrder(def(inner).element as z.ZodType, item)) : value;
  }
  if (typeof value !== 'object' || value === null || (type !== 'object' && type !== 'union')) return value;
  const { shape } = objectShape(inner);
  const members = value as Record<string, unknown>;
  const ordered: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(shape))
    if (key in members) ordered[key] = inSchemaOrder(member, members[key]);
  for (const [key, member] of Object.entries(members)) if (!(key in ordered)) ordered[key] = member;
  return ordered;
}
