// A dashboard screen whose client went away: the carrier calls of its `lines(mdns:)` still
// waiting their turn (LINES_CARRIER_CONCURRENCY) are not made; those already at the carrier
// finish. A screen the client waits for makes every call, as before.

import type { IncomingMessage } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedLine } from '../../support/lines.js';
import { useGateway } from '../../support/use-gateway.js';

const BOUND = 2;
const LINES = 20;
const LATENCY_MS = 200;
const gateway = useGateway({ env: { LINES_CARRIER_CONCURRENCY: String(BOUND), CARRIER_RETRIES: '0' } });

let token: string;
const mdns: string[] = [];

beforeAll(async () => {
  const caller = await gateway.user();
  token = caller.token;
  for (let index = 0; index < LINES; index++) {
    const line = await seedLine(gateway, { register: false });
    await gateway.app.services.lines.record({ ...line, owner: caller.user.id });
    mdns.push(line.mdn);
  }
});

const QUERY = 'query ($mdns: [String!]!) { lines(mdns: $mdns) { mdn usage { status } } }';

/** Counts the requests carrier 321's sandbox receives while `run` runs (and `settle` ms after). */
async function carrierRequestsDuring(run: () => Promise<void>, settle: number): Promise<number> {
  const server = gateway.sandboxes.servers['321'].server;
  let count = 0;
  const onRequest = (request: IncomingMessage) => void (request.url?.includes('/faults') || count++);
  server.on('request', onRequest);
  try {
    await run();
    await new Promise((resolve) => setTimeout(resolve, settle));
    return count;
  } finally {
    server.off('request', onRequest);
  }
}

async function setLatency(latencyMs: number): Promise<void> {
  const response = await fetch(`${gateway.sandboxes.urls['321']}/_sandbox/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ latency_ms: latencyMs }),
  });
  expect(response.status).toBe(200);
}

const screen = (signal?: AbortSignal) =>
  gateway.fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: QUERY, variables: { mdns } }),
    signal,
  });

describe('lines(mdns:) of a client that went away', () => {
  it('makes none of the calls still waiting their turn', async () => {
    await setLatency(LATENCY_MS);
    try {
      // 20 calls, 2 at a time, 200 ms each: ~2 s for the whole screen; the client leaves at 300 ms.
      const made = await carrierRequestsDuring(async () => {
        const controller = new AbortController();
        const answer = screen(controller.signal).catch((error: unknown) => error);
        await new Promise((resolve) => setTimeout(resolve, 300));
        controller.abort();
        expect(await answer).toBeInstanceOf(Error);
      }, 2_500);
      // Those started before it left (2 at 0 ms, 2 at 200 ms) and the ones already handed a
      // slot by then; not the other ~16.
      expect(made).toBeGreaterThanOrEqual(BOUND);
      expect(made).toBeLessThanOrEqual(3 * BOUND);
    } finally {
      await setLatency(0);
    }
  });

  it('makes every call of a screen its client waits for', async () => {
    const made = await carrierRequestsDuring(async () => {
      const answer = await screen();
      expect(answer.status).toBe(200);
      const body = (await answer.json()) as { data: { lines: { usage: { status: string } }[] } };
      expect(body.data.lines.map((line) => line.usage.status)).toEqual(mdns.map(() => 'SUCCESS'));
    }, 0);
    expect(made).toBe(LINES);
  });
});
