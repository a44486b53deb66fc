// Derives Pothos input and object types from the operation table's zod schemas, so that
// each field is described once (name, type, requiredness, description) for REST validation,
// GraphQL types and GraphiQL docs alike. Names come from `.meta({ id })`; descriptions from
// `.describe()`. Closed sets (z.enum) become GraphQL enums whose names are upper case.

import { z } from 'zod';
import { toPascal } from '../lib/case.js';
import { def, describe, objectShape, typeDescription, unwrap, zodName, type Shape } from '../lib/zod-introspect.js';
import { valueOf } from '../pipeline/on-demand.js';
import { builder } from './builder.js';
import {
  conventionFor,
  IDENTITY_FIELDS,
  instantDescription,
  isoInstant,
  jsonValue,
  RESERVED_TYPE_NAMES,
  resultStatus,
  subscriberStatus,
  type Convention,
} from './graphql-conventions.js';

type GraphQLTypeParam = unknown;

const enums = new Map<string, unknown>();
const objects = new Map<string, unknown>();
const inputs = new Map<string, unknown>();

function enumRef(schema: z.ZodType, fallbackName: string): unknown {
  const name = zodName(schema) ?? fallbackName;
  const existing = enums.get(name);
  if (existing) return existing;
  const values = Object.values(def(schema).entries as Record<string, string | number>).map(String);
  // `.meta({ graphqlNames })` names values that are not valid GraphQL names (e.g. carrier "321").
  const names = (z.globalRegistry.get(schema)?.graphqlNames ?? {}) as Record<string, string>;
  const ref = builder.enumType(name, {
    description: typeDescription(schema) ?? `One of: ${values.join(', ')}`,
    values: Object.fromEntries(
      values.map((value) => [
        names[value] ?? value.toUpperCase().replace(/[^A-Z0-9_]/g, '_'),
        { value, description: value },
      ]),
    ),
  });
  enums.set(name, ref);
  return ref;
}

function scalarFor(schema: z.ZodType): string | undefined {
  const d = def(schema);
  if (d.type === 'string' || d.type === 'literal') return 'String';
  if (d.type === 'boolean') return 'Boolean';
  if (d.type === 'date') return 'DateTime';
  // A record's keys are data, not a shape GraphQL could name (an event's payload).
  if (d.type === 'record') return 'JSON';
  if (d.type === 'number') return (schema as unknown as { isInt?: boolean }).isInt ? 'Int' : 'Float';
  return undefined;
}

/** The GraphQL output type of any zod schema: scalars, enums, lists and objects. */
export function outputType(schema: z.ZodType, fallbackName: string): GraphQLTypeParam {
  const d = def(schema);
  if (d.type === 'array') return [outputType(unwrap(d.element as z.ZodType).schema, fallbackName)];
  if (d.type === 'enum') return enumRef(schema, fallbackName);
  const scalar = scalarFor(schema);
  if (scalar) return scalar;
  if (d.type === 'object' || d.type === 'union') return objectRef(schema, fallbackName);
  throw new Error(`No GraphQL output type for zod ${d.type} (${fallbackName})`);
}

/**
 * Makes a hand-written object type the one a zod schema with the same id derives to, so that a
 * table row can answer a type the GraphQL-only fields also answer (LineEvent: the subscription's
 * events and a webhook delivery's). Called when the hand-written type is defined.
 */
export function shareObjectType(name: string, ref: unknown): void {
  objects.set(name, ref);
}

/** A GraphQL object type for a zod object (or union of objects); fields read the camelCase members. */
export function objectRef(schema: z.ZodType, fallbackName: string): unknown {
  const zodTypeName = zodName(schema) ?? fallbackName;
  const name = RESERVED_TYPE_NAMES[zodTypeName] ?? zodTypeName;
  const existing = objects.get(name);
  if (existing) return existing;
  const { shape, merged } = objectShape(schema);
  const ref = builder.objectRef<Record<string, unknown>>(name);
  objects.set(name, ref);
  const keys = Object.keys(shape);
  ref.implement({
    description: typeDescription(schema) ?? name,
    fields: (t) => {
      type FieldOptions = Parameters<typeof t.field>[0];
      const fields: Record<string, ReturnType<typeof t.field>> = {};
      const identity = IDENTITY_FIELDS[name];
      if (identity && !('id' in shape)) {
        fields.id = t.id({
          nullable: false,
          description: `Identity of the ${name} for client caches: its \`${identity}\``,
          resolve: (parent) => String(parent[identity]),
        });
      }
      for (const [key, member] of Object.entries(shape)) {
        const field = unwrap(member);
        const nullable = field.optional || merged ? true : { list: false, items: false };
        const description = field.description ?? key;
        const convention = conventionFor(key, field.schema, field.description, keys);
        const derived = conventionFields(key, convention, {
          nullable,
          description,
          type: () => outputType(field.schema, name + toPascal(key)),
        });
        // Types are derived at run time from zod; Pothos cannot check them statically here.
        for (const [fieldName, options] of Object.entries(derived))
          fields[fieldName] = t.field(options as unknown as FieldOptions);
      }
      // A result that can be a carrier failure offers its code on its own (GraphQL only: the
      // REST body keeps the spec's shape, where the code ends `message`).
      if ('status' in shape && 'message' in shape && !('errorCode' in shape)) {
        fields.errorCode = t.string({
          nullable: true,
          description:
            'On failure: the carrier error code that ends `message`, e.g. 935 or GENS-0033; null when `message` ends with none',
          resolve: (parent) => errorCodeOf(parent),
        });
      }
      return fields;
    },
  });
  return ref;
}

