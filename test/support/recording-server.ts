// A tiny node:http stand-in for a carrier in adapter tests: it records every request it
// receives and answers with a canned reply chosen by the test, so a test can assert the exact
// wire request an adapter method sends and how the adapter reads any answer.

import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path and query string, e.g. `/v1/subscribers/3215550001?iccid=89…`. */
  url: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body; undefined when there was none. */
  body: unknown;
}

export interface CannedReply {
  status: number;
  /** A string is sent as is (for empty or malformed bodies); anything else as JSON. */
  body?: unknown;
}

/** The parsed request body ({} when there was none); an RPC responder reads its envelope members. */
export type RequestBody = { method?: string; requestId?: string; params?: unknown };

/** Given the parsed request body, what to answer. */
export type Responder = (body: RequestBody) => CannedReply;

export interface RecordingServer {
  url: string;
  requests: RecordedRequest[];
  /** How to answer every following request. */
  respondWith(responder: Responder): void;
  close(): Promise<void>;
}

export async function startRecordingServer(
  initial: Responder = () => ({ status: 200, body: {} }),
): Promise<RecordingServer> {
  let responder = initial;
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text === '' ? undefined : (JSON.parse(text) as unknown);
      requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      const reply = responder((body ?? {}) as RequestBody);
      const payload = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? null);
      response.writeHead(reply.status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(payload),
      });
      response.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    respondWith(next) {
      responder = next;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
