// scripts/build-release.sh — the Dockerfile's build stage — run without Docker: a clean
// install from the lock file, the compile, the prune to runtime dependencies; then the release
// is started with plain `node dist/main.js` from its own directory and must answer.
//
// The build is a full `npm ci` of a release tree plus a compile and a prune: minutes of CPU and
// network, more than the rest of the suite together. It runs in CI (.ci/run has CI=true) and
// wherever RELEASE_TESTS=1 is set; elsewhere it is skipped, saying so.

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { IMAGE_RUNTIME_ENV } from '../../bench/support/processes.js';
import { eventually } from '../support/eventually.js';
import { REPO_ROOT, run, spawnIn } from '../support/processes.js';
import { alive, freePort } from '../support/processes.js';

const releaseTestsRun = process.env.CI === 'true' || process.env.RELEASE_TESTS === '1';
if (!releaseTestsRun)
  process.stdout.write(
    'release build test skipped: it runs a full `npm ci` (minutes); set RELEASE_TESTS=1 to run it (CI does)\n',
  );

describe('the release build', () => {
  it('is what the Dockerfile builds and runs', () => {
    const dockerfile = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toContain('RUN scripts/build-release.sh /release');
    expect(dockerfile).toContain('COPY --from=build /release ./');
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toContain('CMD ["node", "dist/main.js"]');
    // The bench gives the gateway the image's runtime environment: each of its variables is an ENV line.
    for (const [name, value] of Object.entries(IMAGE_RUNTIME_ENV))
      expect(dockerfile.split('\n').map((line) => line.trim().replace(/\s*\\$/, ''))).toContain(`${name}=${value}`);
  });

  it.skipIf(!releaseTestsRun)(
    'installs, compiles and prunes into a directory that runs with node alone',
    async () => {
      const work = mkdtempSync(join(tmpdir(), 'line-gateway-release-test-'));
      onTestFinished(() => rmSync(work, { recursive: true, force: true }));
      const release = join(work, 'release');
      const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TMPDIR: work };
      const built = await run('bash', [join(REPO_ROOT, 'scripts', 'build-release.sh'), release], env, 20 * 60_000);
      expect(built.stderr.slice(-2000) + built.stdout.slice(-2000)).toContain('build-release: done');
      expect(built.code).toBe(0);

      // The runtime only: compiled code with the Prisma clients, migrations, runtime packages.
      for (const present of [
        'dist/main.js',
        'dist/cli/main.js',
        'dist/sandbox/main.js',
        'dist/generated/sqlite/client.js',
        'prisma/sqlite/migrations',
        'prisma/postgresql/migrations',
        'node_modules/better-sqlite3',
        'node_modules/swagger-ui-dist',
      ]) {
        expect(existsSync(join(release, present)), present).toBe(true);
      }
      for (const absent of [
        'src',
        'node_modules/typescript',
        'node_modules/prisma',
        'node_modules/tsx',
        'node_modules/vitest',
        'node_modules/playwright-core',
      ]) {
        expect(existsSync(join(release, absent)), absent).toBe(false);
      }

      // `npm ci --omit=dev` on a release: the client generation skips itself instead of failing.
      const generate = await run('bash', ['-c', `cd '${release}' && node scripts/prisma-generate.mjs`], env, 60_000);
      expect(generate.code).toBe(0);
      expect(generate.stderr).toContain('skipping client generation');

      const data = join(work, 'data');
      const port = await freePort();
      const gateway = spawnIn('bash', ['-c', `cd '${release}' && exec node dist/main.js`], {
        ...env,
        DATA_DIR: data,
        DATABASE_URL: `file:${join(data, 'gateway.db')}`,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
      });
      try {
        const answers = async (path: string) =>
          (await fetch(`http://127.0.0.1:${port}${path}`).catch(() => null))?.status === 200;
        expect(await eventually(() => answers('/healthz'), 120_000, 200)).toBe(true);
        expect(await answers('/docs')).toBe(true);
        expect(await answers('/openapi.json')).toBe(true);
      } finally {
        gateway.child.kill('SIGTERM');
      }
      expect((await gateway.done).code).toBe(0);
      expect(alive(gateway.child.pid!)).toBe(false);
    },
    25 * 60_000,
  );
});
