// recheck's verdict per regex, remembered between runs in node_modules/.cache/ (checking every
// regex of src/ costs seconds of CPU; a verdict depends only on the pattern and its flags and
// on recheck's version, which the key carries). A fresh checkout, as in CI, checks them all.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { checkSync } from 'recheck';
import { REPO_ROOT } from '../support/processes.js';

type Status = ReturnType<typeof checkSync>['status'];

const RECHECK_VERSION = (createRequire(import.meta.url)('recheck/package.json') as { version: string }).version;
const CACHE_FILE = join(REPO_ROOT, 'node_modules', '.cache', 'line-gateway', `recheck-${RECHECK_VERSION}.json`);

function readCache(): Record<string, Status> {
  try {
    return JSON.parse(readFileSync(CACHE_FILE, 'utf8')) as Record<string, Status>;
  } catch {
    return {};
  }
}

/** recheck's status for each regex, from the cache where it is known. */
export function recheckStatuses(regexes: readonly RegExp[]): Status[] {
  const cache = readCache();
  let added = false;
  const statuses = regexes.map((regex) => {
    const key = `/${regex.source}/${regex.flags}`;
    if (!(key in cache)) {
      cache[key] = checkSync(regex.source, regex.flags).status;
      added = true;
    }
    return cache[key]!;
  });
  if (added) {
    mkdirSync(dirname(CACHE_FILE), { recursive: true });
    writeFileSync(CACHE_FILE, JSON.stringify(cache));
  }
  return statuses;
}
