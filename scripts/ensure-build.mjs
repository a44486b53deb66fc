// Compiles src/ into dist/ (tsconfig.build.json) when dist/ is missing or older than a source
// file, so `npm install && npm start` works on a fresh checkout and after a `git pull`.
// The check is a walk over file times (a few ms); the compile runs only when needed, once,
// under a lock, so concurrent `npm run admin` calls do not compile over each other.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(packageRoot, 'dist', '.build-stamp');
const lock = join(packageRoot, 'dist.lock');
const LOCK_STALE_MS = 10 * 60_000;

/** The newest modification time under the compiled inputs, in ms. */
function newestSource() {
  let newest = 0;
  const visit = (path) => {
    const stat = statSync(path);
    if (stat.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const input of ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json']) {
    const path = join(packageRoot, input);
    if (existsSync(path)) visit(path);
  }
  return newest;
}

/** True when dist/ holds a build at least as new as every source (or there is no source: a release). */
export function buildIsCurrent() {
  if (!existsSync(stamp) || !existsSync(join(packageRoot, 'dist', 'main.js'))) return false;
  if (!existsSync(join(packageRoot, 'src'))) return true;
  return newestSource() <= statSync(stamp).mtimeMs;
}

function compile() {
  let tsc;
  try {
    tsc = createRequire(join(packageRoot, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    throw new Error(
      'dist/ is missing or stale and TypeScript is not installed: run `npm install` (with dev dependencies), then `npm run build`',
    );
  }
  const started = new Date();
  process.stderr.write('line-gateway: compiling src/ into dist/ (npm run build)...\n');
  const result = spawnSync(process.execPath, [tsc, '-p', join(packageRoot, 'tsconfig.build.json')], {
    cwd: packageRoot,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('the TypeScript build failed (see above)');
  // Stamped with the start time: a file saved during the compile makes the next start rebuild.
  writeFileSync(stamp, `${started.toISOString()}\n`);
  utimesSync(stamp, started, started);
}

function tryLock() {
  try {
    mkdirSync(lock);
    return true;
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
    // A lock left by a killed build must not block every later start.
    if (Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true });
    return false;
  }
}

export async function ensureBuild() {
  if (buildIsCurrent()) return;
  while (!tryLock()) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (buildIsCurrent()) return;
  }
  try {
    if (!buildIsCurrent()) compile();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const force = process.argv.includes('--force');
  try {
    if (force) {
      rmSync(stamp, { force: true });
    }
    await ensureBuild();
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
