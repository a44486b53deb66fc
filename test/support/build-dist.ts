// Vitest global setup: compiles dist/ once before the tests when it is stale, so the tests
// that spawn `npm start` / `npm run admin` find it current instead of compiling concurrently.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function buildDist(): void {
  const script = fileURLToPath(new URL('../../scripts/ensure-build.mjs', import.meta.url));
  const result = spawnSync(process.execPath, [script], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('dist/ could not be built (node scripts/ensure-build.mjs)');
}
