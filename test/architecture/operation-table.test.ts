// The operation table's conventions, which other layers rely on: every row is exported under
// its field name, names are unique, and `operationNamed` finds each row by that name.

import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { defineOperation } from '../../src/operations/define.js';
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

  // A coalesced read's answer goes to every request asking the same thing at once
  // (src/pipeline/read-flights.ts): adding one is a decision that its answer names nothing of
  // the caller (account and poolUsage list only the caller's lines; availablePlans answers its
  // own transaction id) and that it writes nothing.
  it('coalesces exactly the caller-independent carrier reads', () => {
    const coalesced = operations.filter((operation) => operation.coalesce).map((operation) => operation.name);
    expect(coalesced.sort()).toEqual(
      [
        'activePlan',
        'carrierUsage',
        'coverage',
        'customerImpactingEvents',
        'deviceCompatibility',
        'deviceUnlockStatus',
        'esimProfile',
        'imeiDetails',
        'networkStatus',
        'numberGroups',
        'products',
        'quickCoverage',
        'serviceInfo',
        'simDetails',
        'usage',
        'validateAddress',
      ].sort(),
    );
    for (const operation of operations.filter((row) => row.coalesce)) {
      expect(operation.kind).toBe('query');
      expect(operation.transactionPrefix).toBeUndefined();
    }
  });

  it('refuses to coalesce a write or a call with a transaction id', () => {
    const common = {
      description: 'test',
      input: z.object({ mdn: z.string() }),
      output: z.object({ status: z.string() }),
      routing: 'line' as const,
      coalesce: true,
      handle: async () => ({ status: 200, body: { status: 'ok' } }),
    };
    expect(() => defineOperation({ ...common, name: 'write', kind: 'mutation' })).toThrow(/only a query/);
    expect(() => defineOperation({ ...common, name: 'recorded', kind: 'query', transactionPrefix: 'X_' })).toThrow(
      /only a query/,
    );
  });

  // Every mutation's input offers `dryRun` (README, "Dry runs"): a gateway-answered one needs a
  // prediction of its own, or its dry run is refused (src/pipeline/dry-run.ts).
  it('has a prediction for every gateway-answered mutation', () => {
    const unpredicted = operations
      .filter((operation) => operation.kind === 'mutation' && operation.routing === 'none' && !operation.predict)
      .map((operation) => operation.name);
    expect(unpredicted).toEqual([]);
  });

  // Under the `strict` ownership rule a SIM the gateway has never recorded passes as stock before
  // the carrier; a read keyed by a SIM alone must then say from its answer whether it is stock,
  // or the answer of a SIM on a line nobody recorded (PUK codes, an activation code) goes out.
  it('has every query keyed by a SIM alone check its answer for stock', () => {
    const simKeyed = operations.filter((operation) => {
      if (operation.routing === 'none' || operation.kind !== 'query') return false;
      const shape = (operation.input as z.ZodObject).shape as Record<string, unknown>;
      return (
        operation.ownedSims.some((field) => field in shape) && !operation.ownedLines.some((field) => field in shape)
      );
    });
    expect(simKeyed.map((operation) => operation.name).sort()).toEqual(['esimProfile', 'simDetails']);
    for (const operation of simKeyed) expect(operation.showsStockSim).toEqual(expect.any(Function));
    expect(() =>
      defineOperation({
        name: 'write',
        kind: 'mutation',
        description: 'test',
        input: z.object({ sim: z.string() }),
        output: z.object({ status: z.string() }),
        routing: 'sim',
        showsStockSim: () => true,
        handle: async () => ({ status: 200, body: { status: 'ok' } }),
      }),
    ).toThrow(/only a query may check its answer/);
  });
});
