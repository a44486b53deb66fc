// Compresses a dynamic response (REST JSON, GraphQL results, /metrics…) with brotli or gzip
// when the client accepts it and the body is worth it (1 KB or more, or of unknown length), by
// passing what is written through a node:zlib stream. Left alone: event streams (each event must
// leave at once), bodies already encoded (the static assets encode themselves), 204/304, HEAD.

import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Transform } from 'node:stream';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import { chooseEncoding } from './static-asset.js';
import { addVary } from './vary.js';

const MIN_BYTES = 1024;
const COMPRESSIBLE = /^(application\/(json|graphql-response\+json|problem\+json)|text\/(?!event-stream))/i;

type WriteHead = ServerResponse['writeHead'];
type Callback = (error?: Error | null) => void;

function worthCompressing(response: ServerResponse, status: number): boolean {
  if (status < 200 || status === 204 || status === 304 || response.getHeader('content-encoding') !== undefined)
    return false;
  if (!COMPRESSIBLE.test(String(response.getHeader('content-type') ?? ''))) return false;
  const length = response.getHeader('content-length');
  return length === undefined || Number(length) >= MIN_BYTES;
}

/** Makes `response` compress its body if it turns out to deserve it (decided when its head is written). */
export function compressResponse(request: IncomingMessage, response: ServerResponse): void {
  if (request.method === 'HEAD') return;
  const header = request.headers['accept-encoding'];
  const encoding = chooseEncoding(Array.isArray(header) ? header.join(',') : header);
  const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => ServerResponse;

  response.writeHead = function (status: number, ...rest: unknown[]) {
    // Fold the head's headers into the response's, so one place decides (writeHead(status, [text], headers)).
    const headers = rest.find(
      (item): item is OutgoingHttpHeaders => typeof item === 'object' && item !== null && !Array.isArray(item),
    );
    const text = rest.find((item): item is string => typeof item === 'string');
    if (rest.some(Array.isArray)) return writeHead(status, ...rest); // raw header arrays: left as they are
    // A Vary in the head adds to the one set before (CORS's Origin) instead of replacing it.
    for (const [name, value] of Object.entries(headers ?? {})) {
      if (value === undefined) continue;
      if (name.toLowerCase() === 'vary') for (const field of String(value).split(',')) addVary(response, field.trim());
      else response.setHeader(name, value);
    }
    if (COMPRESSIBLE.test(String(response.getHeader('content-type') ?? ''))) addVary(response, 'Accept-Encoding');
    if (encoding !== 'identity' && worthCompressing(response, status)) {
      response.removeHeader('content-length');
      response.setHeader('content-encoding', encoding);
      startStream(
        encoding === 'br' ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }) : createGzip(),
      );
    }
    return text === undefined ? writeHead(status) : writeHead(status, text);
  } as WriteHead;
  // Nothing will be compressed: write and end stay node's, whose implicit head (a body written
  // before any head) goes through writeHead above all the same.
  if (encoding === 'identity') return;

  const write = response.write.bind(response) as (chunk: unknown, ...rest: unknown[]) => boolean;
  const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
  let stream: Transform | null = null;

  function startStream(compressor: Transform): void {
    stream = compressor;
    // A client that went away: nothing more to compress or send.
    response.once('close', () => compressor.destroy());
    compressor.on('data', (chunk: Buffer) => {
      if (response.destroyed) return;
      if (!write(chunk)) {
        compressor.pause();
        response.once('drain', () => compressor.resume());
      }
    });
    compressor.on('end', () => end());
    compressor.on('error', () => response.destroy());
    // Writers waiting for 'drain' (streamed bodies) wait for the compressor's.
    compressor.on('drain', () => response.emit('drain'));
  }

  // A body written before any head gets its head here first (as node would), so the choice is made before the first byte.
  response.write = ((chunk: unknown, encodingOrCallback?: unknown, callback?: unknown) => {
    if (!response.headersSent) response.writeHead(response.statusCode);
    if (!stream) return write(chunk, encodingOrCallback, callback);
    if (chunk === null || chunk === undefined) return true;
    const done = (typeof encodingOrCallback === 'function' ? encodingOrCallback : callback) as Callback | undefined;
    return stream.write(chunk, done);
  }) as ServerResponse['write'];
  response.end = ((chunk?: unknown, encodingOrCallback?: unknown, callback?: unknown) => {
    const hasBody = chunk !== null && chunk !== undefined && typeof chunk !== 'function';
    if (!response.headersSent) response.writeHead(response.statusCode);
    if (!stream) return end(chunk, encodingOrCallback, callback);
    const done = [chunk, encodingOrCallback, callback].find((item) => typeof item === 'function') as
      Callback | undefined;
    if (done) response.once('finish', () => done());
    if (hasBody) stream.end(chunk);
    else stream.end();
    return response;
  }) as ServerResponse['end'];
}
