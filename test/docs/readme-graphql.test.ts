// Every GraphQL example in README.md and docs/clients.md is valid against the live schema, so
// the dashboard examples follow the schema's spellings (status, subscriberStatus, id…).

import { readFileSync } from 'node:fs';
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import '../../src/graphql/dashboard.js';
import { buildSchema } from '../../src/graphql/schema.js';

const FILES = ['../../README.md', '../../docs/clients.md'];

function examples(file: string): string[] {
  const text = readFileSync(new URL(file, import.meta.url), 'utf8');
  const blocks = [...text.matchAll(/```graphql\n([\s\S]*?)```/g)].map((match) => match[1]!);
  return blocks;
}

describe('GraphQL examples in the docs', () => {
  it('finds the README examples (the check below can fail)', () => {
    expect(examples(FILES[0]!).length).toBeGreaterThanOrEqual(2);
  });

  it.each(FILES)('%s: every example validates against the schema', (file) => {
    const problems = examples(file).flatMap((example) =>
      validate(buildSchema(), parse(example)).map((error) => `${error.message} in: ${example.slice(0, 60)}`),
    );
    expect(problems).toEqual([]);
  });
});
