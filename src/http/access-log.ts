// One access record per request, written when its connection is done with it: the status the
// client really got. A response that never finished (client went away, cut by shutdown) is
// recorded as 499 with `aborted: true`, never as the 200 node:http defaults statusCode to.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../lib/logger.js';
import type { Metrics } from '../metrics.js';

/** nginx's code for "the client closed the request before the answer was sent". */
export const ABORTED_STATUS = 499;

export function recordAccess(request: IncomingMessage, response: ServerResponse, requestId: string, logger: Logger, metrics: Metrics): void {
  const started = performance.now();
  response.once('close', () => {
    const aborted = !response.writableFinished;
    const status = aborted ? ABORTED_STATUS : response.statusCode;
    metrics.httpResponses.inc({ status: String(status) });
    // At debug level: method, path, status and time; never headers, query strings or bodies.
    logger.debug('request', {
      requestId,
      method: request.method,
      path: (request.url ?? '/').split('?')[0],
      status,
      ...(aborted ? { aborted: true } : {}),
      ms: Math.round(performance.now() - started),
    });
  });
}
