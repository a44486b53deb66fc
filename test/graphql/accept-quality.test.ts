// The Accept header as Yoga reads it once quality values are applied: refused ranges dropped,
// the rest most preferred first; a header without q is left as it is.

import { describe, expect, it } from 'vitest';
import { withQualityApplied } from '../../src/graphql/accept-quality.js';

describe('withQualityApplied', () => {
  it.each([
    ['application/json', 'application/json'],
    [
      'application/graphql-response+json, application/json;charset=utf-8',
      'application/graphql-response+json, application/json;charset=utf-8',
    ],
    ['application/graphql-response+json;q=0, application/json', 'application/json'],
    [
      'application/json;q=0.5, application/graphql-response+json',
      'application/graphql-response+json, application/json',
    ],
    ['application/json; charset=utf-8; q=0.9, */*;q=0.1', 'application/json;charset=utf-8, */*'],
    // Equal qualities keep the client's order; a malformed q counts as 1.
    ['a/b;q=0.5, c/d;q=0.5, e/f;q=oops', 'e/f, a/b, c/d'],
    ['application/json;q=0', 'application/x-nothing-acceptable'],
    ['application/json;Q=0, text/html', 'text/html'],
  ])('%s → %s', (accept, expected) => {
    expect(withQualityApplied(accept)).toBe(expected);
  });
});
