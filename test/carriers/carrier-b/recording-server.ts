// A tiny node:http stand-in for carrier_b that records every request and answers with a
// canned envelope, so tests can assert the exact wire request an adapter method sends.

import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface CannedReply {
  status: number;
  /** A string is sent as is (for malformed bodies); anything else as JSON. */
  body: unknown;
}

/** Given the parsed request body, what to answer. */
export type Responder = (body: { method?: string; requestId?: string; params?: unknown }) => CannedReply;

export interface RecordingServer {
  url: string;
  requests: RecordedRequest[];
  respondWith(responder: Responder): void;
  close(): Promise<void>;
}

export async function startRecordingServer(initial: Responder): Promise<RecordingServer> {
  let responder = initial;
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
      requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      const reply = responder((body ?? {}) as Parameters<Responder>[0]);
      const payload = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
      response.writeHead(reply.status, { 'content-type': 'application/json' });
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
