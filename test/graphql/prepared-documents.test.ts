// The direct lane's document cache: which documents it takes (everything Yoga would run
// without refusing), which it leaves to Yoga, and its bounds against a stream of distinct
// documents (count and characters, least recently used out first).

import { describe, expect, it } from 'vitest';
import { buildSchema } from '../../src/graphql/schema.js';
import { createPreparedDocuments } from '../../src/graphql/prepared-documents.js';

const schema = buildSchema();
const limits = { maxTokens: 200, maxDepth: 4, maxAliases: 3, maxDirectives: 3 };
const documents = (options: { maxDocuments?: number; maxCharacters?: number; longestRemembered?: number } = {}) =>
  createPreparedDocuments({ schema, limits, ...options });

describe('what the lane takes', () => {
  it.each([
    ['a query', '{ me { name } }'],
    ['a mutation', 'mutation { suspendLine(input: { mdn: "5550000000" }) { status } }'],
    ['__typename', '{ __typename me { __typename } }'],
    [
      'fragments and directives within the limits',
      'query Q($v: Boolean!) { me @skip(if: $v) { ...F } } fragment F on Me { name }',
    ],
    [
      'fields 4 deep through fragments (a fragment is not a level)',
      'query ($m: String!) { lines(mdns: [$m]) { ...L } } fragment L on Line { ... on Line { usage { ...U } } } fragment U on UsageRecord { balanceDetails { talk } }',
    ],
  ])('%s', (_name, text) => {
    expect(documents().get(text)).not.toBeNull();
  });

  it.each([
    ['a syntax error', '{ me { name }'],
    ['an unknown field', '{ me { nam } }'],
    ['over the token limit', `{ me { ${'name '.repeat(250)}} }`],
    [
      'over the depth limit',
      'query ($m: String!) { lines(mdns: [$m]) { ...L } } fragment L on Line { usage { subscriptions { balances { uom } } } }',
    ],
    ['over the alias limit', '{ a: me { name } b: me { name } c: me { name } d: me { name } }'],
    [
      'over the directive limit',
      '{ me @skip(if: false) { a: name @skip(if: false) b: name @skip(if: false) superuser @skip(if: false) } }',
    ],
    ['introspection', '{ __schema { queryType { name } } }'],
    ['__type, deep in a fragment', '{ me { ...F } } fragment F on Me { name t: __type(name: "Me") { name } }'],
  ])('not %s (Yoga answers it)', (_name, text) => {
    expect(documents().get(text)).toBeNull();
  });
});

describe('bounds', () => {
  const distinct = (n: number) => `{ me { name a${n}: superuser } }`;

  it('remembers each text once, and renews a hit', () => {
    const cache = documents({ maxDocuments: 3 });
    const first = cache.get(distinct(1));
    cache.get(distinct(2));
    cache.get(distinct(3));
    expect(cache.get(distinct(1))).toBe(first); // a hit, now the most recent
    cache.get(distinct(4)); // evicts 2, the least recently used
    expect(cache.size).toBe(3);
    expect(cache.get(distinct(1))).toBe(first);
    const second = cache.get(distinct(2));
    expect(cache.get(distinct(2))).toBe(second);
  });

  it('a stream of distinct documents stays within the count and the characters', () => {
    const cache = documents({ maxDocuments: 100, maxCharacters: 2_000 });
    for (let n = 0; n < 1_000; n++) cache.get(distinct(n));
    expect(cache.size).toBeLessThanOrEqual(100);
    expect(cache.characters).toBeLessThanOrEqual(2_000);
    expect(cache.characters).toBeGreaterThan(1_500);
  });

  it('a document longer than the longest remembered is prepared but not kept', () => {
    const cache = documents({ longestRemembered: 50 });
    const long = `{ me { name } ${'#'.repeat(100)}\n}`;
    expect(cache.get(long)).not.toBeNull();
    expect(cache.size).toBe(0);
    expect(cache.get('{ me { name } }')).not.toBeNull();
    expect(cache.size).toBe(1);
  });
});
