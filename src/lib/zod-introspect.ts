// Reading zod schemas as data: the wrappers around a field (optional, nullable, default,
// pipe), its description, its type name, and the members of an object or union of objects.
// The GraphQL types and the REST field order are both derived through here.

import { z } from 'zod';

export type Shape = Record<string, z.ZodType>;

export interface Unwrapped {
  schema: z.ZodType;
  optional: boolean;
  description: string | undefined;
}

export function def(schema: z.ZodType): z.core.$ZodTypeDef & Record<string, unknown> {
  return (schema as unknown as { _zod: { def: z.core.$ZodTypeDef & Record<string, unknown> } })._zod.def;
}

/**
 * The type name of a schema: its own `.meta({ id })`, or that of the schema it was derived
 * from by `.describe()`/`.meta()` (zod does not inherit ids, but a described field of a named
 * type is still that type).
 */
export function zodName(schema: z.ZodType): string | undefined {
  const named = namedAncestor(schema);
  return named ? (z.globalRegistry.get(named)!.id as string) : undefined;
}

function namedAncestor(schema: z.ZodType): z.ZodType | undefined {
  let current: z.ZodType | undefined = schema;
  while (current) {
    if (typeof z.globalRegistry.get(current)?.id === 'string') return current;
    current = (current as unknown as { _zod: { parent?: z.ZodType } })._zod.parent;
  }
  return undefined;
}

/** A named type's own description (not that of a field that uses it). */
export function typeDescription(schema: z.ZodType): string | undefined {
  return describe(namedAncestor(schema) ?? schema);
}

export function describe(schema: z.ZodType): string | undefined {
  return schema.description ?? (z.globalRegistry.get(schema)?.description as string | undefined);
}

/** Strips optional/nullable/default/pipe wrappers, keeping the outermost description. */
export function unwrap(schema: z.ZodType): Unwrapped {
  let current = schema;
  let optional = false;
  let description = describe(schema);
  for (;;) {
    const d = def(current);
    if (d.type === 'optional' || d.type === 'nullable' || d.type === 'default' || d.type === 'prefault') {
      optional = true;
      current = d.innerType as z.ZodType;
    } else if (d.type === 'pipe') {
      current = d.in as z.ZodType;
    } else break;
    description ??= describe(current);
  }
  return { schema: current, optional, description };
}

/** Object members; those of a union of objects are merged (`merged`: every member may be absent). */
export function objectShape(schema: z.ZodType): { shape: Shape; merged: boolean } {
  const d = def(schema);
  if (d.type === 'object') return { shape: d.shape as Shape, merged: false };
  const shape: Shape = {};
  for (const option of d.options as z.ZodType[]) Object.assign(shape, objectShape(unwrap(option).schema).shape);
  return { shape, merged: true };
}
