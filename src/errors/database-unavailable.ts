// The database not answering (down, restarting, refusing connections, out of connections) is
// not a bug of the request: it is answered 503 with Retry-After on both surfaces, logged as a
// refusal without a stack, where it used to be a 500 and an error with its stack per request.

import type { Logger } from '../lib/logger.js';
import { TryAgainLaterError } from './gateway-errors.js';

const RETRY_SECONDS = 5;

export class DatabaseUnavailableError extends TryAgainLaterError {
  override readonly name = 'DatabaseUnavailableError';
  readonly code = 'DATABASE_UNAVAILABLE';
  constructor() {
    super('The database is not answering; try again shortly', RETRY_SECONDS);
  }
}

/** Prisma's codes for a server it cannot reach, that timed out or closed the connection, or a full pool. */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
/** Driver adapter kinds of the same. */
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'DatabaseDoesNotExist', 'SocketTimeout', 'TooManyConnections']);

/**
 * PostgreSQL SQLSTATEs of a server that cannot serve now: connection exceptions (class 08),
 * too many connections, shutting down or starting (57P01–57P03), the database not accepting
 * connections (55000 at connect), or gone (3D000).
 */
const unavailableState = (code: string) =>
  code.startsWith('08') || ['53300', '57P01', '57P02', '57P03', '55000', '3D000'].includes(code);

/**
 * node-postgres's own errors for a connection the server cut (a restart, a terminated backend),
 * which Prisma's PostgreSQL adapter passes on as they are inside an interactive transaction.
 */
const PG_CONNECTION_LOST = new Set([
  'Client has encountered a connection error and is not queryable',
  'Connection terminated unexpectedly',
  'Connection terminated',
]);

/** The error as a DatabaseUnavailableError when it says the database cannot serve now. */
export function asDatabaseUnavailable(error: unknown): DatabaseUnavailableError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const { code, meta, cause, originalError } = current as {
      code?: unknown;
      meta?: { driverAdapterError?: { cause?: { kind?: unknown; code?: unknown } } };
      cause?: unknown;
      originalError?: unknown;
    };
    // Only Prisma's and node-postgres's own descriptions: a socket error elsewhere (a carrier,
    // Redis) is not the database's.
    if (typeof code === 'string' && PRISMA_CODES.has(code)) return new DatabaseUnavailableError();
    if (current instanceof Error && PG_CONNECTION_LOST.has(current.message)) return new DatabaseUnavailableError();
    const adapter = meta?.driverAdapterError?.cause;
    if (adapter) {
      if (typeof adapter.kind === 'string' && ADAPTER_KINDS.has(adapter.kind)) return new DatabaseUnavailableError();
      if (adapter.kind === 'postgres' && typeof adapter.code === 'string' && unavailableState(adapter.code))
        return new DatabaseUnavailableError();
    }
    current = originalError ?? cause;
  }
  return undefined;
}

/**
 * How a background loop (outbox relay, webhook dispatch, recovery and bulk sweeps) reports a
 * failed pass: a database outage as one warning line without a stack each pass (the loop tries
 * again by itself, and the readiness check names it); anything else as an error with its stack.
 */
export function logPassFailure(logger: Logger, message: string, error: unknown): void {
  if (asDatabaseUnavailable(error)) logger.warn(message, { reason: 'the database is not answering' });
  else logger.error(message, { err: error });
}
