// Finds the gateway's package root (the folder holding its package.json), from which runtime
// assets are read: migrations, swagger-ui's files. Found by walking up from this module, so it
// is the same from src/ (tests, tsx) and dist/ (npm start, a release), whatever the cwd.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const PACKAGE_NAME = 'line-gateway';

function isPackageRoot(folder: string): boolean {
  const manifest = join(folder, 'package.json');
  if (!existsSync(manifest)) return false;
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME;
  } catch {
    return false;
  }
}

let cached: string | undefined;

export function packageRoot(): string {
  if (cached) return cached;
  for (let folder = import.meta.dirname; ; folder = dirname(folder)) {
    if (isPackageRoot(folder)) return (cached = folder);
    if (dirname(folder) === folder)
      throw new Error(`line-gateway's package.json was not found above ${import.meta.dirname}`);
  }
}
