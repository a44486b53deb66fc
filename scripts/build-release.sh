#!/usr/bin/env bash
# Builds a production release of line-gateway into OUT (a directory that must not exist yet):
# the compiled gateway (dist/, Prisma clients included), prisma/ (the migrations the gateway
# applies at start-up), package.json, the lock file, the launch scripts and the runtime
# dependencies only. Run it from a checkout:   scripts/build-release.sh /path/to/release
# The Dockerfile's build stage runs exactly this script, so what a test builds here without
# Docker is what the image holds (test/release/build-release.test.ts).
#
# Steps: copy the sources into a scratch directory, install exactly the lock file there (with
# dev dependencies: TypeScript, the Prisma CLI), generate the clients and compile, drop the
# dev dependencies (`npm prune`, which keeps better-sqlite3's compiled binding), and move the
# result into OUT. The checkout itself is never modified.
#
# --omit=optional as well as --omit=dev: npm marks the Prisma CLI and TypeScript "devOptional"
# (dev dependencies that are also optional peers of @prisma/client), which --omit=dev alone
# keeps (~245 MB). The only optional runtime packages are pg-cloudflare (Cloudflare Workers
# only) and @escape.tech/graphql-armor-types (type declarations only).
set -euo pipefail

out="${1:?usage: scripts/build-release.sh <output directory>}"
source_dir="$(cd "$(dirname "$0")/.." && pwd)"
if [ -e "$out" ]; then
  echo "build-release: $out already exists" >&2
  exit 1
fi
scratch="$(mktemp -d "${TMPDIR:-/tmp}/line-gateway-release.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT

echo "build-release: copying the sources"
mkdir -p "$scratch/app/scripts"
cp "$source_dir"/package.json "$source_dir"/package-lock.json "$source_dir"/tsconfig.json "$source_dir"/tsconfig.build.json "$scratch/app/"
cp "$source_dir"/scripts/prisma-generate.mjs "$source_dir"/scripts/ensure-build.mjs "$source_dir"/scripts/launch.mjs "$scratch/app/scripts/"
cp -R "$source_dir/prisma" "$scratch/app/prisma"
# src/generated is made by the install below, never copied from a developer's tree.
(cd "$source_dir" && tar --exclude='./src/generated' -cf - ./src) | (cd "$scratch/app" && tar -xf -)

cd "$scratch/app"
echo "build-release: npm ci (with dev dependencies, to build)"
# SCARF_ANALYTICS=false: swagger-ui-dist's install-time telemetry stays off.
SCARF_ANALYTICS=false npm ci --prefer-offline --no-audit --no-fund
echo "build-release: npm run build"
npm run build
echo "build-release: npm prune --omit=dev --omit=optional"
npm prune --omit=dev --omit=optional --no-audit --no-fund
rm -rf src tsconfig.json tsconfig.build.json dist/.tsbuildinfo

mkdir -p "$(dirname "$out")"
mv "$scratch/app" "$out"
echo "build-release: done: $out ($(du -sh "$out/node_modules" | cut -f1) of node_modules); start it with: node $out/dist/main.js"
