// The zod → GraphQL derivation (src/graphql/zod-to-graphql.ts) on its own: a tiny schema is
// derived from made-up zod schemas on a fresh builder, and its printed types show the rules:
// names from `.meta({ id })`, descriptions from `.describe()`, enums with upper-case names,
// optional members nullable (required ones not), arrays as lists, objects (and unions of
// objects) as object types, input objects and arguments, and `errorCode` on results.

import { printType, type GraphQLSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

const Tier = z.enum(['gold', 'silver-plus']).meta({ id: 'ProbeTier', description: 'How much the probe may spend' });
const Balance = z
  .object({ uom: z.string().describe('Unit of measure'), amount: z.number().describe('How much is left') })
  .meta({ id: 'ProbeBalance' });
const Record_ = z
  .object({
    name: z.string().describe('What the probe is called'),
    nickname: z.string().optional().describe('Only when it has one'),
    tier: Tier,
    count: z.number().int(),
    active: z.boolean(),
    balances: z.array(Balance).describe('Each balance'),
  })
  .meta({ id: 'ProbeRecord', description: 'A made-up record' });
const Result = z
  .object({ status: z.string(), message: z.string().describe('What happened') })
  .meta({ id: 'ProbeResult' });
const Either = z.union([z.object({ left: z.string() }), z.object({ right: z.number() })]).meta({ id: 'ProbeEither' });
const Input = z.object({
  name: z.string().describe('The name to find'),
  tiers: z.array(Tier).optional().describe('Any of these tiers'),
  limit: z.number().int().optional(),
});

let schema: GraphQLSchema;
const printed = (name: string) => printType(schema.getType(name)!);

beforeAll(async () => {
  // A fresh builder (and fresh type caches): the gateway's own schema is not touched.
  vi.resetModules();
  const { builder } = await import('../../src/graphql/builder.js');
  const { argumentTypes, inputRef, outputType } = await import('../../src/graphql/zod-to-graphql.js');
  type FieldOptions = Parameters<Parameters<typeof builder.queryField>[1]>[0]['field'];
  builder.queryFields((t) => {
    const field = (options: unknown) => t.field(options as Parameters<FieldOptions>[0]);
    return {
      probe: field({
        type: outputType(Record_, 'Probe'),
        args: Object.fromEntries(
          argumentTypes(Input, 'probe').map((arg) => [
            arg.key,
            t.arg({ type: arg.type, required: arg.required, description: arg.description } as never),
          ]),
        ),
        resolve: () => null,
      }),
      probeResult: field({ type: outputType(Result, 'Unused'), resolve: () => null }),
      probeEither: field({ type: outputType(Either, 'Unused'), nullable: true, resolve: () => null }),
    };
  });
  builder.mutationField('probeChange', (t) =>
    t.field({
      type: 'Boolean',
      args: { input: t.arg({ type: inputRef(Input, 'ProbeChangeInput', 'What to change') as never, required: true }) },
      resolve: () => true,
    }),
  );
  schema = builder.toSchema();
});
// Files that share this worker's modules (vitest.config.ts) must not find the probe's builder.
afterAll(() => vi.resetModules());

describe('zod → GraphQL', () => {
  it('names object types from meta ids, describes them and their fields, and makes optional members nullable', () => {
    // Pothos sorts fields by name.
    expect(printed('ProbeRecord')).toBe(`"""A made-up record"""
type ProbeRecord {
  """active"""
  active: Boolean!

  """Each balance"""
  balances: [ProbeBalance!]!

  """count"""
  count: Int!

  """What the probe is called"""
  name: String!

  """Only when it has one"""
  nickname: String

  """How much the probe may spend"""
  tier: ProbeTier!
}`);
    expect(printed('ProbeBalance')).toContain('amount: Float!');
  });

  it('turns z.enum into an enum with upper-case names carrying the wire value', () => {
    expect(printed('ProbeTier')).toBe(`"""How much the probe may spend"""
enum ProbeTier {
  """gold"""
  GOLD

  """silver-plus"""
  SILVER_PLUS
}`);
    const tier = schema.getType('ProbeTier') as unknown as { getValue(name: string): { value: unknown } };
    expect(tier.getValue('SILVER_PLUS').value).toBe('silver-plus');
  });

  it('gives a result (status and message) the OperationStatus enum, subscriberStatus and errorCode', () => {
    const result = printed('ProbeResult');
    for (const field of [
      'errorCode: String\n',
      'message: String!',
      'status: OperationStatus!',
      'subscriberStatus: String\n',
    ])
      expect(result).toContain(field);
  });

  it('merges a union of objects into one object type whose members are all nullable', () => {
    expect(printed('ProbeEither')).toMatch(/left: String\n[\s\S]*right: Float\n/);
  });

  it('derives arguments and input objects: required unless optional, lists of enums, descriptions', () => {
    const query = printType(schema.getQueryType()!);
    for (const argument of [
      '"""limit"""\n    limit: Int\n',
      '"""The name to find"""\n    name: String!',
      '"""Any of these tiers"""\n    tiers: [ProbeTier!]\n',
    ])
      expect(query).toContain(argument);
    expect(query).toContain('): ProbeRecord\n');
    expect(printed('ProbeChangeInput')).toBe(`"""What to change"""
input ProbeChangeInput {
  """limit"""
  limit: Int

  """The name to find"""
  name: String!

  """Any of these tiers"""
  tiers: [ProbeTier!]
}`);
  });
});
