// Every environment variable the gateway reads, parsed once and documented here (README's
// configuration table is printed from these descriptions by `npm run --silent admin -- config`).

import { z } from 'zod';
import { MAX_TOKEN_LIFETIME, tokenLifetime } from './lib/duration.js';

/** A whole number from the environment, in decimal digits (not `0x10`, `1e3` or `4.0`), within bounds. */
const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^\s*\d+\s*$/, 'must be a whole number in decimal digits')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
const port = integer(0, 65_535);
const positiveMs = integer(1, 3_600_000);
/** Bulk activation SIMs at the carrier at once: at most the 64 connections each carrier has. */
const simsInFlight = integer(1, 64);
const optionalSecret = z
  .string()
  .optional()
  .transform((value) => (value === '' ? undefined : value));

export const configSchema = z.object({
  PORT: port.default(4000).describe('TCP port the gateway listens on'),
  HOST: z.string().min(1).default('127.0.0.1').describe('Interface the gateway listens on'),
  DATABASE_URL: z
    .string()
    .regex(/^(file:|postgres(ql)?:\/\/)/, 'must start with file: (SQLite) or postgres:// (PostgreSQL)')
    .optional()
    .describe('SQLite file (file:…) or PostgreSQL URL (postgres://…); unset = file:<DATA_DIR>/gateway.db'),
  // Checked by its scheme alone, so that the message never echoes the URL (it may hold a
  // password): any other scheme (`http://…`) would start and stay "unreachable" for good.
  REDIS_URL: optionalSecret
    .refine((value) => value === undefined || /^rediss?:\/\/\S+$/.test(value), 'must be a redis:// or rediss:// URL')
    .describe(
      'Redis URL (redis://…, or rediss://… for TLS) for shared rate-limit counters when several replicas run; unset = in-process counters',
    ),
  DATA_DIR: z
    .string()
    .min(1)
    .default('./data')
    .describe('Where the embedded default keeps its SQLite file and generated JWT secret'),
  JWT_SECRET: optionalSecret
    .refine((value) => value === undefined || value.length >= 32, 'must be at least 32 characters')
    .describe('HMAC secret for bearer tokens (HS256); unset = generated once and kept in DATA_DIR/jwt-secret'),
  TOKEN_TTL: z
    .string()
    .refine(
      (value) => 'ms' in tokenLifetime(value),
      `must look like 30m, 12h, 30d or 2w, and be at most ${MAX_TOKEN_LIFETIME}`,
    )
    .default('30d')
    .describe('Default lifetime of tokens issued by the admin CLI and API (at most 3650d)'),
  SANDBOX_CARRIERS: z
    .enum(['auto', 'off'])
    .default('auto')
    .describe('auto = start an in-process sandbox for every carrier whose URL is unset; off = never'),
  CARRIER_321_URL: optionalSecret.describe('Base URL of carrier 321 (unset = in-process sandbox)'),
  CARRIER_321_API_KEY: optionalSecret.describe('API key for carrier 321 (never logged or returned)'),
  CARRIER_B_URL: optionalSecret.describe('Base URL of carrier_b (unset = in-process sandbox)'),
  CARRIER_B_ACCOUNT_ID: optionalSecret.describe('Account id for carrier_b'),
  CARRIER_B_API_SECRET: optionalSecret.describe('API secret for carrier_b (never logged or returned)'),
  CARRIER_TIMEOUT_MS: positiveMs.default(10_000).describe('Timeout of one carrier call'),
  CARRIER_RETRIES: integer(0, 5).default(2).describe('Retries of safe carrier calls (reads, de-duplicated writes)'),
  CARRIER_BREAKER_FAILURES: integer(0, 1_000)
    .default(5)
    .describe(
      "Carrier calls in a row that time out, find the carrier unreachable or get a 5xx before that carrier's calls are refused at once (CARRIER_UNAVAILABLE with Retry-After, nothing sent); after CARRIER_BREAKER_COOLDOWN_MS the gateway sends the carrier its readiness probe, and an answer lets every call through again. 0 = never refuse",
    ),
  CARRIER_BREAKER_COOLDOWN_MS: positiveMs
    .default(10_000)
    .describe(
      "How long a carrier's calls are refused after CARRIER_BREAKER_FAILURES faults in a row before the gateway probes it (and again after each probe that fails)",
    ),
  CACHE_TTL_MS: integer(0, 3_600_000)
    .default(1_800_000)
    .describe(
      'How long tokens, users, plans, authorizations, settings and line homes stay cached per replica; every change is announced to all replicas at once (PostgreSQL NOTIFY), so this is only a backstop (while notifications cannot be heard, entries live ≤ 1 s). Each expiry of an active user re-reads unchanged rows (~3 statements); a longer life keeps more past users until CACHE_MAX_ENTRIES evicts them; 0 = no cache',
    ),
  CACHE_MAX_ENTRIES: integer(100, 10_000_000)
    .default(100_000)
    .describe(
      'Most entries each per-replica cache holds (token states, verified tokens, users, authorizations, line homes, owned lines); when full, the one unused longest goes. Size it above the users active within CACHE_TTL_MS, or their requests read the database again; ~1.3 KB of live heap per active user (measured with 20,000)',
    ),
  LINES_CARRIER_CONCURRENCY: integer(1, 64)
    .default(8)
    .describe(
      'Most carrier calls one GraphQL request may have in flight to each carrier for the fields under line/lines (more wait their turn, and those of a client that has gone by their turn are not made); identical calls within a request are made once',
    ),
  CARRIER_READ_COALESCING: z
    .enum(['on', 'off'])
    .default('on')
    .describe(
      'on = identical carrier reads in flight at once (same carrier, query and input, e.g. a dashboard many operators watch) share one carrier call per replica, each request still checked on its own; nothing is kept once the call answers, and a read never joins a call older than a write on that carrier; off = one call per request',
    ),
  RECOVERY_SWEEP_MS: positiveMs
    .default(60_000)
    .describe(
      'How often unresolved writes (outcome unknown, or left pending by a crash) are looked for and re-sent with their transaction id',
    ),
  RECOVERY_BACKOFF_MAX_MS: positiveMs
    .default(300_000)
    .describe(
      'Longest wait between two re-sends of a write whose outcome is still unknown (backoff starts at 1 s and doubles)',
    ),
  RECOVERY_WAIT_WARN_MS: positiveMs
    .default(600_000)
    .describe(
      'How long a lost write may wait behind an older unresolved write on its line before a warning names the older write (repeated at this interval per older write while writes still wait behind it)',
    ),
  OUTBOX_POLL_MS: positiveMs
    .default(1_000)
    .describe(
      "How often each replica looks for line events not yet published and webhook deliveries due (its own writes are relayed at once, a bulk job's within 100 ms)",
    ),
  WEBHOOK_TIMEOUT_MS: positiveMs
    .default(10_000)
    .describe('How long a webhook receiver may take to answer one delivery attempt'),
  WEBHOOK_RETRY_BASE_MS: positiveMs
    .default(30_000)
    .describe(
      'First wait before a failed webhook delivery is retried; it doubles per attempt (at most 1 h, ±20% jitter) and retries stop 72 h after the delivery was queued',
    ),
  WEBHOOK_ALLOW_PRIVATE_URLS: z
    .enum(['on', 'off'])
    .default('off')
    .describe(
      'on = webhook URLs may use http and reach loopback, private, link-local and metadata addresses (tests, labs); off = https to public addresses only, checked again at every delivery',
    ),
  BULK_JOB_LEASE_MS: positiveMs
    .default(15_000)
    .describe(
      'How long the replica running a bulk activation job holds it without renewing (renewed every third of it); after a crash another replica, or the next start, resumes the job once it has passed',
    ),
  BULK_JOB_CONCURRENCY: simsInFlight
    .default(16)
    .describe(
      'Most SIMs of one bulk activation job in flight at once, within BULK_REPLICA_CONCURRENCY; 1 = one SIM after the other',
    ),
  BULK_REPLICA_CONCURRENCY: simsInFlight
    .default(32)
    .describe(
      'Most SIMs of all the bulk activation jobs a replica runs in flight at once (at 32, half of the 64 connections each carrier has, the rest left to interactive requests)',
    ),
  SHUTDOWN_GRACE_MS: positiveMs
    .default(10_000)
    .describe(
      'How long SIGTERM waits for in-flight requests (open subscriptions end at once, with their complete event); then bulk jobs, re-sends and carrier calls get the rest of it (at least 1 s) to close, and the process exits even if a carrier never answers: what is still in flight is resolved by the next start',
    ),
  GRAPHQL_MAX_TOKENS: integer(100, 2_000)
    .default(2_000)
    .describe(
      'Most lexical tokens one GraphQL document may hold; the parser stops at the first one over (at most 2000, which also keeps nesting far from the stack limit); send long lists as variables',
    ),
  GRAPHQL_MAX_DEPTH: integer(2, 50)
    .default(10)
    .describe(
      'Deepest nesting of fields one GraphQL operation may have, as its result nests (a fragment, named or inline, is not a level of its own; the `__schema` introspection query excepted)',
    ),
  GRAPHQL_MAX_ALIASES: integer(0, 500)
    .default(30)
    .describe('Most aliased fields one GraphQL operation may have (aliases of __typename included)'),
  GRAPHQL_MAX_DIRECTIVES: integer(0, 500).default(20).describe('Most directives one GraphQL document may use'),
  GRAPHQL_MAX_COST: integer(1, 10_000)
    .default(100)
    .describe(
      'Most carrier calls one GraphQL request may cause (its cost), decided before execution with its variables as execution reads them (defaults applied): 1 per carrier-calling field, times the number of MDNs under lines(mdns:); a request then makes no more calls than that',
    ),
  GRAPHQL_COST_CAPACITY: integer(1, 1_000_000)
    .default(1000)
    .describe(
      'Per-user GraphQL cost budget: points a bucket holds (1 point = 1 carrier call, priced as GRAPHQL_MAX_COST prices it); a request costing more than is left gets 429 THROTTLED',
    ),
  GRAPHQL_COST_RESTORE_RATE: z.coerce
    .number()
    .min(0.01)
    .max(100_000)
    .default(50)
    .describe('Points per second restored to each user’s GraphQL cost budget'),
  PERSISTED_OPERATIONS_FILE: z
    .string()
    .optional()
    .transform((value) => (value === '' ? undefined : value))
    .describe(
      'JSON allow-list of GraphQL operations (sha256 hex of the document → document), read at start-up; clients may send its hashes (extensions.persistedQuery.sha256Hash); unset = none',
    ),
  INTROSPECTION: z
    .enum(['off', 'authenticated', 'public'])
    .default('authenticated')
    .describe(
      'GraphQL introspection (and "Did you mean" suggestions): off = never; authenticated = with a valid token only; public = also anonymously',
    ),
  GRAPHIQL: z
    .enum(['on', 'off'])
    .default('on')
    .describe(
      'Serve GraphiQL at GET /graphql (browsers); it sends the token you put in its headers pane and never stores it',
    ),
  GRAPHQL_DIRECT_LANE: z
    .enum(['on', 'off'])
    .default('on')
    .describe(
      'on: GraphQL POSTs of JSON that nothing would refuse before execution run on a direct lane around Yoga, each operation compiled once by graphql-jit (same checks, cost, answers, errors and metrics; ~0.2 ms less CPU a request); off: every GraphQL request goes through Yoga',
    ),
  MAX_BODY_BYTES: integer(1024, 100_000_000)
    .default(1_000_000)
    .describe('Largest request body accepted on REST and /graphql (bytes); larger bodies get 413 before they are read'),
  MAX_JSON_DEPTH: integer(2, 1000)
    .default(32)
    .describe(
      'Deepest nesting of arrays and objects accepted in a JSON body or GraphQL variables; deeper gets 422 (REST) or 400 (GraphQL)',
    ),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter((origin) => origin !== ''),
    )
    .refine(
      (origins) => origins.every((origin) => /^https?:\/\/[^/\s]+$/.test(origin)),
      'must be comma-separated origins like https://app.example.com (scheme and host, no path)',
    )
    .describe(
      'Browser origins allowed to call the gateway (comma-separated, exact match, credentials allowed); unset = no cross-origin access',
    ),
  HEADERS_TIMEOUT_MS: positiveMs.default(10_000).describe('How long a client may take to send the request headers'),
  REQUEST_TIMEOUT_MS: positiveMs
    .default(30_000)
    .describe('How long a client may take to send the whole request, body included (408 after that)'),
  KEEP_ALIVE_TIMEOUT_MS: positiveMs.default(5_000).describe('How long an idle keep-alive connection stays open'),
  MAX_HEADER_BYTES: integer(1024, 1_048_576)
    .default(16_384)
    .describe('Largest request header block accepted (431 above)'),
  MAX_CONNECTIONS_PER_CLIENT: integer(0, 1_000_000)
    .default(512)
    .describe(
      'Most connections one client address (IPv4-mapped IPv6 counted as IPv4) may hold open at once; more are closed as soon as they are accepted, before anything is read. Behind a proxy or load balancer every client arrives from its address: raise it above what the proxy opens, or 0 = no cap (then limit clients at the proxy)',
    ),
  MAX_CONNECTIONS: integer(0, 1_000_000)
    .optional()
    .describe(
      "Most connections open at once from all clients (node's server.maxConnections; more are closed as soon as they are accepted); unset = the soft open-file limit (RLIMIT_NOFILE) less 512 descriptors kept for the database, Redis, carriers, webhooks and logs (at most half the limit kept), or 4096 where the limit cannot be read; 0 = no cap",
    ),
  READINESS_CACHE_MS: integer(0, 600_000)
    .default(5_000)
    .describe('How long /readyz reuses its last check of database, Redis and carriers'),
  READINESS_TIMEOUT_MS: positiveMs
    .default(2_000)
    .describe('How long /readyz waits for each dependency before calling it unreachable'),
  LOG_LEVEL: z
    .enum(['debug', 'info', 'warn', 'error', 'silent'])
    .default('info')
    .describe('Least severe log level written'),
  METRICS_TOKEN: optionalSecret
    .refine((value) => value === undefined || value.length >= 32, 'must be at least 32 characters')
    .describe(
      'Bearer token Prometheus sends to scrape GET /metrics (at least 32 characters); unset = /metrics answers 404',
    ),
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalSecret
    .refine(
      (value) => value === undefined || /^https?:\/\/[^\s]+$/.test(value),
      'must be an http(s) URL like http://otel-collector:4318',
    )
    .describe('OTLP/HTTP collector to send traces to (/v1/traces is appended); unset = tracing off'),
});

