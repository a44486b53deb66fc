// Reads a request body with one size limit for both surfaces: refused on its declared
// content-length before a byte is read, and cut off while streaming (chunked bodies).

import type { IncomingMessage } from 'node:http';
import { BodyTooLargeError } from '../errors/body-too-large.js';
import { RequestAbortedError } from '../errors/request-aborted.js';

export { BodyTooLargeError, RequestAbortedError };

const BODY_UNFINISHED = 'The request was closed before its body ended';

/** True when the request declares a body larger than `limit` (checked before reading). */
export function declaresTooLarge(request: IncomingMessage, limit: number): boolean {
  const declared = request.headers['content-length'];
  return declared !== undefined && Number(declared) > limit;
}

/**
 * The whole body, at most `limit` bytes; rejects with BodyTooLargeError as soon as it is
 * exceeded. The stream is paused, not destroyed (a for-await loop would destroy it, and the
 * socket with it), so the 413 can still be written; the connection then closes (tooLargeHeaders).
 */
export function readBoundedBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  if (declaresTooLarge(request, limit)) return Promise.reject(new BodyTooLargeError());
  // Gone while the pipeline ran (auth, rate limit): no 'end' or 'close' would come any more.
  if (request.destroyed) return Promise.reject(new RequestAbortedError(BODY_UNFINISHED));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      request.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      stop();
      request.pause();
      reject(new BodyTooLargeError());
    };
    const onEnd = () => {
      stop();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = () => {
      stop();
      reject(new RequestAbortedError(BODY_UNFINISHED));
    };
    // Closed before its end: the client went away or a timeout cut it off.
    const onClose = onError;
    request.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/** How long, and how much, a refused client's remaining body is read and dropped (discardUnread). */
const LINGER_MS = 1_000;
const LINGER_BYTES = 32 * 1024 * 1024;

/**
 * Reads and drops what a client refused for its body's size still sends, for at most LINGER_MS
 * and LINGER_BYTES, before the 413 is written: a client still writing when the connection closes
 * sees a reset (EPIPE) instead of the answer. Nothing is kept; what comes after the bound is cut
 * off by the close that follows the 413 (tooLargeHeaders), as a slow or endless body always was.
 */
export function discardUnread(request: IncomingMessage): Promise<void> {
  if (request.readableEnded || request.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let dropped = 0;
    const done = () => {
      clearTimeout(timer);
      request.off('data', onData).off('end', done).off('close', done).off('error', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > LINGER_BYTES) done();
    };
    const timer = setTimeout(done, LINGER_MS);
    timer.unref();
    request.on('data', onData).on('end', done).on('close', done).on('error', done);
    request.resume();
  });
}

/** A connection whose request body was not read to its end is not reused. */
export const tooLargeHeaders = { connection: 'close' } as const;
