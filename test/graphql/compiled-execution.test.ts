// The direct lane's executor (src/graphql/compiled-execution.ts) against graphql-js on a small
// schema of its own: each operation compiled once, answers equal to graphql-js's (errors first,
// variables refused in graphql-js's words, masked errors keeping their locations), and a
// document graphql-jit cannot compile still answered. test/graphql/direct-lane.test.ts checks
// the same through the whole gateway, byte for byte against Yoga.

import { buildSchema, execute, parse, type ExecutionResult } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createCompiledExecution } from '../../src/graphql/compiled-execution.js';
import { maskUnexpected } from '../../src/graphql/errors.js';
import type { PreparedDocument } from '../../src/graphql/prepared-documents.js';

const schema = buildSchema(`
  type Query {
    greeting(name: String!, times: Int = 1): String
    fails: String
    required: String!
    nested: Nested
    slow: String
  }
  type Nested { items: [String!]! }
`);
const rootValue = {
  greeting: ({ name, times }: { name: string; times: number }) => `hello ${name}`.repeat(times),
  fails: () => {
    throw new Error('store lost at /var/secret');
  },
  required: () => null,
  nested: () => ({ items: ['a', null, 'c'] }),
  slow: async () => 'late',
};

const prepared = (text: string): PreparedDocument => ({ document: parse(text) });

/** What the lane answers: the compiled executor, with the resolvers' functions as the context. */
async function viaLane(document: PreparedDocument, variables: Record<string, unknown> = {}, operationName?: string) {
  return createCompiledExecution(schema).execute(document, operationName, rootValue, variables);
}

async function viaGraphQLJs(text: string, variables: Record<string, unknown> = {}, operationName?: string) {
  return execute({ schema, document: parse(text), contextValue: rootValue, variableValues: variables, operationName });
}

// buildSchema installs no resolvers: these read the context, as the gateway's do (the lane
// passes the request's context and no root value).
for (const name of Object.keys(rootValue)) {
  const field = schema.getQueryType()!.getFields()[name]!;
  field.resolve = (_root, args, context: typeof rootValue) =>
    (context[name as keyof typeof rootValue] as (args: unknown) => unknown)(args);
}

const json = (result: ExecutionResult) => JSON.stringify(result);

describe('the direct lane’s compiled execution', () => {
  it.each([
    ['a field with an argument and a default', 'query G($n: String!) { greeting(name: $n) }', { n: 'ann' }],
    ['an asynchronous resolver', '{ slow greeting(name: "bob", times: 2) }', {}],
    ['a resolver that throws, beside one that answers', '{ greeting(name: "c") fails }', {}],
    ['a non-null field resolved to null: the error and data null', '{ required greeting(name: "d") }', {}],
    ['a null inside a non-null list: the parent nulled', '{ nested { items } slow }', {}],
    ['a variable of the wrong type: graphql-js’s words', 'query G($n: String!) { greeting(name: $n) }', { n: 5 }],
    ['a missing variable', 'query G($n: String!) { greeting(name: $n) }', {}],
    [
      'a variable that is not an Int',
      'query G($n: String!, $t: Int) { greeting(name: $n, times: $t) }',
      { n: 'x', t: 'many' },
    ],
  ])('%s: the same answer as graphql-js', async (_name, text, variables) => {
    expect(json(await viaLane(prepared(text), variables))).toBe(json(await viaGraphQLJs(text, variables)));
  });

  it('lists errors before data, as graphql-js does', async () => {
    const result = await viaLane(prepared('{ greeting(name: "e") fails }'));
    expect(Object.keys(result)).toEqual(['errors', 'data']);
  });

  it('compiles each operation of a document once, and reuses it', async () => {
    const document = prepared('query A { greeting(name: "a") } query B { slow }');
    const executor = createCompiledExecution(schema);
    await executor.execute(document, 'A', rootValue, {});
    await executor.execute(document, 'B', rootValue, {});
    const first = document.compiled?.get('A');
    expect(first).toBeTruthy();
    expect(document.compiled?.get('B')).toBeTruthy();
    expect(await executor.execute(document, 'A', rootValue, {})).toEqual({ data: { greeting: 'hello a' } });
    expect(document.compiled?.get('A')).toBe(first);
  });

  it('answers through graphql-js what graphql-jit cannot compile', async () => {
    // No operation of that name: graphql-jit refuses to compile; graphql-js words the refusal.
    const document = prepared('query A { slow }');
    const result = await viaLane(document, {}, 'Missing');
    expect(document.compiled?.get('Missing')).toBeNull();
    expect(json(result)).toBe(json(await viaGraphQLJs('query A { slow }', {}, 'Missing')));
  });

  it('keeps a failing field’s location when the error is masked', async () => {
    const result = await viaLane(prepared('{\n  fails\n}'));
    const masked = maskUnexpected(result.errors![0]) as { locations?: unknown; message: string };
    expect(masked.message).not.toContain('/var/secret');
    expect(masked.locations).toEqual([{ line: 2, column: 3 }]);
  });
});
