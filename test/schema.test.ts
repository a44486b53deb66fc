// schema.graphql is printed from the Pothos schema and committed: it must be current, and
// every type, field, argument and enum value must explain itself in GraphiQL's docs.

import { readFileSync } from 'node:fs';
import {
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isScalarType,
  type GraphQLNamedType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSchema } from '../src/graphql/schema.js';
import { printedSchema, SCHEMA_FILE } from '../scripts/print-schema.js';

const BUILT_IN = new Set(['String', 'Boolean', 'Int', 'Float', 'ID']);

function ownTypes(): GraphQLNamedType[] {
  return Object.values(buildSchema().getTypeMap()).filter(
    (type) => !type.name.startsWith('__') && !BUILT_IN.has(type.name),
  );
}

describe('schema.graphql', () => {
  it('is the printed Pothos schema (run `npm run schema:print` after changing operations)', () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(printedSchema());
  });

  it('describes every type, field, argument and enum value', () => {
    const missing: string[] = [];
    for (const type of ownTypes()) {
      if (!type.description?.trim()) missing.push(type.name);
      if (isObjectType(type) || isInterfaceType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (!field.description?.trim()) missing.push(`${type.name}.${field.name}`);
          for (const arg of field.args)
            if (!arg.description?.trim()) missing.push(`${type.name}.${field.name}(${arg.name})`);
        }
      } else if (isInputObjectType(type)) {
        for (const field of Object.values(type.getFields()))
          if (!field.description?.trim()) missing.push(`${type.name}.${field.name}`);
      } else if (isEnumType(type)) {
        for (const value of type.getValues())
          if (!value.description?.trim()) missing.push(`${type.name}.${value.name}`);
      } else if (!isScalarType(type)) {
        missing.push(`${type.name} (unexpected kind)`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('offers queries as Query fields and mutations as Mutation fields', () => {
    const schema = buildSchema();
    expect(Object.keys(schema.getQueryType()!.getFields())).toContain('usage');
    expect(Object.keys(schema.getMutationType()!.getFields())).toContain('suspendLine');
  });
});
