// `lineEvents` over Server-Sent Events with a real graphql-sse client against a gateway on a
// real port: a user sees the events of their own lines only, a superuser every line's, and
// naming another user's line is refused (under the `strict` rule, a line nobody owns too).

import { createClient, type Client } from 'graphql-sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedLine, type SeededLine } from '../support/lines.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

interface Event {
  id: string;
  type: string;
  mdn: string;
}
type Stream = AsyncIterableIterator<{
  data?: { lineEvents: Event } | null;
  errors?: readonly { message: string; extensions?: Record<string, unknown> }[];
}>;

let gateway: TestGateway;
const clients: Client[] = [];
let alice: { token: string; line: SeededLine };
let bob: { token: string; line: SeededLine };
let admin: string;

const QUERY =
  'subscription ($mdns: [String!]) { lineEvents(mdns: $mdns) { id type mdn sim carrier transactionId occurredAt data } }';

function subscribe(token: string | null, mdns?: string[]): Stream {
  const client = createClient({
    url: `${gateway.url}/graphql`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
  });
  clients.push(client);
  return client.iterate({ query: QUERY, variables: mdns ? { mdns } : {} }) as Stream;
}

async function ownedLine(userId: string): Promise<SeededLine> {
  const line = await seedLine(gateway);
  await gateway.app.services.lines.setOwner(line.mdn, userId);
  return line;
}

/** A write on the line that always succeeds: one line.feature_changed event. */
async function touch(who: { token: string; line: SeededLine }): Promise<void> {
  const answer = await gateway.rest('POST', '/sim/voicemail/language/', {
    token: who.token,
    body: { mdn: who.line.mdn, language: 'ENGL' },
  });
  expect(answer.status).toBe(200);
}

/** Writes on `who`'s line until `stream` has heard one (the subscription is then surely open); resolves with the pending next. */
async function warmUp(stream: Stream, who: { token: string; line: SeededLine }): Promise<void> {
  const first = stream.next();
  let heard = false;
  void first.then(() => (heard = true));
  for (let attempt = 0; attempt < 100 && !heard; attempt++) {
    await touch(who);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(heard).toBe(true);
}

/** Reads `stream` until an event of `mdn` comes; the events read before it. */
async function until(stream: Stream, mdn: string): Promise<Event[]> {
  const seen: Event[] = [];
  for (;;) {
    const { value, done } = await stream.next();
    if (done) throw new Error('stream ended');
    const event = value.data!.lineEvents;
    seen.push(event);
    if (event.mdn === mdn) return seen;
  }
}

/** The HTTP status of a stream the gateway refused (graphql-sse rejects with the response). */
async function refusal(stream: Stream): Promise<number | undefined> {
  return stream.next().then(
    () => undefined,
    (error: unknown) => (error as { response?: Response }).response?.status,
  );
}

beforeAll(async () => {
  gateway = await startTestGateway();
  const a = await gateway.user();
  const b = await gateway.user();
  ({ token: admin } = await gateway.user({ superuser: true }));
  alice = { token: a.token, line: await ownedLine(a.user.id) };
  bob = { token: b.token, line: await ownedLine(b.user.id) };
});
afterAll(async () => {
  for (const client of clients) client.dispose();
  await gateway?.close();
});

describe('lineEvents over SSE', () => {
  it("shows a user their own lines' events only, and a superuser every line's", async () => {
    const aliceStream = subscribe(alice.token);
    const adminStream = subscribe(admin);
    await warmUp(aliceStream, alice);
    await warmUp(adminStream, alice);

    // Bob's write first, then Alice's: were Bob's event shown to Alice it would come first.
    await touch(bob);
    await touch(alice);
    const aliceSaw = await until(aliceStream, alice.line.mdn);
    expect(aliceSaw.map((event) => event.mdn).filter((mdn) => mdn !== alice.line.mdn)).toEqual([]);
    const adminSaw = await until(adminStream, bob.line.mdn);
    expect(adminSaw.at(-1)).toMatchObject({ mdn: bob.line.mdn, type: 'line.feature_changed' });
    await aliceStream.return?.();
    await adminStream.return?.();
  });

  it('follows only the lines named, and refuses naming another user’s line', async () => {
    const own = subscribe(bob.token, [bob.line.mdn]);
    await warmUp(own, bob);
    await touch(alice);
    await touch(bob);
    const seen = await until(own, bob.line.mdn);
    expect(seen.map((event) => event.mdn)).toEqual([bob.line.mdn]);
    await own.return?.();

    // Refused before any event: one result carrying the refusal, then the stream ends (an
    // HTTP 403 would reach SSE clients as a network failure; see use-subscriptions.ts).
    const refused = subscribe(bob.token, [alice.line.mdn]);
    const first = await refused.next();
    expect(first.done).toBe(false);
    const result = first.value as unknown as { data?: unknown; errors?: { extensions?: Record<string, unknown> }[] };
    expect(result.data ?? null).toBeNull();
    expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', status: 403 });
    expect((await refused.next()).done).toBe(true);
  });

  it('under line_ownership "strict", hides the events of lines nobody owns and refuses naming one', async () => {
    const setMode = (mode: string) =>
      gateway.rest('PUT', '/settings/line_ownership', { token: admin, body: { value: JSON.stringify(mode) } });
    const unowned = { token: admin, line: await seedLine(gateway) };
    expect((await setMode('strict')).status).toBe(200);
    try {
      const aliceStream = subscribe(alice.token);
      await warmUp(aliceStream, alice);
      // The unowned line's event first: were it shown to Alice it would come before her own.
      await touch(unowned);
      await touch(alice);
      const seen = await until(aliceStream, alice.line.mdn);
      expect(seen.map((event) => event.mdn).filter((mdn) => mdn !== alice.line.mdn)).toEqual([]);
      await aliceStream.return?.();

      const refused = subscribe(alice.token, [unowned.line.mdn]);
      const first = (await refused.next()).value as unknown as { errors?: { extensions?: Record<string, unknown> }[] };
      expect(first.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', status: 403 });
    } finally {
      expect((await setMode('enforced')).status).toBe(200);
    }
  });

  it('refuses an anonymous subscriber', async () => {
    expect(await refusal(subscribe(null))).toBe(401);
  });
});
