// A user holds at most MAX_STREAMS_PER_USER subscriptions open at once on a replica: the next
// one is refused as a whole (HTTP 429, RATE_LIMITED), another user is not affected, and
// closing a stream frees its place. Real SSE over a real port.

import { createClient, type Client } from 'graphql-sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STREAMS_PER_USER } from '../../src/graphql/use-subscriptions.js';
import { eventually } from '../support/eventually.js';
import { seedLine, type SeededLine } from '../support/lines.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

type Result = { data?: unknown; errors?: readonly { extensions?: Record<string, unknown> }[] };
type Stream = AsyncIterableIterator<Result>;

let gateway: TestGateway;
const clients: Client[] = [];
let owner: { token: string; line: SeededLine };

const QUERY = 'subscription ($mdns: [String!]) { lineEvents(mdns: $mdns) { id mdn } }';

function subscribe(token: string, mdns: string[]): Stream {
  const client = createClient({
    url: `${gateway.url}/graphql`,
    headers: { authorization: `Bearer ${token}` },
    retryAttempts: 0,
  });
  clients.push(client);
  return client.iterate({ query: QUERY, variables: { mdns } }) as Stream;
}

/** A write on the owner's line: one event on every open stream of it. */
async function touch(): Promise<void> {
  const answer = await gateway.rest('POST', '/sim/voicemail/language/', {
    token: owner.token,
    body: { mdn: owner.line.mdn, language: 'ENGL' },
  });
  expect(answer.status).toBe(200);
}

/** Writes until `stream` has delivered an event: it is open and counted. */
async function heard(stream: Stream): Promise<void> {
  const next = stream.next();
  let got: IteratorResult<Result> | undefined;
  void next.then((result) => (got = result));
  expect(
    await eventually(
      async () => {
        if (!got) await touch();
        return got !== undefined;
      },
      20_000,
      100,
    ),
  ).toBe(true);
  expect(got!.value.errors).toBeUndefined();
}

beforeAll(async () => {
  gateway = await startTestGateway();
  const user = await gateway.user();
  owner = { token: user.token, line: await seedLine(gateway) };
  await gateway.app.services.lines.setOwner(owner.line.mdn, user.user.id);
});
afterAll(async () => {
  for (const client of clients) client.dispose();
  await gateway.close();
});

describe('open subscriptions per user', () => {
  it(`refuses the ${MAX_STREAMS_PER_USER + 1}th stream of one user, and frees a place when one closes`, async () => {
    const open: Stream[] = [];
    for (let index = 0; index < MAX_STREAMS_PER_USER; index++) {
      const stream = subscribe(owner.token, [owner.line.mdn]);
      await heard(stream);
      open.push(stream);
    }
    // Refused as a whole, as an over-limit request is: HTTP 429 (graphql-sse rejects with it).
    const refused = await subscribe(owner.token, [owner.line.mdn])
      .next()
      .then(
        () => undefined,
        (error: unknown) => (error as { response?: Response }).response,
      );
    expect(refused?.status).toBe(429);
    expect(await refused?.text()).toContain('"code":"RATE_LIMITED"');

    // Another user has places of their own.
    const other = await gateway.user();
    const theirs = subscribe(other.token, []);
    const pending = theirs.next();
    let otherResult: IteratorResult<Result> | undefined;
    void pending.then((result) => (otherResult = result));

    // Closing one of the owner's streams frees its place.
    await open.pop()!.return?.();
    const again = subscribe(owner.token, [owner.line.mdn]);
    await heard(again);
    // The other user's stream was accepted too: it is still open, having refused nothing.
    expect(otherResult === undefined || otherResult.value.errors === undefined).toBe(true);
  });
});
