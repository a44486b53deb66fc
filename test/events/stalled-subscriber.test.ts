// A subscriber that stops reading its stream (a stalled client, a half-open connection) cannot
// take the replica down: its socket fills, its subscription holds a bounded backlog and then
// lets go, and the gateway goes on serving everyone else, streams included. Real SSE over a real
// port, the stalled client a raw socket that stops reading after the first bytes.

import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBSCRIPTION_BACKLOG_MAX, type LineEventMessage } from '../../src/pipeline/event-bus.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { sseSubscriber } from '../support/sse.js';

let gateway: TestGateway;
let token: string;
let userId: string;
const subscriber = sseSubscriber(() => gateway.url);

beforeAll(async () => {
  gateway = await startTestGateway({ listen: true });
  const { user, token: own } = await gateway.user();
  token = own;
  userId = user.id;
});
afterAll(async () => {
  subscriber.dispose();
  await gateway.close();
});

const QUERY = 'subscription { lineEvents { id mdn data } }';

/** An SSE subscription over a raw socket that reads its first bytes and then nothing more. */
async function stalledStream(): Promise<Socket> {
  const { port } = new URL(gateway.url);
  const body = JSON.stringify({ query: QUERY });
  const socket = connect({ host: '127.0.0.1', port: Number(port) });
  socket.write(
    `POST /graphql HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${token}\r\n` +
      `accept: text/event-stream\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('data', () => resolve());
    socket.once('error', reject);
  });
  socket.pause();
  return socket;
}

/** A committed event of the user's own line, as the outbox relay publishes it (~2 KB of data). */
function event(index: number): LineEventMessage {
  return {
    id: `evt_stall_${index}`,
    type: 'line.label_changed',
    mdn: '3215559999',
    sim: null,
    carrier: '321',
    transactionId: null,
    ownerId: userId,
    occurredAt: new Date().toISOString(),
    data: { label: 'x'.repeat(2_000), index },
  };
}

type StreamResult = { data?: { lineEvents: { id: string } }; errors?: { extensions?: Record<string, unknown> }[] };

/** Publishes events numbered from `from` until `stream` has delivered one (it is then open); that first result. */
async function firstDelivered(stream: AsyncIterableIterator<StreamResult>, from: number): Promise<StreamResult> {
  const first = stream.next();
  let delivered = false;
  void first.then(() => (delivered = true));
  for (let attempt = 0; attempt < 100 && !delivered; attempt++) {
    gateway.app.services.events.pubsub.publish('line-event', event(from + attempt));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return (await first).value as StreamResult;
}

describe('a subscriber that stops reading', () => {
  it('is let go with a bounded backlog; the replica keeps serving requests and other streams', async () => {
    const stalled = await stalledStream();
    const { pubsub } = gateway.app.services.events;
    // ~40 MB of events in bursts: far more than the socket's buffers and the backlog can hold.
    // Each burst goes out synchronously, as the relay publishes a batch of committed rows.
    for (let burst = 0; burst < 40; burst++) {
      for (let index = 0; index < 500; index++) pubsub.publish('line-event', event(burst * 500 + index));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect((await gateway.fetch('/healthz')).status).toBe(200);
    expect((await gateway.rest('GET', '/sim/usage/3219999999', { token })).status).toBe(400);
    // A new stream of the same user still streams.
    const stream = subscriber.subscribe<StreamResult>(token, QUERY);
    expect((await firstDelivered(stream, 1_000_000)).data?.lineEvents.id).toMatch(/^evt_stall_1/);
    stalled.destroy();
  });

  it('that reads more slowly than events come gets what was held, then SUBSCRIPTION_LAGGED, and the stream ends', async () => {
    const { pubsub } = gateway.app.services.events;
    const stream = subscriber.subscribe<StreamResult>(token, QUERY);
    await firstDelivered(stream, 2_000_000);
    // One burst, as a relay batch comes: more than a subscription holds before its client reads.
    for (let index = 0; index < SUBSCRIPTION_BACKLOG_MAX + 500; index++)
      pubsub.publish('line-event', event(3_000_000 + index));
    const ids: string[] = [];
    let ending: { extensions?: Record<string, unknown> }[] | undefined;
    for await (const result of stream) {
      if (result.errors) ending = result.errors;
      else ids.push(result.data!.lineEvents.id);
    }
    expect(ending?.[0]?.extensions).toMatchObject({ code: 'SUBSCRIPTION_LAGGED', status: 503, retryAfter: 1 });
    const burst = ids.filter((id) => id.startsWith('evt_stall_3'));
    expect(burst).toEqual(burst.map((_, index) => `evt_stall_${3_000_000 + index}`));
    expect(burst.length).toBeLessThanOrEqual(SUBSCRIPTION_BACKLOG_MAX);
    expect(burst.length).toBeGreaterThan(0);
  });
});
