// Prints the Pothos schema to schema.graphql (committed; a test fails when it is stale).

import { writeFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { buildSchema } from '../src/graphql/schema.js';

export const SCHEMA_FILE = new URL('../schema.graphql', import.meta.url);

export function printedSchema(): string {
  return `${printSchema(buildSchema())}\n`;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  writeFileSync(SCHEMA_FILE, printedSchema());
  process.stdout.write('schema.graphql written\n');
}
