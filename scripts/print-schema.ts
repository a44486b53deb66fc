// Prints the Pothos schema to schema.graphql (committed; a test fails when it is stale).

import { writeFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { buildSchema } from '../src/graphql/schema.js';

export const SCHEMA_FILE = new URL('../schema.graphql', import.meta.url);

/**
 * The printed schema opens with an explicit `schema {}` block naming the live root types, so a
 * tool that loads the file (codegen, `buildSchema`) never guesses roots from type names.
 */
export function printedSchema(): string {
  const schema = buildSchema();
  const roots = [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
    ['subscription', schema.getSubscriptionType()],
  ].filter((root): root is [string, NonNullable<ReturnType<typeof schema.getQueryType>>] => Boolean(root[1]));
  const block = `schema {\n${roots.map(([operation, type]) => `  ${operation}: ${type.name}`).join('\n')}\n}\n\n`;
  const printed = printSchema(schema);
  return `${printed.startsWith('schema {') ? '' : block}${printed}\n`;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  writeFileSync(SCHEMA_FILE, printedSchema());
  process.stdout.write('schema.graphql written\n');
}
