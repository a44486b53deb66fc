// The direct lane's executor (src/graphql/compiled-execution.ts) against graphql-js on a small
// schema of its own: each operation compiled once, answers equal to graphql-js's (errors first,
// variables refused in graphql-js's words, masked errors keeping their locations), and a
// document graphql-jit cannot compile still answered. test/graphql/direct-lane.test.ts checks
// the same through the whole gateway, byte for byte against Yoga.

import { buildSchema, execute, parse, type ExecutionResult } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createCompiledExecution, expandedFieldCount } from '../../src/graphql/compiled-execution.js';
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
  type Nested { items: [String!]! child: Nested }
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
    const first = document.compiled?.get('A')?.query;
    expect(first).toBeTruthy();
    expect(document.compiled?.get('B')?.query).toBeTruthy();
    expect(await executor.execute(document, 'A', rootValue, {})).toEqual({ data: { greeting: 'hello a' } });
    expect(document.compiled?.get('A')?.query).toBe(first);
    expect(executor.compiledCount).toBe(2);
  });

  it('answers through graphql-js what graphql-jit cannot compile', async () => {
    // No operation of that name: graphql-jit refuses to compile; graphql-js words the refusal.
    const document = prepared('query A { slow }');
    const result = await viaLane(document, {}, 'Missing');
    expect(document.compiled?.get('Missing')?.query).toBeNull();
    expect(json(result)).toBe(json(await viaGraphQLJs('query A { slow }', {}, 'Missing')));
  });

  it('leaves an operation of more fields than the bound, fragments expanded, to graphql-js', async () => {
    const text = '{ ...F ...F2 } fragment F on Query { slow fails } fragment F2 on Query { nested { items } }';
    const executor = createCompiledExecution(schema, { maxFields: 3, maxCompiled: 10, maxCompilesPerSecond: 10 });
    const document = prepared(text);
    const result = await executor.execute(document, undefined, rootValue, {});
    expect(document.compiled?.get('')?.query).toBeNull();
    expect(executor.compiledCount).toBe(0);
    expect(json(result)).toBe(json(await viaGraphQLJs(text)));
  });

  it('counts fields with fragments expanded, in time linear in the document', () => {
    // Forty fragments, each spreading the next under two fields: 2^40 fields once expanded.
    const levels = 40;
    const fragments = Array.from(
      { length: levels },
      (_, level) =>
        `fragment L${level} on Nested { ${level + 1 < levels ? `a: child { ...L${level + 1} } b: child { ...L${level + 1} }` : 'items'} }`,
    );
    const document = parse(`{ nested { ...L0 } } ${fragments.join(' ')}`);
    expect(expandedFieldCount(document, undefined, 200)).toBeGreaterThan(200);
    expect(expandedFieldCount(parse('{ nested { items } slow }'), undefined, 200)).toBe(3);
    expect(expandedFieldCount(parse('query A { slow }'), 'B', 200)).toBe(Infinity);
  });

  it('compiles at most so many operations a second; the others run on graphql-js meanwhile', async () => {
    let clock = 1_000_000;
    const executor = createCompiledExecution(
      schema,
      { maxFields: 200, maxCompiled: 10, maxCompilesPerSecond: 2 },
      () => clock,
    );
    const documents = ['{ slow }', '{ greeting(name: "x") }', '{ nested { items } }'].map(prepared);
    for (const document of documents) await executor.execute(document, undefined, rootValue, {});
    expect(documents.map((document) => Boolean(document.compiled?.get('')?.query))).toEqual([true, true, false]);
    expect(await executor.execute(documents[2]!, undefined, rootValue, {})).toEqual(
      await viaGraphQLJs('{ nested { items } }'),
    );
    clock += 1000;
    await executor.execute(documents[2]!, undefined, rootValue, {});
    expect(documents[2]!.compiled?.get('')?.query).toBeTruthy();
  });

  it('keeps at most so many compiled operations, dropping the least recently executed', async () => {
    const executor = createCompiledExecution(schema, { maxFields: 200, maxCompiled: 2, maxCompilesPerSecond: 100 });
    const [a, b, c] = ['{ slow }', '{ greeting(name: "x") }', '{ required }'].map(prepared);
    await executor.execute(a!, undefined, rootValue, {});
    await executor.execute(b!, undefined, rootValue, {});
    await executor.execute(a!, undefined, rootValue, {}); // a is now the most recent
    await executor.execute(c!, undefined, rootValue, {});
    expect(executor.compiledCount).toBe(2);
    expect(b!.compiled?.get('')?.query).toBeUndefined();
    expect(a!.compiled?.get('')?.query).toBeTruthy();
    expect(await executor.execute(b!, undefined, rootValue, {})).toEqual({ data: { greeting: 'hello x' } });
    expect(b!.compiled?.get('')?.query).toBeTruthy();
    expect(executor.compiledCount).toBe(2);
  });

  it('keeps a failing field’s location when the error is masked', async () => {
    const result = await viaLane(prepared('{\n  fails\n}'));
    const masked = maskUnexpected(result.errors![0]) as { locations?: unknown; message: string };
    expect(masked.message).not.toContain('/var/secret');
    expect(masked.locations).toEqual([{ line: 2, column: 3 }]);
  });
});
