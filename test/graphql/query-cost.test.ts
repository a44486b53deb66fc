// queryCost on the real schema: one per carrier-routed field, times the MDNs of `lines`, read
// from literals or variables, through fragments and aliases; local fields and meta fields are
// free, and so is what `@skip`/`@include` leave out; a field selected twice under one response key is
// priced once, as execution resolves it once.

import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { executionCost, queryCost } from '../../src/graphql/query-cost.js';
import { buildSchema } from '../../src/graphql/schema.js';

const schema = buildSchema();
const cost = (query: string, variables?: Record<string, unknown>, operationName?: string) =>
  queryCost(schema, parse(query), variables, operationName);

describe('queryCost', () => {
  it.each([
    ['{ me { name } __typename }', 0],
    ['{ transaction(id: "X") { status } settings { key } }', 0],
    ['{ usage(mdn: "3215550001") { status } }', 1],
    [
      '{ a: usage(mdn: "3215550001") { status } b: usage(mdn: "3215550002") { status } coverage(zipCode: "30301") { status } }',
      3,
    ],
    ['mutation { suspendLine(input: { mdn: "3215550001" }) { status } }', 1],
    ['{ line(mdn: "3215550001") { mdn carrier usage { status } service { status } simDetails { status } } }', 3],
    [
      '{ lines(mdns: ["3215550001", "3215550002", "3215550003"]) { mdn carrier usage { status } networkStatus { status } } }',
      6,
    ],
    ['{ lines(mdns: "3215550001") { usage { status } } }', 1],
    ['{ lines(mdns: []) { usage { status } } }', 0],
  ])('prices %s at %i', (query, expected) => {
    expect(cost(query)).toBe(expected);
  });

  it('reads the MDNs from variables (missing means none)', () => {
    const query =
      'query ($mdns: [String!]!) { lines(mdns: $mdns) { usage { status } ... on Line { service { status } } } }';
    expect(cost(query, { mdns: ['3215550001', '3215550002', '3215550003', '3215550004'] })).toBe(8);
    expect(cost(query, { mdns: '3215550001' })).toBe(2);
    expect(cost(query, {})).toBe(0);
  });

  it.each([
    ['{ usage(mdn: "3215550001") @skip(if: true) { status } coverage(zipCode: "30301") { status } }', {}, 1],
    ['{ usage(mdn: "3215550001") @include(if: false) { status } }', {}, 0],
    ['{ usage(mdn: "3215550001") @include(if: true) @skip(if: false) { status } }', {}, 1],
    // Both must let it in: @skip wins over @include.
    ['{ usage(mdn: "3215550001") @include(if: true) @skip(if: true) { status } }', {}, 0],
    ['query ($skip: Boolean!) { usage(mdn: "3215550001") @skip(if: $skip) { status } }', { skip: true }, 0],
    ['query ($skip: Boolean!) { usage(mdn: "3215550001") @skip(if: $skip) { status } }', { skip: false }, 1],
    // The operation's default applies when the variable is not given.
    ['query ($show: Boolean = false) { usage(mdn: "3215550001") @include(if: $show) { status } }', {}, 0],
    ['query ($show: Boolean = false) { usage(mdn: "3215550001") @include(if: $show) { status } }', { show: true }, 1],
    // Inline fragments and spreads are left out whole.
    [
      '{ ... @include(if: false) { usage(mdn: "3215550001") { status } } ...F @skip(if: true) } ' +
        'fragment F on Query { coverage(zipCode: "30301") { status } }',
      {},
      0,
    ],
    // Under `lines`, per MDN.
    [
      'query ($mdns: [String!]!, $net: Boolean!) { lines(mdns: $mdns) { usage { status } networkStatus @include(if: $net) { status } } }',
      { mdns: ['3215550001', '3215550002', '3215550003'], net: false },
      3,
    ],
  ])('leaves out what the directives leave out: %s %j at %i', (query, variables, expected) => {
    expect(cost(query, variables)).toBe(expected);
  });

  it('prices a selection whose directive cannot be read (execution refuses such a request anyway)', () => {
    const query = 'query ($show: Boolean!) { usage(mdn: "3215550001") @include(if: $show) { status } }';
    expect(cost(query, {})).toBe(1);
    expect(cost(query, { show: 'yes' })).toBe(1);
  });

  it('prices one execution once: the cost maximum and the budget see the same price', () => {
    const document = parse('query ($mdns: [String!]!) { lines(mdns: $mdns) { usage { status } } }');
    const args = { schema, document, variableValues: { mdns: ['3215550001', '3215550002'] } };
    expect(executionCost(args)).toBe(2);
    // Another execution of the same document is priced on its own variables.
    expect(executionCost({ schema, document, variableValues: { mdns: ['3215550001'] } })).toBe(1);
    expect(executionCost(args)).toBe(2);
  });

  it('prices the operation chosen by name', () => {
    const document = 'query Cheap { me { name } } query Dear { usage(mdn: "3215550001") { status } }';
    expect(cost(document, {}, 'Cheap')).toBe(0);
    expect(cost(document, {}, 'Dear')).toBe(1);
    expect(cost(document)).toBe(0); // several operations and no name: none chosen
  });

  it('prices fragments that spread each other twice over without walking every spread', () => {
    const depth = 40;
    const fragments = Array.from(
      { length: depth },
      (_, i) =>
        `fragment F${i} on Query { a: usage(mdn: "3215550001") { status } ${i + 1 < depth ? `...F${i + 1} b: line(mdn: "3215550001") { ...L${i + 1} }` : ''} }`,
    );
    const lines = Array.from({ length: depth }, (_, i) => `fragment L${i} on Line { usage { status } }`);
    // Every level's `a` is one field (one response key), and every `b` one line whose usage is
    // one field: execution resolves each once.
    expect(cost(`{ ...F0 } ${fragments.join(' ')} ${lines.join(' ')}`)).toBe(2);
    // Each D spreads the next twice: 2^39 spreads of the last one, which execution collects (and
    // this prices) once, without walking them all.
    const doubling = Array.from(
      { length: depth },
      (_, i) =>
        `fragment D${i} on Query { ${i + 1 < depth ? `...D${i + 1} ...D${i + 1}` : 'usage(mdn: "3215550001") { status }'} }`,
    );
    expect(cost(`{ ...D0 } ${doubling.join(' ')}`)).toBe(1);
  });

  it('prices a field selected twice under one response key once, its selections merged, as execution resolves it', () => {
    expect(
      cost(
        '{ usage(mdn: "3215550002") { status } usage(mdn: "3215550002") { planName } ' +
          'line(mdn: "3215550002") { usage { status } usage { planName } } }',
      ),
    ).toBe(2);
    // Colocated fragments (Apollo, Relay) that each ask for the same fields of a screen's lines.
    const screen =
      'query ($m: [String!]!) { lines(mdns: $m) { ...A ...B } } ' +
      'fragment A on Line { usage { status } networkStatus { status } } ' +
      'fragment B on Line { usage { planName } networkStatus { simStatus } }';
    const mdns = Array.from({ length: 50 }, (_, index) => `32155500${String(index).padStart(2, '0')}`);
    expect(cost(screen, { m: mdns })).toBe(100);
    // Different response keys are different fields, each resolved.
    expect(cost('{ a: usage(mdn: "3215550002") { status } b: usage(mdn: "3215550002") { status } }')).toBe(2);
    expect(
      cost('{ line(mdn: "3215550002") { usage { status } } again: line(mdn: "3215550002") { usage { status } } }'),
    ).toBe(2);
  });

  it('says whether the price read the variables, so a price that did not can be kept for the document', () => {
    const reads = (query: string, variables?: Record<string, unknown>) => {
      const seen = { variables: false };
      queryCost(schema, parse(query), variables, undefined, seen);
      return seen.variables;
    };
    // A variable that is not a list length, as the dashboards' usage query: the same price whatever its value.
    expect(reads('query ($mdn: String!) { usage(mdn: $mdn) { status } }', { mdn: '3215550001' })).toBe(false);
    expect(reads('{ lines(mdns: ["3215550001", "3215550002"]) { usage { status } } }')).toBe(false);
    // A list length from a variable, and a directive (literal or not), make the price the variables'.
    expect(reads('query ($m: [String!]!) { lines(mdns: $m) { usage { status } } }', { m: ['3215550001'] })).toBe(true);
    expect(reads('query ($m: [String!]) { lines(mdns: $m) { usage { status } } }')).toBe(true);
    expect(reads('{ usage(mdn: "3215550001") @include(if: true) { status } }')).toBe(true);
    expect(reads('query ($s: Boolean!) { usage(mdn: "3215550001") @skip(if: $s) { status } }', { s: false })).toBe(
      true,
    );
  });
});
