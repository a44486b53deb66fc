// GET /metrics: the Prometheus exposition, for `Authorization: Bearer <METRICS_TOKEN>` only
// (compared in constant time). Without METRICS_TOKEN there is no /metrics (404): a user's
// token, which expires and can call the API, is never a scrape credential.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import { sendJson } from './json.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

export function createMetricsEndpoint(
  token: string | undefined,
  registry: Registry,
): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  // Digests of equal length, so the comparison takes the same time whatever was sent.
  const expected = token ? digest(token) : null;
  return async (request, response) => {
    if (!expected) return sendJson(response, 404, { detail: 'Not Found' });
    const given = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (given === undefined || !timingSafeEqual(digest(given), expected)) {
      return sendJson(
        response,
        401,
        { detail: 'A valid metrics token is required' },
        { 'www-authenticate': 'Bearer realm="metrics"' },
      );
    }
    const body = await registry.metrics();
    response.writeHead(200, { 'content-type': registry.contentType });
    response.end(body);
  };
}
