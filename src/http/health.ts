// Liveness (/livez: the process answers) and readiness (/readyz, alias /healthz: the database
// answers a trivial query, Redis a PING when configured, each carrier one authenticated read).
// Readiness is cached for READINESS_CACHE_MS with a single flight, so a flood of probes costs
// at most one check per dependency per period. Answers name what is down, never a URL or secret.
//
// A load balancer takes a replica out on a 503, so only what this replica alone lacks is one:
// starting, its database, a carrier it has no credentials for (its own configuration). What
// every replica shares — Redis (rate limits fall back to per-replica counters), a carrier that
// is down or refuses the shared credentials — leaves the replica serving everything else:
// "degraded", 200, named in the checks. Taking every replica out for it would stop them all.

import { withDeadline } from '../lib/with-deadline.js';
import type { CarrierRegistry } from '../carriers/registry.js';
import type { CarrierReadiness } from '../carriers/probe.js';
import { CARRIER_IDS, type CarrierId } from '../carriers/types.js';

type DependencyState = 'ok' | 'unreachable';

export interface ReadinessReport {
  /** ok: everything answers; degraded: serving, with a shared dependency down; unavailable: 503. */
  status: 'ok' | 'degraded' | 'unavailable';
  checks: {
    database: DependencyState | 'starting';
    redis: DependencyState | 'not configured';
    carriers: Record<CarrierId, CarrierReadiness>;
  };
}

export interface ReadinessDependencies {
  /** False until the gateway has migrated and listens. */
  started(): boolean;
  /** One trivial query. */
  queryDatabase(): Promise<unknown>;
  /** PING, when Redis is configured. */
  pingRedis: (() => Promise<unknown>) | null;
  carriers: Pick<CarrierRegistry, 'probe'>;
  cacheMs: number;
  timeoutMs: number;
}

export interface Readiness {
  check(): Promise<ReadinessReport>;
}

/** What `attempt` settles to, or `fallback` once `timeoutMs` has passed. */
function reachable(attempt: () => Promise<unknown>, timeoutMs: number): Promise<DependencyState> {
  const answered = attempt().then(
    (): DependencyState => 'ok',
    (): DependencyState => 'unreachable',
  );
  return withDeadline(answered, timeoutMs, 'unreachable');
}

export function createReadiness(dependencies: ReadinessDependencies): Readiness {
  const { timeoutMs, cacheMs } = dependencies;
  let cached: { report: ReadinessReport; at: number } | undefined;
  let running: Promise<ReadinessReport> | undefined;

  async function run(): Promise<ReadinessReport> {
    // All checks at once: a readiness answer takes as long as the slowest, at most timeoutMs.
    const databaseCheck = dependencies.started()
      ? reachable(dependencies.queryDatabase, timeoutMs)
      : Promise.resolve('starting' as const);
    const redisCheck = dependencies.pingRedis
      ? reachable(dependencies.pingRedis, timeoutMs)
      : Promise.resolve('not configured' as const);
    const carrierChecks = Promise.all(
      CARRIER_IDS.map(
        async (carrier) =>
          [carrier, await withDeadline(dependencies.carriers.probe(carrier), timeoutMs, 'unreachable')] as const,
      ),
    );
    const checks = {
      database: await databaseCheck,
      redis: await redisCheck,
      carriers: Object.fromEntries(await carrierChecks) as Record<CarrierId, CarrierReadiness>,
    };
    const carriers = Object.values(checks.carriers);
    const serving = checks.database === 'ok' && carriers.every((state) => state !== 'missing credentials');
    const complete = checks.redis !== 'unreachable' && carriers.every((state) => state === 'ok');
    return { status: serving ? (complete ? 'ok' : 'degraded') : 'unavailable', checks };
  }

  return {
    check() {
      if (cached && performance.now() - cached.at < cacheMs) return Promise.resolve(cached.report);
      // Single flight: every caller during a check waits for the same one.
      running ??= run()
        .then((report) => {
          if (report.checks.database !== 'starting') cached = { report, at: performance.now() };
          return report;
        })
        .finally(() => {
          running = undefined;
        });
      return running;
    },
  };
}
