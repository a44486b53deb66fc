// The operation table's conventions, which other layers rely on: every row is exported under
// its field name, names are unique, and `operationNamed` finds each row by that name.

import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { operationNamed, operations, type OperationName } from '../../src/operations/index.js';

const operationsDir = fileURLToPath(new URL('../../src/operations/', import.meta.url));
const sourceFiles = readdirSync(operationsDir, { recursive: true, encoding: 'utf8' }).filter((file) =>
  file.endsWith('.ts'),
);

/** A built row (defineOperation's result), not a spec: it has a runner. */
const isRow = (value: unknown): value is { name: string; run: unknown } =>
  typeof value === 'object' &&
  value !== null &&
  'run' in value &&
  typeof value.run === 'function' &&
  'name' in value &&
  typeof value.name === 'string';

describe('operation table', () => {
  it('exports every row under its field name', async () => {
    const misnamed: string[] = [];
    for (const file of sourceFiles) {
      const exports = (await import(pathToFileURL(`${operationsDir}${file}`).href)) as Record<string, unknown>;
      for (const [exportName, value] of Object.entries(exports)) {
        if (isRow(value) && exportName !== value.name) misnamed.push(`${file}: ${exportName} (field ${value.name})`);
      }
    }
    expect(misnamed).toEqual([]);
  });

  it('has unique field names, each found by operationNamed', () => {
    const names = operations.map((operation) => operation.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names)
      expect(operationNamed(name as OperationName)).toBe(operations.find((operation) => operation.name === name));
  });
});
