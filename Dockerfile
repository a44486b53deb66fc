# line-gateway: a production image. Multi-stage: the build stage runs scripts/build-release.sh
# (the same script test/release/build-release.test.ts runs without Docker: install, compile,
# drop dev dependencies); the runtime stage holds only its output and runs as a non-root user
# with `node dist/main.js` as PID 1 (the gateway handles SIGTERM/SIGINT itself: it stops
# accepting, drains in-flight requests for SHUTDOWN_GRACE_MS, closes and exits 0).
# docs/deploy.md explains the settings; compose.yaml runs two replicas on PostgreSQL + Redis.

ARG NODE_VERSION=20.20

FROM node:${NODE_VERSION}-bookworm-slim AS build
# Compilers for better-sqlite3 when no prebuilt binding matches this Node.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY prisma ./prisma
COPY src ./src
RUN scripts/build-release.sh /release

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
# MALLOC_ARENA_MAX=2: glibc gives each thread that allocates (V8's GC helpers, libuv's pool)
# an arena of its own, resident until the process ends; two arenas cost the gateway ~24 MB less
# peak RSS under the benchmark's load (docs/performance.md, "Memory").
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    HOST=0.0.0.0 \
    PORT=4000 \
    DATA_DIR=/data \
    DATABASE_URL=file:/data/gateway.db
WORKDIR /app
# Owned by root, read-only for the gateway's user; only /data is writable.
COPY --from=build /release ./
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 4000
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/main.js"]
