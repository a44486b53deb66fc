// Regression tests for issue 9's schema findings: one consistent schema (one result status
// enum, one carrier enum, DateTime/JSON scalars in use, no object type named after a root),
// a printed schema.graphql whose roots are unambiguous, and an identity (or a documented
// embedding) for every object type so normalized client caches work.

import { readFileSync } from 'node:fs';
import {
  buildSchema as buildFromSdl,
  getNamedType,
  isEnumType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { EMBEDDED_TYPES } from '../../src/graphql/client-cache-config.js';
import { buildSchema } from '../../src/graphql/schema.js';
import '../../src/graphql/dashboard.js';
import { SCHEMA_FILE } from '../../scripts/print-schema.js';

const schema = buildSchema();
const objects = (): GraphQLObjectType[] =>
  Object.values(schema.getTypeMap()).filter(
    (type): type is GraphQLObjectType => isObjectType(type) && !type.name.startsWith('__'),
  );
const fields = (): [string, GraphQLField<unknown, unknown>][] =>
  objects().flatMap((type) =>
    Object.values(type.getFields()).map((field): [string, GraphQLField<unknown, unknown>] => [
      `${type.name}.${field.name}`,
      field,
    ]),
  );
const typeName = (field: GraphQLField<unknown, unknown>): string => (getNamedType(field.type) as GraphQLNamedType).name;

describe('schema.graphql loaded by other tools', () => {
  it('has exactly the live root types: Query, Mutation, Subscription', () => {
    const loaded = buildFromSdl(readFileSync(SCHEMA_FILE, 'utf8'));
    expect(loaded.getQueryType()?.name).toBe('Query');
    expect(loaded.getMutationType()?.name).toBe('Mutation');
    expect(loaded.getSubscriptionType()?.name).toBe('Subscription');
    expect(Object.keys(loaded.getSubscriptionType()!.getFields())).toEqual(
      Object.keys(schema.getSubscriptionType()!.getFields()),
    );
    expect(Object.keys(loaded.getQueryType()!.getFields())).toEqual(Object.keys(schema.getQueryType()!.getFields()));
  });

  it('names no object type after a root operation type', () => {
    const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()];
    expect(
      objects()
        .filter((type) => !roots.includes(type))
        .map((type) => type.name)
        .filter((name) => ['Query', 'Mutation', 'Subscription'].includes(name)),
    ).toEqual([]);
  });
});

describe('one vocabulary', () => {
  it('types every `status` as an enum, and the result status always as OperationStatus', () => {
    const statuses = fields().filter(([name]) => name.endsWith('.status'));
    expect(statuses.filter(([, field]) => !isEnumType(getNamedType(field.type)))).toEqual([]);
    const resultStatuses = statuses.filter(
      ([name]) =>
        objects()
          .find((type) => type.name === name.split('.')[0])
          ?.getFields().message,
    );
    expect(new Set(resultStatuses.map(([, field]) => typeName(field)))).toEqual(new Set(['OperationStatus']));
  });

  it('types every carrier as the CarrierId enum', () => {
    const carriers = fields().filter(([name]) => /\.carrier$/.test(name));
    expect(carriers.length).toBeGreaterThan(5);
    expect(carriers.filter(([, field]) => typeName(field) !== 'CarrierId').map(([name]) => name)).toEqual([]);
  });

  it('uses DateTime for every timestamp and JSON for JSON values', () => {
    const timestamps = fields().filter(([name]) =>
      /(At|Time|timestamp|validFrom|validTo|lastModified|createDate|expirationDate)$/.test(name),
    );
    expect(timestamps.filter(([, field]) => typeName(field) !== 'DateTime').map(([name]) => name)).toEqual([]);
    // A DateTime is ISO 8601 in UTC: no description names REST's form of the same member.
    const dateTimes = fields().filter(([, field]) => typeName(field) === 'DateTime');
    expect(dateTimes.length).toBeGreaterThan(20);
    expect(
      dateTimes
        .filter(([, field]) => /YYYY-MM-DD HH:MM:SS|with offset/.test(field.description ?? ''))
        .map(([name, field]) => `${name}: ${field.description}`),
    ).toEqual([]);
    expect(fields().find(([name]) => name === 'UsageRecord.effectiveDate')![1].description).toBe(
      'Plan effective date, ISO 8601 in UTC',
    );
    expect(typeName(fields().find(([name]) => name === 'TransactionRecord.response')![1])).toBe('JSON');
    expect(typeName(fields().find(([name]) => name === 'Setting.value')![1])).toBe('JSON');
    // Every scalar declared is used by some field.
    const used = new Set(fields().map(([, field]) => typeName(field)));
    const declared = Object.values(schema.getTypeMap()).filter(
      (type) => isScalarType(type) && !type.name.startsWith('__'),
    );
    expect(
      declared.filter(
        (type) => !used.has(type.name) && !['Boolean', 'String', 'Int', 'Float', 'ID'].includes(type.name),
      ),
    ).toEqual([]);
  });
});

describe('identity for normalized caches', () => {
  it('gives every object type an id, or lists it as embedded in client-cache-config.ts', () => {
    const roots = new Set(['Query', 'Mutation', 'Subscription']);
    const withoutId = objects()
      .filter((type) => !roots.has(type.name) && !type.getFields().id)
      .map((type) => type.name)
      .sort();
    expect(withoutId).toEqual([...EMBEDDED_TYPES].sort());
    for (const name of ['Line', 'User', 'Plan', 'Setting', 'TransactionRecord'])
      expect(schema.getType(name) && (schema.getType(name) as GraphQLObjectType).getFields().id).toBeTruthy();
  });

  it('types every identity as ID! (docs/clients.md), whether derived or the type’s own member', () => {
    const notId = objects()
      .filter((type) => type.getFields().id && String(type.getFields().id!.type) !== 'ID!')
      .map((type) => `${type.name}.id: ${String(type.getFields().id!.type)}`);
    expect(notId).toEqual([]);
  });
});
