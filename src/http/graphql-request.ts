// Holds /graphql to the same body limit as REST (JSON depth and a GET's parameters are read by
// graphql/request-params.ts, once the caller is known), and writes the edge's refusals (413, and
// 415 for an encoded body) in the GraphQL shape.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { BodyTooLargeError, readBoundedBody, tooLargeHeaders } from './body-limit.js';
import { UnsupportedContentEncodingError, unencodedOnlyHeaders } from './content-encoding.js';
import type { BodyLimits } from './json.js';

/**
 * Holds a chunked POST body to the limit before Yoga sees the request (read here, bounded, and
 * handed to Yoga already read). A body with a content-length (checked against the limit before
 * this) is left to Yoga: node never delivers more than the declared length, Yoga reads the
 * socket faster than a copy, and it reads nothing at all for a caller without a valid token.
 */
export async function prepareGraphQLRequest(request: IncomingMessage, limits: BodyLimits): Promise<void> {
  if (request.method === 'GET' || request.method === 'HEAD') return;
  if (request.headers['content-length'] !== undefined) return;
  handBodyToYoga(request, await readBoundedBody(request, limits.maxBytes));
}

/** Gives Yoga a body that was already read from the socket. */
export function handBodyToYoga(request: IncomingMessage, bytes: Buffer): void {
  (request as IncomingMessage & { body?: Readable }).body = readBody(bytes);
}

/**
 * Yoga's node adapter takes `request.body`, when set, as the body a body parser already read.
 * Handed over as a Readable of the bytes, it is read exactly like the socket stream it
 * replaces. (A Buffer would be walked with Object.keys, one key per byte: ~0.3 s for 1 MB.)
 */
function readBody(bytes: Buffer): Readable {
  return Readable.from([bytes], { objectMode: false });
}

export interface GraphQLRefusal {
  status: number;
  code: string;
  message: string;
  headers?: Record<string, string>;
}

/** The GraphQL answer to a request refused here; null when the error is not one of these. */
export function graphQLRefusal(error: unknown): GraphQLRefusal | null {
  if (error instanceof BodyTooLargeError)
    return { status: 413, code: 'PAYLOAD_TOO_LARGE', message: error.message, headers: tooLargeHeaders };
  // The code of use-unsupported-media-type.ts's 415: the body is not in a form the endpoint reads.
  if (error instanceof UnsupportedContentEncodingError)
    return { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: error.message, headers: unencodedOnlyHeaders };
  return null;
}

export function sendGraphQLRefusal(response: ServerResponse, refusal: GraphQLRefusal): void {
  const payload = JSON.stringify({
    errors: [{ message: refusal.message, extensions: { code: refusal.code, status: refusal.status } }],
  });
  response.writeHead(refusal.status, {
    ...refusal.headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
  });
  response.end(payload);
}
