// zod → JSON Schema (2020-12, as OpenAPI 3.1 uses) for the REST document: snake_case field
// names as REST speaks them, named schemas (`.meta({ id })`) hoisted into
// components.schemas, and the sandbox's test values as property examples.

import { z } from 'zod';
import { convertKeys, toSnake } from '../lib/case.js';
import { propertyExample } from './openapi-examples.js';

export type JsonSchema = Record<string, unknown>;

/** Named schemas shared by every operation, keyed by their `.meta({ id })`. */
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};

  /**
   * The JSON Schema of a zod schema as REST reads (`io: 'input'`) or writes it (`'output'`),
   * its named parts moved into components. The same id converted both ways is kept once when
   * identical, else the input variant is named `<id>Input`.
   */
  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const converted = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
      // Dates travel as ISO 8601 strings.
      override: (context) => {
        if (context.zodSchema._zod.def.type === 'date')
          Object.assign(context.jsonSchema, { type: 'string', format: 'date-time' });
      },
    }) as JsonSchema;
    const { $defs, $schema: _dialect, ...root } = converted as JsonSchema & { $defs?: Record<string, JsonSchema> };
    const definitions = Object.entries($defs ?? {}).map(([id, definition]) => [id, snakeSchema(definition)] as const);
    const same = new Map<string, string>();
    const renamed = new Map(
      definitions.map(([id, definition]) => {
        const existing = this.schemas[id];
        return [
          id,
          existing === undefined || JSON.stringify(existing) === JSON.stringify(rewriteRefs(definition, same))
            ? id
            : `${id}Input`,
        ];
      }),
    );
    for (const [id, definition] of definitions)
      this.schemas[renamed.get(id)!] = rewriteRefs(definition, renamed) as JsonSchema;
    return rewriteRefs(snakeSchema(root), renamed) as JsonSchema;
  }
}

function rewriteRefs(node: unknown, renamed: Map<string, string>): unknown {
  if (Array.isArray(node)) return node.map((item) => rewriteRefs(item, renamed));
  if (typeof node !== 'object' || node === null) return node;
  const result: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')) {
      const id = value.slice('#/$defs/'.length);
      result[key] = `#/components/schemas/${renamed.get(id) ?? id}`;
    } else result[key] = rewriteRefs(value, renamed);
  }
  return result;
}

/** Keys whose values are data, not schemas: copied as they are. */
const DATA_KEYS = new Set(['enum', 'const', 'examples', 'example']);

/** Renames object properties (and `required`) to snake_case throughout, adding examples by field name. */
export function snakeSchema(node: JsonSchema): JsonSchema {
  const result: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && typeof value === 'object' && value !== null) {
      const properties: JsonSchema = {};
      for (const [name, property] of Object.entries(value as Record<string, JsonSchema>)) {
        const converted = snakeSchema(property);
        const example = propertyExample(name);
        if (example !== undefined && converted.examples === undefined) converted.examples = [example];
        properties[toSnake(name)] = converted;
      }
      result.properties = properties;
    } else if (key === 'required' && Array.isArray(value)) {
      result.required = value.map((name) => toSnake(String(name)));
    } else if (key === 'default') {
      result.default = convertKeys(value, toSnake);
    } else if (DATA_KEYS.has(key)) {
      result[key] = value;
    } else if (Array.isArray(value)) {
      result[key] = value.map((item) =>
        typeof item === 'object' && item !== null ? snakeSchema(item as JsonSchema) : item,
      );
    } else if (typeof value === 'object' && value !== null) {
      result[key] = snakeSchema(value as JsonSchema);
    } else result[key] = value;
  }
  return result;
}

/** A property's schema by its camelCase input name, from a converted (snake_case) object schema. */
export function propertyOf(objectSchema: JsonSchema, camelName: string): JsonSchema | undefined {
  return (objectSchema.properties as Record<string, JsonSchema> | undefined)?.[toSnake(camelName)];
}

export const isRequired = (objectSchema: JsonSchema, camelName: string): boolean =>
  Array.isArray(objectSchema.required) && objectSchema.required.includes(toSnake(camelName));
