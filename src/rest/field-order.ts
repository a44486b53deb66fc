// Writes REST bodies as the spec has them: members in the order the operation's output schema
// declares them (whatever order a handler built them in), keys in snake_case, `undefined`
// members absent. What to do at each level is worked out once per schema and kept, so a request
// pays only for walking its own value.

import type { z } from 'zod';
import { convertKeys, toSnake } from '../lib/case.js';
import { def, unwrap } from '../lib/zod-introspect.js';

type Plan =
  | { kind: 'object'; members: { key: string; snake: string; plan: Plan }[]; known: Set<string> }
  | { kind: 'array'; item: Plan }
  /** No declared members: keys are converted, order kept. */
  | { kind: 'free' };

const FREE: Plan = { kind: 'free' };
const plans = new WeakMap<z.ZodType, Plan>();

/** `value`, ordered by `schema` and with snake_case keys. */
export function restBody(schema: z.ZodType, value: unknown): unknown {
  return write(planOf(schema), value);
}

function write(plan: Plan, value: unknown): unknown {
  if (Array.isArray(value))
    return plan.kind === 'array' ? value.map((item) => write(plan.item, item)) : convertKeys(value, toSnake);
  if (typeof value !== 'object' || value === null || value instanceof Date) return value;
  if (plan.kind !== 'object') return convertKeys(value, toSnake);
  const members = value as Record<string, unknown>;
  const written: Record<string, unknown> = {};
  for (const { key, snake, plan: memberPlan } of plan.members) {
    const member = members[key];
    if (member !== undefined) written[snake] = write(memberPlan, member);
  }
  for (const key in members) {
    const member = members[key];
    if (!plan.known.has(key) && member !== undefined) written[toSnake(key)] = convertKeys(member, toSnake);
  }
  return written;
}

function planOf(schema: z.ZodType): Plan {
  const known = plans.get(schema);
  if (known) return known;
  const inner = unwrap(schema).schema;
  const d = def(inner);
  if (d.type === 'array') {
    const plan: Plan = { kind: 'array', item: FREE };
    plans.set(schema, plan);
    plan.item = planOf(d.element as z.ZodType);
    return plan;
  }
  const shape = declaredMembers(inner);
  if (!shape) {
    plans.set(schema, FREE);
    return FREE;
  }
  const plan: Plan = { kind: 'object', members: [], known: new Set(Object.keys(shape)) };
  // Stored before its members are planned: a schema that contains itself ends here.
  plans.set(schema, plan);
  for (const [key, member] of Object.entries(shape))
    plan.members.push({ key, snake: toSnake(key), plan: planOf(member) });
  return plan;
}

/** An object's members, or the union of its options' members; undefined for anything else. */
function declaredMembers(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  const d = def(schema);
  if (d.type === 'object') return d.shape as Record<string, z.ZodType>;
  if (d.type !== 'union') return undefined;
  const merged: Record<string, z.ZodType> = {};
  for (const option of d.options as z.ZodType[]) {
    const members = declaredMembers(unwrap(option).schema);
    if (!members) return undefined;
    Object.assign(merged, members);
  }
  return merged;
}
