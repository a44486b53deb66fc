import js from '@eslint/js';
import eslintConfigPrettier from 'eslint-config-prettier/flat';
import tseslint from 'typescript-eslint';

/**
 * The layers of src/, bottom → top (docs/architecture.md, "Layers"). A module may import its own
 * layer and the layers below it, never one above: a wrong-way import fails lint. Entries are
 * folders of src/, or files when they end in `.ts`.
 */
export const LAYERS = [
  ['lib'],
  ['errors'],
  ['config.ts', 'metrics.ts'],
  ['carriers'],
  ['sandbox'],
  ['db', 'generated'],
  ['settings', 'directory'],
  ['auth', 'lines', 'budget'],
  ['pipeline'],
  // Below the operations: the webhook rows (src/operations/webhooks/) manage the store and URL guard.
  ['events'],
  ['operations'],
  ['recovery'],
  ['http'],
  ['graphql', 'rest'],
  ['server.ts'],
  ['app'],
  ['main.ts', 'cli'],
];

/** Side trees: besides the layers above them, only these importers may reach them. */
const ONLY_IMPORTED_BY = { sandbox: ['app'] };

/** Deepest file under src/ the rule is generated for (src/a/b/c/d.ts is depth 3). */
const MAX_DEPTH = 5;

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const isFile = (module) => module.endsWith('.ts');

/** The import specifier's start, from a file `depth` folders below src/, that reaches `module`. */
function reaching(module, depth) {
  const up = depth === 0 ? '\\./' : `(\\.\\./){${depth}}`;
  return isFile(module) ? `^${up}${escape(module.replace(/\.ts$/, '.js'))}$` : `^${up}${escape(module)}(/|$)`;
}

/** The files of `module` exactly `depth` folders below src/. */
function filesOf(module, depth) {
  if (isFile(module)) return depth === 0 ? [`src/${module}`] : [];
  return depth === 0 ? [] : [`src/${module}/${'*/'.repeat(depth - 1)}*.ts`];
}

function layerRules() {
  const blocks = [];
  LAYERS.forEach((layer, index) => {
    const above = LAYERS.slice(index + 1).flat();
    const sideTrees = Object.entries(ONLY_IMPORTED_BY)
      .filter(
        ([tree, importers]) =>
          !layer.includes(tree) && !above.includes(tree) && !layer.some((module) => importers.includes(module)),
      )
      .map(([tree]) => tree);
    const forbidden = [
      ...above.map((module) => ({ module, why: 'a layer above' })),
      ...sideTrees.map((module) => ({ module, why: 'a side tree only src/app/ starts' })),
    ];
    if (forbidden.length === 0) return;
    for (let depth = 0; depth <= MAX_DEPTH; depth++) {
      const files = layer.flatMap((module) => filesOf(module, depth));
      if (files.length === 0) continue;
      const patterns = forbidden.map(({ module, why }) => ({
        regex: reaching(module, depth),
        message: `${layer.join('/')} must not import ${module} (${why}): see docs/architecture.md, "Layers".`,
      }));
      blocks.push({ files, rules: { 'no-restricted-imports': ['error', { patterns }] } });
    }
  });
  return blocks;
}

export default tseslint.config(
  { ignores: ['node_modules/', 'src/generated/', 'data/', 'coverage/', 'dist/', 'test/artifacts/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['scripts/**/*.mjs', 'test/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly' } },
  },
  {
    files: ['bench/**/*.mjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        performance: 'readonly',
        fetch: 'readonly',
        URL: 'readonly',
        Request: 'readonly',
        AbortController: 'readonly',
      },
    },
  },
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  ...layerRules(),
  // Formatting is Prettier's (`npm run format`; `npm run lint` checks it): no stylistic rule competes.
  eslintConfigPrettier,
);
