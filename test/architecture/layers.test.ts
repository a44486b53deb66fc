// The layer order of src/ is enforced by lint (eslint.config.js, `no-restricted-imports`): an
// import that runs the wrong way fails, one that runs down the layers passes, and every module
// of src/ sits in a layer (a new folder cannot escape the rule by being unknown).

import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root });
// Loaded by URL: the config is plain JavaScript, without type declarations.
const { LAYERS } = (await import(pathToFileURL(`${root}/eslint.config.js`).href)) as { LAYERS: string[][] };

/** The layer rule's messages for `source` linted as if it were the file `filePath`. */
async function layerErrors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message);
}

const importing = (specifier: string) => `import { thing } from '${specifier}';\nexport const used = thing;\n`;

describe('layer order', () => {
  it.each([
    ['src/carriers/unconfigured.ts', '../pipeline/errors.js', 'carriers must not import pipeline'],
    ['src/carriers/carrier-321/adapter.ts', '../../operations/index.js', 'carriers must not import operations'],
    ['src/directory/types.ts', '../pipeline/execute.js', 'settings/directory must not import pipeline'],
    ['src/pipeline/execute.ts', '../operations/define.js', 'pipeline must not import operations'],
    ['src/operations/queries/usage.ts', '../../graphql/builder.js', 'operations must not import graphql'],
    ['src/db/client.ts', '../app/data.js', 'db/generated must not import app'],
    ['src/server.ts', './app/application.js', 'server.ts must not import app'],
    ['src/config.ts', './server.js', 'config.ts/metrics.ts must not import server.ts'],
    ['src/graphql/line.ts', '../sandbox/start.js', 'graphql/rest must not import sandbox'],
  ])('%s importing %s fails lint', async (filePath, specifier, expected) => {
    const errors = await layerErrors(filePath, importing(specifier));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(expected);
  });

  it('refuses a type-only import the wrong way too', async () => {
    const errors = await layerErrors(
      'src/carriers/registry.ts',
      "import type { Services } from '../pipeline/services.js';\nexport type S = Services;\n",
    );
    expect(errors).toEqual([expect.stringContaining('carriers must not import pipeline')]);
  });

  it.each([
    ['src/carriers/unconfigured.ts', '../errors/gateway-errors.js'],
    ['src/operations/lifecycle/suspend.ts', '../../pipeline/operation.js'],
    ['src/graphql/line.ts', '../operations/index.js'],
    ['src/app/carriers.ts', '../sandbox/start.js'],
    ['src/cli/main.ts', '../app/data.js'],
    ['src/main.ts', './config.js'],
    ['src/sandbox/core/lines.ts', '../../carriers/types.js'],
  ])('%s importing %s passes', async (filePath, specifier) => {
    expect(await layerErrors(filePath, importing(specifier))).toEqual([]);
  });

  it('places every folder and top-level file of src/ in a layer', () => {
    const placed = new Set(LAYERS.flat());
    const modules = readdirSync(`${root}/src`);
    expect(modules.filter((module) => !placed.has(module))).toEqual([]);
  });
});
