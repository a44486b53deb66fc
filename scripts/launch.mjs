// `npm start`, `npm run admin` and `npm run sandbox`: compile when dist/ is stale, then run
// the compiled entry in this same process. One process, no wrapper: a signal sent to it (or
// forwarded by npm) reaches the gateway's own handlers, and nothing is left behind.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBuild, packageRoot } from './ensure-build.mjs';

// `node scripts/launch.mjs dist/main.js args...`: the entry takes this script's place in argv, so
// the program sees itself at process.argv[1] and its own arguments at process.argv.slice(2), as
// under `node dist/main.js` (the admin CLI runs its command only when it is argv[1]).
const [entry] = process.argv.splice(2, 1);
if (!entry) {
  process.stderr.write('usage: node scripts/launch.mjs dist/<entry>.js [args...]\n');
  process.exit(2);
}
process.argv[1] = join(packageRoot, entry);
try {
  await ensureBuild();
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
await import(pathToFileURL(join(packageRoot, entry)).href);
