// A webhook receiver for tests: a real HTTP server on 127.0.0.1 (port 0) that records every
// request (raw body, headers) and answers with the status `answer` picks (200 by default).

import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: { id: string; type: string; created: number; data: Record<string, unknown> };
  /** The status this receiver answered. */
  answered: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedDelivery[];
  /** Decides the status of each request (default 200). */
  answer: (delivery: Omit<ReceivedDelivery, 'answered'>) => number;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    answer: () => 200,
    close: async () => {},
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const delivery = { headers: request.headers, rawBody, body: JSON.parse(rawBody) as ReceivedDelivery['body'] };
      const status = receiver.answer(delivery);
      receiver.received.push({ ...delivery, answered: status });
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'try again');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
