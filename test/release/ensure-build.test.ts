// scripts/ensure-build.mjs, the check `npm start` / `npm run admin` make before running dist/:
// current only when dist/ holds a stamped build newer than every source; a release (no src/)
// is current as it is. Run on a copy of the script in a scratch package, by file times.

import { cpSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, run } from '../support/processes.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A scratch package: the script, package.json, one source file, optionally a stamped dist/. */
function scratch(options: { built: boolean; source: boolean }): string {
  const root = mkdtempSync(join(tmpdir(), 'line-gateway-ensure-build-'));
  dirs.push(root);
  mkdirSync(join(root, 'scripts'));
  cpSync(join(REPO_ROOT, 'scripts', 'ensure-build.mjs'), join(root, 'scripts', 'ensure-build.mjs'));
  writeFileSync(join(root, 'package.json'), '{"name":"line-gateway","type":"module"}');
  const past = new Date(Date.now() - 60_000);
  utimesSync(join(root, 'package.json'), past, past);
  if (options.source) {
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src', 'main.ts'), '');
    utimesSync(join(root, 'src', 'main.ts'), past, past);
  }
  if (options.built) {
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'dist', 'main.js'), '');
    writeFileSync(join(root, 'dist', '.build-stamp'), '');
  }
  return root;
}

async function current(root: string): Promise<string> {
  const result = await run(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import('${join(root, 'scripts', 'ensure-build.mjs')}').then((m) => console.log(m.buildIsCurrent()))`,
    ],
    {},
  );
  return result.stdout.trim();
}

describe('the build check', () => {
  it('finds a stamped build newer than every source current', async () => {
    expect(await current(scratch({ built: true, source: true }))).toBe('true');
  });

  it('finds a missing build stale', async () => {
    expect(await current(scratch({ built: false, source: true }))).toBe('false');
  });

  it('finds a build older than a source file stale', async () => {
    const root = scratch({ built: true, source: true });
    const future = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'src', 'main.ts'), future, future);
    expect(await current(root)).toBe('false');
  });

  it('finds a release (dist/ without src/) current', async () => {
    expect(await current(scratch({ built: true, source: false }))).toBe('true');
  });

  it('reports a stale build without TypeScript as an error saying what to run', async () => {
    const root = scratch({ built: false, source: true });
    const result = await run(process.execPath, [join(root, 'scripts', 'ensure-build.mjs')], {});
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('run `npm install` (with dev dependencies), then `npm run build`');
  });
});
