// Answers a fetch `Request` through the gateway's own node:http server without a port (Hono's
// `app.request` is the model). The request travels over an in-memory connection that the server
// accepts exactly like a TCP one, so node's HTTP parser and the whole edge run as for a real
// client: body limit, CORS, routes, REST handler, Yoga, compression, access record. Only what
// belongs to a socket is absent: idle and request timeouts never fire here.

import { request as clientRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { Duplex, Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';

/** The socket methods node's HTTP server and client call; an in-memory connection has nothing to tune. */
type SocketLike = Duplex & {
  setTimeout(): SocketLike;
  setNoDelay(): SocketLike;
  setKeepAlive(): SocketLike;
  ref(): SocketLike;
  unref(): SocketLike;
  remoteAddress: string;
};

/** Two connected ends: what one writes, the other reads; ending one ends the other's input. */
function connectionPair(): [SocketLike, SocketLike] {
  const ends: SocketLike[] = [];
  const end = (index: number): SocketLike => {
    const socket = new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, callback) {
        ends[1 - index]!.push(chunk);
        callback();
      },
      final(callback) {
        ends[1 - index]!.push(null);
        callback();
      },
      destroy(error, callback) {
        // A side that goes away closes the connection, as a reset TCP connection would.
        const other = ends[1 - index]!;
        if (!other.destroyed) other.destroy();
        callback(error);
      },
    }) as SocketLike;
    socket.setTimeout = () => socket;
    socket.setNoDelay = () => socket;
    socket.setKeepAlive = () => socket;
    socket.ref = () => socket;
    socket.unref = () => socket;
    socket.remoteAddress = '127.0.0.1';
    return socket;
  };
  ends.push(end(0), end(1));
  return [ends[0]!, ends[1]!];
}

/** Statuses whose response has no body (the Response constructor refuses one). */
const BODILESS = new Set([101, 204, 205, 304]);

function responseHeaders(rawHeaders: string[]): Headers {
  const headers = new Headers();
  for (let index = 0; index < rawHeaders.length; index += 2) headers.append(rawHeaders[index]!, rawHeaders[index + 1]!);
  return headers;
}

/**
 * A `handle(request)` for `server`: the server need not listen. The body is sent with its length
 * (as fetch sends a buffered body); the answer's body streams as the server writes it, still
 * encoded when the request accepted compression (the caller decides, as with `app.request`).
 */
export function inProcessHandler(server: Server): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : null;
    const headers: IncomingHttpHeaders = { host: url.host, connection: 'keep-alive' };
    request.headers.forEach((value, name) => (headers[name] = value));
    if (body) headers['content-length'] = String(body.length);
    const [client, serverEnd] = connectionPair();
    server.emit('connection', serverEnd);
    return new Promise<Response>((resolve, reject) => {
      const outgoing = clientRequest(
        { createConnection: () => client, method: request.method, path: url.pathname + url.search, headers },
        (incoming) => {
          const status = incoming.statusCode ?? 500;
          const hasBody = request.method !== 'HEAD' && !BODILESS.has(status);
          if (!hasBody) incoming.resume();
          // One request per connection: once the answer is read (or dropped), the connection goes.
          incoming.once('close', () => client.destroy());
          const stream = hasBody
            ? (Readable.toWeb(incoming) as NodeReadableStream<Uint8Array> as ReadableStream<Uint8Array>)
            : null;
          resolve(
            new Response(stream, {
              status,
              statusText: incoming.statusMessage,
              headers: responseHeaders(incoming.rawHeaders),
            }),
          );
        },
      );
      outgoing.once('error', reject);
      request.signal.addEventListener(
        'abort',
        () => outgoing.destroy(request.signal.reason instanceof Error ? request.signal.reason : undefined),
        { once: true },
      );
      outgoing.end(body ?? undefined);
    });
  };
}
