import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

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
    // Worker threads: measured idle on 2 cores, 52–57 s against 57–65 s for forked processes (less
    // CPU per worker; better-sqlite3 loads in threads, and no test changes cwd or signal handlers).
    pool: 'threads',
    // Vitest's default is one worker less than the cores (1 on a 2-core machine); the slowest
    // files wait on child processes, timers and sockets, so one worker more than the cores keeps
    // both busy (measured idle on 2 cores: 2 workers 76 s, 3 workers 68 s). TEST_WORKERS overrides.
    maxWorkers: Number(process.env.TEST_WORKERS ?? availableParallelism() + 1),
    reporters: ['default'],
    // Transformed modules are kept in node_modules/.experimental-vitest-cache between runs (keyed by
    // content and configuration; reinstalling dependencies clears it).
    experimental: { fsModuleCache: true },
    include: ['test/**/*.test.ts'],
    // Test files share one module registry per worker, so the gateway's modules (Yoga, Pothos,
    // Prisma…) are imported once per worker instead of once per file (a third of the suite's
    // time). This holds because no file leaves global state behind: gateways are closed by the
    // file that started them, and the tracing test's shutdown unregisters its global provider.
    isolate: false,
  },
});