/** The variables once read: DATABASE_URL always says where the database is. */
export type Config = Omit<z.infer<typeof configSchema>, 'DATABASE_URL'> & { DATABASE_URL: string };

/**
 * The embedded default's database lives in DATA_DIR beside its JWT secret, so that moving
 * DATA_DIR moves both: a fixed `./data` would leave the gateway and an admin CLI given another
 * DATA_DIR each with a database of its own, and tokens signed for one in the other.
 */
function withDatabase(parsed: z.infer<typeof configSchema>): Config {
  let dir = parsed.DATA_DIR;
  while (dir.length > 1 && dir.endsWith('/')) dir = dir.slice(0, -1);
  return { ...parsed, DATABASE_URL: parsed.DATABASE_URL ?? `file:${dir === '/' ? '' : dir}/gateway.db` };
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Parses the environment; a bad value throws a one-line error naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // A variable set to nothing (`PORT=` in a unit file or compose file) is unset: its default
  // applies, as for secrets, instead of an empty string read as 0.
  const given = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ''),
  );
  const result = configSchema.safeParse(given);
  if (result.success) return withDatabase(result.data);
  const issue = result.error.issues[0]!;
  const variable = String(issue.path[0] ?? 'environment');
  const description = configSchema.shape[variable as keyof Config]?.description;
  throw new ConfigError(`Invalid ${variable}: ${issue.message}${description ? ` (${description})` : ''}`);
}

/** `name`, default and description of every variable, for documentation. */
export function describeConfig(): { name: string; defaultValue: string; description: string }[] {
  const defaults = withDatabase(configSchema.parse({}));
  return Object.entries(configSchema.shape).map(([name, schema]) => ({
    name,
    defaultValue: defaults[name as keyof Config] === undefined ? '' : String(defaults[name as keyof Config]),
    description: schema.description ?? '',
  }));
}
