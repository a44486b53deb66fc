// Holds /graphql to the same body limit and JSON depth as REST: the POST body is read here
// (bounded) and handed to Yoga already read, so Yoga never streams an unbounded body, and
// refusals are written in the GraphQL response shape.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyTooLargeError, readBoundedBody, tooLargeHeaders } from './body-limit.js';
import type { BodyLimits } from './json.js';
import { JsonTooDeepError, nestsDeeperThan } from './json-depth.js';

/** A GraphQL document sent as the body (`application/graphql`) is not JSON: its braces are selections. */
const GRAPHQL_DOCUMENT = /^application\/graphql\s*(;|$)/i;

/**
 * Reads and checks what Yoga will parse: a POST body (handed to Yoga already read, see
 * ReadBody) or GET's `variables` and `extensions`.
 */
export async function prepareGraphQLRequest(request: IncomingMessage, url: URL, limits: BodyLimits): Promise<void> {
  if (request.method === 'GET' || request.method === 'HEAD') {
    for (const name of ['variables', 'extensions']) {
      const value = url.searchParams.get(name);
      if (value !== null && nestsDeeperThan(value, limits.maxDepth)) throw new JsonTooDeepError(limits.maxDepth);
    }
    return;
  }
  const body = await readBoundedBody(request, limits.maxBytes);
  if (!GRAPHQL_DOCUMENT.test(request.headers['content-type'] ?? '') && nestsDeeperThan(body.toString('utf8'), limits.maxDepth)) {
    throw new JsonTooDeepError(limits.maxDepth);
  }
  (request as IncomingMessage & { body?: ReadBody }).body = readBody(body);
}

/**
 * Yoga's node adapter takes `request.body`, when set, as the body a body parser already read.
 * Handed over as an async iterable of the bytes, it is read exactly like the socket stream
 * it replaces (a Buffer would be walked key by key: Object.keys over every byte).
 */
interface ReadBody extends AsyncIterable<Buffer> {
  readonly byteLength: number;
}

function readBody(bytes: Buffer): ReadBody {
  return {
    byteLength: bytes.length,
    async *[Symbol.asyncIterator]() {
      yield bytes;
    },
  };
}

/** The GraphQL answer to a request refused before execution; null when the error is not one of ours. */
export function graphQLRefusal(error: unknown): { status: number; code: string; message: string } | null {
  if (error instanceof BodyTooLargeError) return { status: 413, code: 'PAYLOAD_TOO_LARGE', message: error.message };
  if (error instanceof JsonTooDeepError) return { status: 400, code: 'BAD_REQUEST', message: error.message };
  return null;
}

export function sendGraphQLRefusal(response: ServerResponse, refusal: { status: number; code: string; message: string }): void {
  const payload = JSON.stringify({ errors: [{ message: refusal.message, extensions: { code: refusal.code, status: refusal.status } }] });
  response.writeHead(refusal.status, {
    ...(refusal.status === 413 ? tooLargeHeaders : {}),
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
  });
  response.end(payload);
}
