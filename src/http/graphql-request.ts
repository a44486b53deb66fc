// Holds /graphql to the same body limit as REST (JSON depth is useJsonDepthLimit's), and writes
// such refusals in the GraphQL response shape.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { BodyTooLargeError, readBoundedBody, tooLargeHeaders } from './body-limit.js';
import type { BodyLimits } from './json.js';

/**
 * Holds a chunked POST body to the limit: read here, bounded, and handed to Yoga already read.
 * A body with a content-length (checked against the limit before this) is left to Yoga: node
 * never delivers more than the declared length, and Yoga reads the socket faster than a copy.
 */
export async function prepareGraphQLRequest(request: IncomingMessage, limits: BodyLimits): Promise<void> {
  if (request.method === 'GET' || request.method === 'HEAD' || request.headers['content-length'] !== undefined) return;
  (request as IncomingMessage & { body?: Readable }).body = readBody(await readBoundedBody(request, limits.maxBytes));
}

/**
 * Yoga's node adapter takes `request.body`, when set, as the body a body parser already read.
 * Handed over as a Readable of the bytes, it is read exactly like the socket stream it
 * replaces. (A Buffer would be walked with Object.keys, one key per byte: ~0.3 s for 1 MB.)
 */
function readBody(bytes: Buffer): Readable {
  return Readable.from([bytes], { objectMode: false });
}

/** The 413 in the GraphQL response shape. */
export function sendGraphQLTooLarge(response: ServerResponse): void {
  const status = 413;
  const payload = JSON.stringify({ errors: [{ message: new BodyTooLargeError().message, extensions: { code: 'PAYLOAD_TOO_LARGE', status } }] });
  response.writeHead(status, { ...tooLargeHeaders, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload) });
  response.end(payload);
}
