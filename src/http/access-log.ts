// One access record per request, written at info when its connection is done with it: the
// status the client really got, by route template (never the raw path, which holds MDNs). A
// response that never finished (client went away, cut by shutdown) is recorded as 499 with
// `aborted: true`, never as the 200 node:http defaults statusCode to.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../lib/logger.js';
import type { Metrics } from '../metrics.js';

/** nginx's code for "the client closed the request before the answer was sent". */
export const ABORTED_STATUS = 499;

/** The label of a path no route answers (its text is the caller's and may hold anything). */
export const UNMATCHED_ROUTE = 'unmatched';

/** What the edge learns while it answers a request, filled in as it goes. */
export interface AccessRecord {
  /** Route template (`/sim/usage/{mdn}`, `/graphql`, `/livez`…) or UNMATCHED_ROUTE. */
  route: string;
  /** The GraphQL operation (bounded name, see graphql/operation-label.ts) and its type. */
  operationName?: string;
  operationType?: string;
  /** The authenticated caller's id. */
  userId?: string;
  /** Which GraphQL lane answered: the direct one (graphql/direct-execution.ts) or Yoga. */
  lane?: 'direct' | 'yoga';
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** A method as a metric label: the standard ones, anything else `other`. */
export const methodLabel = (method: string | undefined) => (method && METHODS.has(method) ? method : 'other');

export function recordAccess(
  request: IncomingMessage,
  response: ServerResponse,
  record: AccessRecord,
  logger: Logger,
  metrics: Metrics,
  onDone?: (status: number) => void,
): void {
  const started = performance.now();
  response.once('close', () => {
    const aborted = !response.writableFinished;
    const status = aborted ? ABORTED_STATUS : response.statusCode;
    const seconds = (performance.now() - started) / 1000;
    const method = methodLabel(request.method);
    metrics.httpResponses.inc({ status: String(status) });
    metrics.httpDuration.observe({ method, route: record.route, status: String(status) }, seconds);
    onDone?.(status);
    // Method, route template, status and time; never headers, query strings, bodies or the path.
    logger.info('request', {
      method,
      route: record.route,
      ...(record.operationName ? { operationName: record.operationName, operationType: record.operationType } : {}),
      ...(record.lane ? { lane: record.lane } : {}),
      status,
      ...(aborted ? { aborted: true } : {}),
      ms: Math.round(seconds * 1000),
      ...(record.userId ? { userId: record.userId } : {}),
    });
  });
}
