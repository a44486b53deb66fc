// A REST body's snake_case keys in camelCase, where the operation's input schema reads them and
// nowhere else. Converting the whole parsed body copied every value in it: a flat megabyte of
// 249,000 empty objects under any key (a string field, an unknown one, a list of at most 100
// activations) cost ~60 ms of CPU more than parsing it (~15 ms), in copies and their garbage
// collection, before validation refused it with one issue (docs/performance.md, "Pathological
// REST bodies"). Here each value is walked only as far as validation will read it, so the work
// is bounded by the schema, not by the body: an unknown key's value is kept as it is
// (validation drops it), a value where the schema wants a string, number, boolean or enum is
// kept as it is (refused at once if it is an object or array), and a list longer than its
// schema allows is kept as it is (zod refuses an oversized array by its size checks before
// reading any item). What validation answers is the same as with the whole body converted.

import type { z } from 'zod';
import { convertKeys, toCamel } from '../lib/case.js';
import { def } from '../lib/zod-introspect.js';

/** Schema types whose value zod takes or refuses whole, never reading inside an object or array. */
const SCALARS = new Set(['string', 'number', 'boolean', 'bigint', 'enum', 'literal', 'null', 'undefined', 'date']);

/** Wrappers that validate their inner schema's value as it is given. */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'nonoptional', 'readonly', 'catch']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The most items an array schema's leading length checks allow (Infinity when none): zod
 * refuses a longer array before parsing any item (`capSize` in zod's core), under the same
 * condition, so none of its items is ever read.
 */
function itemCap(checks: readonly unknown[] | undefined): number {
  let cap = Infinity;
  for (const check of checks ?? []) {
    const d = (check as { _zod: { def: { check: string; maximum?: number; length?: number } } })._zod.def;
    if (!/_(length|size)$|_equals$/.test(d.check)) break;
    const max = d.maximum ?? d.length;
    if (max !== undefined && max >= 0) cap = Math.min(cap, max);
  }
  return cap;
}

/** `value` (parsed JSON) with the keys `schema` reads in camelCase; the rest shared, not copied. */
export function camelCaseFor(schema: z.ZodType, value: unknown): unknown {
  const d = def(schema);
  if (WRAPPERS.has(d.type)) return camelCaseFor(d.innerType as z.ZodType, value);
  if (d.type === 'pipe') return camelCaseFor(d.in as z.ZodType, value);
  if (SCALARS.has(d.type)) return value;
  if (d.type === 'object') {
    if (!isPlainObject(value)) return value;
    const shape = d.shape as Record<string, z.ZodType>;
    const result: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const name = toCamel(key);
      const member = value[key];
      // An unknown member is dropped by validation: its name as before, its value unread.
      result[name] = Object.hasOwn(shape, name) ? camelCaseFor(shape[name]!, member) : member;
    }
    return result;
  }
  if (d.type === 'array') {
    if (!Array.isArray(value) || value.length > itemCap(d.checks)) return value;
    return value.map((item) => camelCaseFor(d.element as z.ZodType, item));
  }
  // Any other schema (a union, a record, unknown…) may read anywhere: the whole value converted.
  return convertKeys(value, toCamel);
}