interface FieldBase {
  nullable: unknown;
  description: string;
  type: () => unknown;
}

/** The GraphQL field (or fields) of one zod member under its convention (graphql-conventions.ts). */
function conventionFields(key: string, convention: Convention | undefined, base: FieldBase): Record<string, unknown> {
  const read = (parent: Record<string, unknown>) => valueOf(parent[key]);
  switch (convention?.kind) {
    case 'carrier':
      return {
        [key]: {
          type: enumRef(convention.schema, 'CarrierId'),
          nullable: base.nullable,
          description: base.description,
          resolve: (p: Record<string, unknown>) => read(p) ?? null,
        },
      };
    case 'status':
      return {
        status: {
          type: enumRef(convention.schema, 'OperationStatus'),
          nullable: base.nullable,
          description: 'SUCCESS, or FAILURE (the carrier refused)',
          resolve: (p: Record<string, unknown>) => resultStatus(read(p)),
        },
        subscriberStatus: {
          type: 'String',
          nullable: true,
          description: "The subscriber's status (e.g. ACTIVE, SUSPENDED); null on failure",
          resolve: (p: Record<string, unknown>) => subscriberStatus(read(p)),
        },
      };
    case 'subscriber-status':
      return {
        subscriberStatus: {
          type: 'String',
          nullable: base.nullable,
          description: base.description,
          resolve: (p: Record<string, unknown>) => read(p) ?? null,
        },
      };
    case 'scalar': {
      const convert = { DateTime: isoInstant, JSON: jsonValue, ID: String }[convention.scalar];
      return {
        [key]: {
          type: convention.scalar,
          nullable: base.nullable,
          description: convention.scalar === 'DateTime' ? instantDescription(base.description) : base.description,
          resolve: (p: Record<string, unknown>) =>
            read(p) === null || read(p) === undefined ? null : convert(read(p)),
        },
      };
    }
    default:
      return {
        [key]: {
          type: base.type(),
          nullable: base.nullable,
          description: base.description,
          resolve: (p: Record<string, unknown>) => read(p) ?? null,
        },
      };
  }
}

/** The code in parentheses at the end of a failure message. */
function errorCodeOf(result: Record<string, unknown>): string | null {
  if (result.status !== 'failure' || typeof result.message !== 'string') return null;
  return /\(([A-Z0-9-]+)\)$/.exec(result.message)?.[1] ?? null;
}

function inputTypeOf(schema: z.ZodType, fallbackName: string): GraphQLTypeParam {
  const d = def(schema);
  if (d.type === 'array') return [inputTypeOf(unwrap(d.element as z.ZodType).schema, fallbackName)];
  if (d.type === 'enum') return enumRef(schema, fallbackName);
  const scalar = scalarFor(schema);
  if (scalar) return scalar;
  // A named schema is one input type wherever it is used (a bulk activation's items).
  if (d.type === 'object') return inputRef(schema, inputName(schema) ?? fallbackName);
  throw new Error(`No GraphQL input type for zod ${d.type} (${fallbackName})`);
}

/** `.meta({ graphqlInput })`: the input type name a nested input object keeps in every operation. */
function inputName(schema: z.ZodType): string | undefined {
  const name = (z.globalRegistry.get(schema) as { graphqlInput?: unknown } | undefined)?.graphqlInput;
  return typeof name === 'string' ? name : undefined;
}

/** A GraphQL input object for a zod object; members the schema makes optional are optional. */
export function inputRef(schema: z.ZodType, name: string, description?: string): unknown {
  const existing = inputs.get(name);
  if (existing) return existing;
  const shape = def(schema).shape as Shape;
  const ref = builder.inputType(name, {
    description: description ?? describe(schema) ?? name,
    fields: (t) =>
      Object.fromEntries(
        Object.entries(shape).map(([key, member]) => {
          const field = unwrap(member);
          const options = {
            type: inputTypeOf(field.schema, name.replace(/Input$/, '') + toPascal(key) + 'Input'),
            required: !field.optional,
            description: field.description ?? key,
          };
          return [key, t.field(options as unknown as Parameters<typeof t.field>[0])];
        }),
      ),
  });
  inputs.set(name, ref);
  return ref;
}

/** Top-level fields of an object schema as GraphQL arguments (for queries with a few scalars). */
export function argumentTypes(
  schema: z.ZodType,
  operationName: string,
): { key: string; type: GraphQLTypeParam; required: boolean; description: string }[] {
  const shape = def(schema).shape as Shape;
  return Object.entries(shape).map(([key, member]) => {
    const field = unwrap(member);
    return {
      key,
      type: inputTypeOf(field.schema, toPascal(operationName) + toPascal(key)),
      required: !field.optional,
      description: field.description ?? key,
    };
  });
}
