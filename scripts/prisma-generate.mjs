// Derives the PostgreSQL schema from the SQLite one and runs `prisma generate` for both.
// The Prisma CLI insists on a schema-engine binary that machines without internet cannot
// download, although generate never runs it: point it at a harmless executable unless the
// caller has named a real one.
// Under `npm ci --omit=dev` (a production install) the Prisma CLI is absent: the clients are
// already compiled into dist/, so generation is skipped with a note instead of failing.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export function derivePostgresSchema(sqliteSchema) {
  return sqliteSchema
    .replace('provider = "sqlite"', 'provider = "postgresql"')
    .replace('"../../src/generated/sqlite"', '"../../src/generated/postgresql"')
    .replace(
      /^\/\/ The gateway's own data\.[\s\S]*?\n\n/,
      '// GENERATED from prisma/sqlite/schema.prisma by scripts/prisma-generate.mjs: edit that file.\n\n',
    );
}

function prismaCliInstalled() {
  try {
    createRequire(`${process.cwd()}/package.json`).resolve('prisma/package.json');
    return true;
  } catch {
    return false;
  }
}

const isMain = import.meta.url === `file://${process.argv[1]}`;
if (isMain && !prismaCliInstalled()) {
  process.stderr.write(
    'prisma-generate: the Prisma CLI is not installed (a production install, --omit=dev): skipping client generation; ' +
      'dist/ carries the compiled clients (building from source needs `npm install` with dev dependencies)\n',
  );
} else if (isMain) {
  writeFileSync(
    'prisma/postgresql/schema.prisma',
    derivePostgresSchema(readFileSync('prisma/sqlite/schema.prisma', 'utf8')),
  );
  const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1' };
  if (!env.PRISMA_SCHEMA_ENGINE_BINARY || !existsSync(env.PRISMA_SCHEMA_ENGINE_BINARY))
    env.PRISMA_SCHEMA_ENGINE_BINARY = '/bin/true';
  for (const schema of ['prisma/sqlite/schema.prisma', 'prisma/postgresql/schema.prisma']) {
    execFileSync('npx', ['--no-install', 'prisma', 'generate', '--schema', schema], { stdio: 'inherit', env });
  }
}
