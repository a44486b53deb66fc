// queryCost on the real schema: one per carrier-routed field, times the MDNs of `lines`, read
// from literals or variables as execution reads them (coerced: defaults applied, a single value
// a one-item list), through fragments and aliases; the service record the SIM fields read once per
// line; local fields and meta fields are free, and so is what `@skip`/`@include` leave out; a
// field selected twice under one response key is priced once, as execution resolves it once.

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

  it('reads the MDNs from variables (missing: the request does not run, and costs nothing)', () => {
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

  it('prices at 0 a request whose variables do not coerce: execution refuses it before any field', () => {
    const query = 'query ($show: Boolean!) { usage(mdn: "3215550001") @include(if: $show) { status } }';
    expect(cost(query, {})).toBe(0);
    expect(cost(query, { show: 'yes' })).toBe(0);
    const screen = 'query ($m: [String!]!) { lines(mdns: $m) { usage { status } } }';
    expect(cost(screen, { m: ['3215550001', 7] })).toBe(0);
    expect(cost(screen, { m: null })).toBe(0);
  });

  it('prices a selection whose directive cannot be read as execution collects it: included (an upper bound)', () => {
    // A null given for a variable with a default reaches `if: Boolean!`: execution fails the
    // selection set; the price counts the selection in.
    const query = 'query ($show: Boolean = true) { usage(mdn: "3215550001") @include(if: $show) { status } }';
    expect(cost(query, { show: null })).toBe(1);
  });

  describe('reads the variables as execution coerces them', () => {
    const mdns = (count: number) => Array.from({ length: count }, (_, i) => `32155${String(i).padStart(5, '0')}`);
    const list = (values: string[]) => `[${values.map((mdn) => `"${mdn}"`).join(', ')}]`;

    it("applies a variable's default value when the variable is not given", () => {
      const query = `query ($m: [String!]! = ${list(mdns(3))}) { lines(mdns: $m) { usage { status } networkStatus { status } } }`;
      expect(cost(query)).toBe(6);
      expect(cost(query, {})).toBe(6);
      // Given, the value wins over the default.
      expect(cost(query, { m: mdns(1) })).toBe(2);
      expect(cost(query, { m: [] })).toBe(0);
    });

    it('prices the audit reproduction: 20 lists of 50 default MDNs × 4 fields, no variables sent', () => {
      const definitions = Array.from({ length: 20 }, (_, i) => `$m${i}: [String!]! = ${list(mdns(50))}`);
      const fields = Array.from(
        { length: 20 },
        (_, i) =>
          `a${i}: lines(mdns: $m${i}) { usage { status } networkStatus { status } carrierUsage { status } service { status } }`,
      );
      expect(cost(`query (${definitions.join(', ')}) { ${fields.join(' ')} }`)).toBe(4000);
    });

    it('reads a single value given for a list as a one-item list, literal or variable', () => {
      expect(cost('query ($m: [String!]! = "3215550001") { lines(mdns: $m) { usage { status } } }')).toBe(1);
      expect(cost('query ($m: [String!]!) { lines(mdns: $m) { usage { status } } }', { m: '3215550001' })).toBe(1);
    });

    it('reads variables inside a literal list, with their defaults', () => {
      const query =
        'query ($a: String!, $b: String = "3215550002") { lines(mdns: [$a, $b, "3215550003"]) { usage { status } } }';
      expect(cost(query, { a: '3215550001' })).toBe(3);
      // `$b: null` makes the list invalid: execution fails the field, which resolves nothing.
      expect(cost(query, { a: '3215550001', b: null })).toBe(0);
    });

    it('reads a nullable list variable given null as no lines (the field fails, nothing under it runs)', () => {
      const query = `query ($m: [String!] = ${list(mdns(2))}) { lines(mdns: $m) { usage { status } } }`;
      expect(cost(query)).toBe(2);
      expect(cost(query, { m: null })).toBe(0);
    });

    it('reads defaults inside fragments and under directives with defaults', () => {
      const query =
        `query ($m: [String!]! = ${list(mdns(4))}, $net: Boolean = true) { ...Screen } ` +
        'fragment Screen on Query { lines(mdns: $m) { usage { status } ... on Line @include(if: $net) { networkStatus { status } } } }';
      expect(cost(query)).toBe(8);
      expect(cost(query, { net: false })).toBe(4);
    });
  });

  it.each([
    ['{ line(mdn: "3215550001") { service { status } } }', 1],
    // The SIM fields read the service record, then their own call.
    ['{ line(mdn: "3215550001") { simDetails { status } } }', 2],
    ['{ line(mdn: "3215550001") { simDetails { status } esimProfile { status } } }', 3],
    // The service record is read once per line, however many fields read it.
    ['{ line(mdn: "3215550001") { service { status } simDetails { status } esimProfile { status } } }', 3],
    ['{ line(mdn: "3215550001") { a: service { status } b: service { sim } } }', 1],
    ['{ lines(mdns: ["3215550001", "3215550002"]) { simDetails { status } usage { status } } }', 6],
    ['{ line(mdn: "3215550001") { simDetails @include(if: false) { status } } }', 0],
  ])('prices the service record the SIM fields read once per line: %s at %i', (query, expected) => {
    expect(cost(query)).toBe(expected);
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
    // Literal list lengths and conditions are the document's, whatever variables it also has.
    expect(reads('{ usage(mdn: "3215550001") @include(if: true) { status } }')).toBe(false);
    expect(
      reads(
        'query ($mdn: String!) { usage(mdn: $mdn) @skip(if: false) { status } lines(mdns: ["3215550001"]) { mdn } }',
        {
          mdn: '3215550001',
        },
      ),
    ).toBe(false);
    // A list length or a directive that names a variable (given or by its default) makes the price the variables'.
    expect(reads('query ($m: [String!]!) { lines(mdns: $m) { usage { status } } }', { m: ['3215550001'] })).toBe(true);
    expect(reads('query ($m: [String!]) { lines(mdns: $m) { usage { status } } }')).toBe(true);
    expect(reads('query ($m: [String!]! = ["3215550001"]) { lines(mdns: $m) { usage { status } } }')).toBe(true);
    expect(reads('query ($a: String!) { lines(mdns: [$a]) { usage { status } } }', { a: '3215550001' })).toBe(true);
    expect(reads('query ($s: Boolean!) { usage(mdn: "3215550001") @skip(if: $s) { status } }', { s: false })).toBe(
      true,
    );
  });
});
