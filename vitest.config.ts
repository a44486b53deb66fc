import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Files that start their own gateways and leave no global state behind (all but the tracing
 * test, which installs a global tracer provider): they share one module registry per worker (`isolate: false`), so the
 * gateway's modules (Yoga, Pothos, Prisma…) are imported once per worker instead of once per
 * file, which was a third of the suite's time. Everything else keeps a fresh registry per file.
 */
const SHARED_MODULES = [
  'test/access/**/*.test.ts',
  'test/browser/**/*.test.ts',
  'test/carriers/**/*.test.ts',
  'test/cli/**/*.test.ts',
  'test/clients/**/*.test.ts',
  'test/database/**/*.test.ts',
  'test/docs/**/*.test.ts',
  'test/e2e/**/*.test.ts',
  'test/graphql/**/*.test.ts',
  'test/http/**/*.test.ts',
  'test/lines/**/*.test.ts',
  'test/observability/logs.test.ts',
  'test/observability/metrics.test.ts',
  'test/pipeline/**/*.test.ts',
  'test/process/**/*.test.ts',
  'test/recovery/**/*.test.ts',
  'test/release/**/*.test.ts',
  'test/rest/**/*.test.ts',
  'test/routing/**/*.test.ts',
  'test/sandbox/**/*.test.ts',
  'test/security/**/*.test.ts',
  'test/settings/**/*.test.ts',
  'test/schema.test.ts',
];

export default defineConfig({
  resolve: {
    // Node loads graphql's CommonJS build for our dependencies (Pothos, Yoga); Vite would pick
    // its ESM build for our own files, and graphql refuses to mix the two.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    globalSetup: ['test/support/build-dist.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one worker less than the cores (1 on a 2-core machine); the slowest
    // files wait on child processes, timers and sockets, so one worker more than the cores keeps
    // both busy (measured idle on 2 cores: 2 workers 76 s, 3 workers 68 s). TEST_WORKERS overrides.
    maxWorkers: Number(process.env.TEST_WORKERS ?? availableParallelism() + 1),
    reporters: ['default'],
    // Transformed modules are kept in node_modules/.experimental-vitest-cache between runs (keyed by
    // content and configuration; reinstalling dependencies clears it).
    experimental: { fsModuleCache: true },
    projects: [
      { extends: true, test: { name: 'shared-modules', include: SHARED_MODULES, isolate: false } },
      // (Each project names its own files: `extends` would add a root `include` to the list.)
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SHARED_MODULES],
        },
      },
    ],
  },
});
