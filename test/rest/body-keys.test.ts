// A REST body's keys are put in camelCase only where the input schema reads them
// (src/rest/body-keys.ts): a value validation never reads inside (an unknown member, a value
// where a string, number, boolean or enum belongs, a list longer than its schema allows) is
// handed on as it is, the same object, never walked or copied, so the work is bounded by the
// schema and not by the body. And what validation answers is what it answered with the whole
// body converted, for every REST operation, over bodies of every shape.

import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { convertKeys, toCamel, toSnake } from '../../src/lib/case.js';
import { def, objectShape, unwrap } from '../../src/lib/zod-introspect.js';
import { activateSims, MAX_BULK_ACTIVATIONS } from '../../src/operations/activation/activate-sims.js';
import { operations } from '../../src/operations/index.js';
import { validateInput } from '../../src/pipeline/validate.js';
import { camelCaseFor } from '../../src/rest/body-keys.js';

const restOperations = operations.filter((operation) => operation.rest);
const operation = (name: string) => restOperations.find((candidate) => candidate.name === name)!;
const flood = () => Array.from({ length: 10_000 }, () => ({ plan_id: 'X', zip_code: '30301' }));

describe('values validation never reads inside are handed on as they are', () => {
  it('a list longer than its schema allows, its items unread', () => {
    const activations = flood();
    const converted = camelCaseFor(activateSims.input, { activations, transaction_id: 'T1' }) as Record<
      string,
      unknown
    >;
    expect(converted.activations).toBe(activations);
    expect(activations[0]).toEqual({ plan_id: 'X', zip_code: '30301' });
    expect(converted.transactionId).toBe('T1');
  });

  it('a list within its schema, each item with its keys in camelCase (the unknown ones too, their values unread)', () => {
    const inner = { a_b: 1 };
    const items = Array.from({ length: MAX_BULK_ACTIVATIONS }, () => ({
      plan_id: 'X',
      is_esim: 'Y',
      extra_key: inner,
    }));
    const converted = camelCaseFor(activateSims.input, { activations: items }) as { activations: unknown[] };
    expect(converted.activations).toHaveLength(MAX_BULK_ACTIVATIONS);
    expect(converted.activations[0]).toEqual({ planId: 'X', isEsim: 'Y', extraKey: { a_b: 1 } });
    expect((converted.activations[0] as { extraKey: unknown }).extraKey).toBe(inner);
  });

  it('a value where a string, an enum, a number or a boolean belongs, and an unknown member', () => {
    const [sim, service, amount, chargeable, unknown] = [flood(), flood(), flood(), flood(), flood()];
    const activation = camelCaseFor(operation('activateSim').input, { sim, some_field: unknown }) as Record<
      string,
      unknown
    >;
    expect(activation.sim).toBe(sim);
    expect(activation.someField).toBe(unknown);
    const suspend = camelCaseFor(operation('suspendLine').input, {
      service,
      hotline_chargeable: chargeable,
    }) as Record<string, unknown>;
    expect(suspend.service).toBe(service);
    expect(suspend.hotlineChargeable).toBe(chargeable);
    const adjust = camelCaseFor(operation('adjustBalance').input, { amount }) as Record<string, unknown>;
    expect(adjust.amount).toBe(amount);
  });

  it('a body that is not an object where one is expected', () => {
    const body = flood();
    expect(camelCaseFor(activateSims.input, body)).toBe(body);
  });
});

// --- The same answers as with the whole body converted.

/** A value of each kind JSON has, snake_case keys inside the objects. */
const KINDS: unknown[] = ['x', '', 7, -1.5, true, null, [], [{}], ['x'], { a_b: 1 }, [{ c_d: { e_f: [1] } }]];

/** An item of the list `schema` (when it is one), every member of its object given as `value`. */
function sampleItem(schema: z.ZodType, value: unknown): unknown {
  const inner = unwrap(schema).schema;
  if (def(inner).type !== 'array') return undefined;
  const element = unwrap(def(inner).element as z.ZodType).schema;
  if (def(element).type !== 'object') return value;
  return Object.fromEntries(Object.keys(objectShape(element).shape).map((key) => [toSnake(key), value]));
}

/** Bodies of every shape for an operation's input: each member of each kind, lists of items, unknown members. */
function sampleBodies(input: z.ZodType): Record<string, unknown>[] {
  const { shape } = objectShape(input);
  const names = Object.keys(shape);
  const bodies: Record<string, unknown>[] = [{}, { unknown_member: { a_b: [{ c_d: 1 }] } }];
  for (const kind of KINDS) bodies.push(Object.fromEntries(names.map((name) => [toSnake(name), kind])));
  for (const name of names) {
    for (const kind of KINDS) {
      const item = sampleItem(shape[name]!, kind);
      if (item === undefined) continue;
      for (const count of [1, 2, 101, 1001]) bodies.push({ [toSnake(name)]: Array(count).fill(item), extra_one: kind });
    }
  }
  // Both spellings of one member: the later one wins, as before.
  for (const name of names.filter((key) => toSnake(key) !== key)) {
    bodies.push({ [toSnake(name)]: 'snake', [name]: 'camel' }, { [name]: 'camel', [toSnake(name)]: 'snake' });
  }
  return bodies;
}

/** What validation answers: the value, or the issues of the 422. */
function answer(schema: z.ZodType, input: unknown): unknown {
  try {
    return { value: validateInput(schema, input, { sources: new Map() }) };
  } catch (error) {
    return { issues: (error as { issues?: unknown }).issues ?? String(error) };
  }
}

describe('validation answers as it did with the whole body converted', () => {
  it.each(restOperations.map((each) => [each.name, each] as const))('%s', (_name, each) => {
    for (const body of sampleBodies(each.input)) {
      expect(answer(each.input, camelCaseFor(each.input, body)), JSON.stringify(body).slice(0, 200)).toEqual(
        answer(each.input, convertKeys(body, toCamel)),
      );
    }
  });
});
