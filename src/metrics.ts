// Prometheus metrics for operators (GET /metrics, METRICS_TOKEN): Node's default metrics under
// their standard names (stock dashboards find them), HTTP requests by route template, GraphQL
// operations by bounded name, carrier calls, and the gateway's own counters. Labels never
// carry a line, a SIM or a user.

import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export class Metrics {
  readonly registry = new Registry();

  readonly operations = new Histogram({
    name: 'line_gateway_operation_seconds',
    help: 'Time to answer an operation, by operation and HTTP status',
    labelNames: ['operation', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly carrierOutcomes = new Counter({
    name: 'line_gateway_carrier_operations_total',
    help: 'Operations that reached a carrier, by carrier and outcome: answered, refused, or the kind of fault',
    labelNames: ['carrier', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly carrierBreakerOpen = new Gauge({
    name: 'line_gateway_carrier_breaker_open',
    help: "Whether a carrier's circuit breaker refuses calls (1) after consecutive faults, or lets them through (0)",
    labelNames: ['carrier'] as const,
    registers: [this.registry],
  });

  readonly redisUp = new Gauge({
    name: 'line_gateway_redis_up',
    help: 'Whether the shared rate-limit counters (Redis) are reachable: 1 or 0 (absent without REDIS_URL)',
    registers: [this.registry],
  });

  readonly rateLimitFallbacks = new Counter({
    name: 'line_gateway_rate_limit_fallback_total',
    help: 'Rate-limit store calls served by per-replica counters because Redis was unreachable',
    registers: [this.registry],
  });

  readonly recoveries = new Counter({
    name: 'line_gateway_recovery_attempts_total',
    help: 'Re-sends of writes whose outcome was lost, by result: success, failure (carrier refused), retry (still unknown), superseded (not re-sent: a later write of the same kind on the line had succeeded) or abandoned (given up by an operator through this replica)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly recoveryWaitingWrites = new Gauge({
    name: 'line_gateway_recovery_waiting_writes',
    help: 'Lost writes not re-sent because an older unresolved write under the same number or SIM is waiting too (a line keeps its order); counted at each recovery sweep, the same on every replica',
    registers: [this.registry],
  });

  readonly recoveryOldestWait = new Gauge({
    name: 'line_gateway_recovery_oldest_wait_seconds',
    help: 'Age of the oldest lost write waiting behind an older unresolved write on its line (0 when none waits); counted at each recovery sweep',
    registers: [this.registry],
  });

  readonly httpResponses = new Counter({
    name: 'line_gateway_http_responses_total',
    help: 'HTTP requests by the status the client got; 499 = the answer never finished (client went away or shutdown cut it)',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });

  readonly connectionsRefused = new Counter({
    name: 'line_gateway_connections_refused_total',
    help: 'Connections closed as soon as they were accepted, unread, by reason: per_client (MAX_CONNECTIONS_PER_CLIENT open from its address) or global (MAX_CONNECTIONS open in all)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route template (never the raw path) and status; 499 = the answer never finished',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly graphqlOperations = new Histogram({
    name: 'graphql_operation_duration_seconds',
    help: 'GraphQL operations by name (bounded: anonymous, invalid, other), type and the status REST would answer',
    labelNames: ['operation_name', 'operation_type', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly carrierCalls = new Histogram({
    name: 'line_gateway_carrier_call_duration_seconds',
    help: 'HTTP calls to a carrier (retries included), by carrier, gateway operation and outcome: success, client_error, server_error or the fault',
    labelNames: ['carrier', 'operation', 'outcome'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  readonly carrierReadsJoined = new Counter({
    name: 'line_gateway_carrier_reads_joined_total',
    help: 'Carrier reads answered by an identical call already in flight for another request (CARRIER_READ_COALESCING), by carrier and gateway operation',
    labelNames: ['carrier', 'operation'] as const,
    registers: [this.registry],
  });

  readonly databaseQueries = new Counter({
    name: 'line_gateway_db_queries_total',
    help: 'SQL statements sent to the database (none on the read path in steady state: see cache misses as its rises)',
    registers: [this.registry],
  });

  readonly cacheListening = new Gauge({
    name: 'line_gateway_cache_listener_up',
    help: "1 while this replica hears the other replicas' cache changes (PostgreSQL LISTEN); 0 while it does not and caches live ≤ 1 s",
    registers: [this.registry],
  });

  constructor(options: { defaultMetrics?: boolean } = {}) {
    if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry });
  }
}
