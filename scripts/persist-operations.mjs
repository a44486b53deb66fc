#!/usr/bin/env node
// Builds the GraphQL allow-list (PERSISTED_OPERATIONS_FILE) from .graphql files:
//   node scripts/persist-operations.mjs persisted-operations.json dashboards/*.graphql
// Each file is one document (its operation and the fragments it uses). The document is stored
// as graphql-js prints it — the exact text Apollo Client sends and hashes — under its sha256;
// entries already in the output file are kept. Prints one `hash  file` line per document.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parse, print } from 'graphql';

const [output, ...files] = process.argv.slice(2);
if (!output || files.length === 0) {
  process.stderr.write('usage: node scripts/persist-operations.mjs <persisted-operations.json> <file.graphql>...\n');
  process.exit(2);
}

const list = existsSync(output) ? JSON.parse(readFileSync(output, 'utf8')) : {};
for (const file of files) {
  let document;
  try {
    document = print(parse(readFileSync(file, 'utf8')));
  } catch (error) {
    process.stderr.write(`${file}: ${error.message}\n`);
    process.exit(1);
  }
  const hash = createHash('sha256').update(document, 'utf8').digest('hex');
  list[hash] = document;
  process.stdout.write(`${hash}  ${file}\n`);
}
// Written whole, then renamed: a gateway starting meanwhile never reads half a list.
writeFileSync(`${output}.tmp`, `${JSON.stringify(list, null, 2)}\n`);
renameSync(`${output}.tmp`, output);
