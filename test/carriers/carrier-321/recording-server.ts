// A tiny node:http server for adapter tests: it records every request it receives and
// answers each with a canned wire response chosen by the test.

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
  body?: unknown;
  /** Sent as is instead of `body` (for malformed answers). */
  raw?: string;
}

export interface RecordingServer {
  url: string;
  requests: RecordedRequest[];
  /** The reply for every following request. */
  reply(reply: CannedReply): void;
  close(): Promise<void>;
}

export async function startRecordingServer(): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  let next: CannedReply = { status: 200, body: {} };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: text === '' ? undefined : (JSON.parse(text) as unknown) });
      const payload = next.raw ?? JSON.stringify(next.body ?? null);
      response.writeHead(next.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
      response.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply(reply) {
      next = reply;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
