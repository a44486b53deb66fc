// Process entry: configuration → database (migrated) → carriers → listen. SIGTERM drains
// in-flight requests and exits 0.

import { boundHeapGrowth, holdYoungGenerationDuringStartup, noAllocationSitePretenuring } from './app/heap-limits.js';
import { ConfigError, loadConfig } from './config.js';
import { withDeadline } from './lib/with-deadline.js';

/** Least time the application is given to close after the requests have drained (database, caches). */
const MIN_CLOSE_MS = 1_000;

async function main(): Promise<void> {
  boundHeapGrowth();
  noAllocationSitePretenuring();
  const startup = holdYoungGenerationDuringStartup();
  const config = loadConfig();
  // The rest is loaded once the environment is known good: a bad variable is reported at
  // once instead of after the ~2 s it takes to load the gateway's modules.
  const [{ startApplication }, { createGateway }, { startTracing }, { capsWarnings }] = await Promise.all([
    import('./app/application.js'),
    import('./server.js'),
    import('./lib/tracing.js'),
    import('./http/connection-limits.js'),
  ]);
  // Off unless an OTLP endpoint is configured: then the SDK is loaded, before any request.
  const tracing = config.OTEL_EXPORTER_OTLP_ENDPOINT
    ? await startTracing({ endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT })
    : null;
  let ready = false;
  const app = await startApplication(config);
  const { logger } = app.services;
  // Node prints process warnings as plain text; stderr carries JSON lines only.
  process.removeAllListeners('warning');
  process.on('warning', (warning) => logger.warn('process warning', { name: warning.name, warning: warning.message }));
  const gateway = createGateway(app.services, { ready: () => ready });
  const url = await gateway.listen(config.PORT, config.HOST);
  startup.startupDone();
  ready = true;
  if (app.signingKey.source === 'generated')
    logger.info(`generated a JWT secret and kept it in ${config.DATA_DIR}/jwt-secret (set JWT_SECRET to choose one)`);
  if (app.carriers.sandboxed.length > 0)
    logger.info(
      `sandbox carriers running in-process for ${app.carriers.sandboxed.join(' and ')}`,
      app.carriers.sandboxes?.urls ?? {},
    );
  logger.info(`line-gateway listening on ${url} (GraphQL at ${url}/graphql)`);
  const { caps } = gateway.connections;
  logger.info('connection caps', {
    perClient: caps.perClient || 'none',
    total: caps.total || 'none',
    totalFrom: caps.totalFrom,
    openFileLimit: caps.openFileLimit,
  });
  for (const warning of capsWarnings(caps)) logger.warn(warning);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: draining in-flight requests`);
    const deadline = performance.now() + config.SHUTDOWN_GRACE_MS;
    await gateway.close(config.SHUTDOWN_GRACE_MS);
    // Bulk jobs, re-sends and carrier calls get what is left of the grace: a hung carrier cannot
    // hold the process past it. What is still in flight then is what a crash leaves, and the next
    // start resolves it (writes stay pending or unknown for recovery, jobs are resumed).
    const remaining = Math.max(MIN_CLOSE_MS, deadline - performance.now());
    // Leases and connections are released once the budget is spent, whatever is in flight; the
    // outer bound only guards against a close that itself hangs.
    if (!(await withDeadline(app.close(remaining), remaining + MIN_CLOSE_MS, false)))
      logger.warn(
        'shutdown grace elapsed with work still in flight (a carrier not answering?): the next start recovers it',
        { graceMs: config.SHUTDOWN_GRACE_MS },
      );
    // Spans not yet exported are dropped rather than hold the exit (a collector not answering).
    const tracesFlushed = tracing?.shutdown().then(
      () => undefined,
      (error: unknown) =>
        logger.warn('traces not flushed at shutdown', {
          reason: error instanceof Error ? error.message : String(error),
        }),
    );
    if (tracesFlushed) await withDeadline(tracesFlushed, MIN_CLOSE_MS, undefined);
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof ConfigError ? error.message : `line-gateway failed to start: ${String(error)}`}\n`,
  );
  process.exit(1);
});
