// CORS for both surfaces in one place (Yoga's own CORS is off): only the origins listed in
// CORS_ORIGINS are ever named in an answer, and only they may send credentials. By default
// no foreign origin is allowed, so a browser on another site cannot read any answer.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { addVary } from './vary.js';

export interface CorsOptions {
  /** Exact origins (`https://app.example.com`) allowed to call; empty = none. */
  origins: readonly string[];
  /** Methods a preflight may ask for (those of the REST routes and GraphQL). */
  methods: readonly string[];
  /** How long a browser may reuse a preflight answer. */
  maxAgeSeconds?: number;
}

/** Request headers a browser may send: credentials, JSON bodies, our correlation id, and the usual idempotency header. */
const ALLOWED_HEADERS = ['authorization', 'content-type', 'x-request-id', 'idempotency-key'];
/** Response headers a browser script may read (rate limiting and correlation). */
const EXPOSED_HEADERS = [
  'x-request-id',
  'retry-after',
  'ratelimit',
  'ratelimit-policy',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
];

export interface Cors {
  /**
   * Adds the CORS headers the request's origin is entitled to, and answers a preflight
   * (OPTIONS with Access-Control-Request-Method) itself. True when the request was answered.
   */
  handle(request: IncomingMessage, response: ServerResponse): boolean;
}

export function createCors(options: CorsOptions): Cors {
  const allowed = new Set(options.origins);
  const methods = [...new Set([...options.methods, 'OPTIONS'])].join(', ');
  const maxAge = String(options.maxAgeSeconds ?? 600);
  const exposed = EXPOSED_HEADERS.join(', ');
  const allowedHeaders = ALLOWED_HEADERS.join(', ');

  return {
    handle(request, response) {
      const origin = request.headers.origin;
      const preflight = request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
      // Answers differ by Origin once any origin is allowed: caches must keep them apart.
      if (allowed.size > 0) addVary(response, 'Origin');
      const entitled = origin !== undefined && allowed.has(origin);
      if (entitled) {
        response.setHeader('access-control-allow-origin', origin);
        response.setHeader('access-control-allow-credentials', 'true');
      }
      if (!preflight) {
        if (entitled) response.setHeader('access-control-expose-headers', exposed);
        return false;
      }
      if (entitled) {
        response.setHeader('access-control-allow-methods', methods);
        response.setHeader('access-control-allow-headers', allowedHeaders);
        response.setHeader('access-control-max-age', maxAge);
      }
      // An unlisted origin's preflight gets no CORS headers, so the browser refuses the call.
      response.writeHead(204, { 'content-length': 0 });
      response.end();
      return true;
    },
  };
}
