// How the REST layer answers and logs a failed request: a refusal the gateway made (a
// GatewayError, 413, an unknown route) is answered with its status and logged as what it is,
// at info (warn for 401, 403 and 429, which may be someone probing); anything else is logged
// at error with its stack and answered 500 with the request id.

import type { ServerResponse } from 'node:http';
import { sendJson } from '../http/json.js';
import type { Logger } from '../lib/logger.js';
import { quote } from '../lib/quote.js';
import { InternalError, isGatewayError } from '../errors/gateway-errors.js';
import { asDatabaseUnavailable } from '../errors/database-unavailable.js';

export interface LogScope {
  logger: Logger;
  requestId: string;
  /** The operation of the route, when the request reached one. */
  operation?: string;
}

/** Statuses that may mean an attack (bad credentials, privilege probing, flooding). */
const WARN_STATUSES = new Set([401, 403, 429]);

/** Carrier faults: answered 400 as the spec wants, but the request failed, not the caller. */
const FAULT_CODES = new Set(['CARRIER_TIMEOUT', 'CARRIER_UNAVAILABLE']);

/** Logs a refusal: never a body or header value, only the status, code and the (bounded) reason. */
export function logRefusal(scope: LogScope, status: number, code: string, reason: string): void {
  const failed = (status >= 500 && status !== 501 && status !== 503) || FAULT_CODES.has(code);
  const level = WARN_STATUSES.has(status) || failed ? 'warn' : 'info';
  scope.logger[level](status < 500 && !FAULT_CODES.has(code) ? 'request refused' : 'request failed', {
    operation: scope.operation,
    status,
    code,
    reason: quote(reason, 500),
  });
}

export function writeRestError(response: ServerResponse, thrown: unknown, scope: LogScope): void {
  const error = asDatabaseUnavailable(thrown) ?? thrown;
  if (isGatewayError(error)) {
    logRefusal(scope, error.status, error.code, error.message);
  } else {
    scope.logger.error('unexpected error', { operation: scope.operation, err: error });
  }
  const known = isGatewayError(error) ? error : new InternalError(scope.requestId);
  if (response.headersSent) return void response.destroy();
  sendJson(response, known.status, known.restBody(), known.headers());
}
