// An open subscription keeps its caller's rights as they are now (src/graphql/stream-authorization.ts),
// with a real graphql-sse client against a gateway on a real port: revoking the token, its
// expiry, deactivating the user or withdrawing superuser rights ends the stream with one error
// event, within about a second and with no event in between, where an event made after the
// change is not delivered.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedLine, type SeededLine } from '../support/lines.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { sseSubscriber } from '../support/sse.js';
import { STREAM_RECHECK_MS } from '../../src/graphql/stream-authorization.js';
import type { UserRecord } from '../../src/directory/types.js';

type Result = {
  data?: { lineEvents: { mdn: string; type: string } } | null;
  errors?: readonly { message: string; extensions?: Record<string, unknown> }[];
};
type Stream = AsyncIterableIterator<Result>;

let gateway: TestGateway;
const streams = sseSubscriber(() => gateway.url);
const subscribe = (token: string): Stream =>
  streams.subscribe<Result>(token, 'subscription { lineEvents { mdn type } }');

async function ownedLine(user: UserRecord): Promise<SeededLine> {
  const line = await seedLine(gateway);
  await gateway.app.services.lines.setOwner(line.mdn, user.id);
  return line;
}

/** A write on the line as its owner (a superuser here): one line.feature_changed event. */
async function touch(token: string, line: SeededLine): Promise<void> {
  const answer = await gateway.rest('POST', '/sim/voicemail/language/', {
    token,
    body: { mdn: line.mdn, language: 'ENGL' },
  });
  expect(answer.status).toBe(200);
}

/** Everything a stream sends, read as it comes (one reader: no result is taken twice). */
function reader(stream: Stream) {
  const results: Result[] = [];
  let ended = false;
  void (async () => {
    for await (const result of stream) results.push(result);
  })().finally(() => (ended = true));
  return { results, ended: () => ended };
}
type Reader = ReturnType<typeof reader>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(condition: () => boolean, ms = 10_000): Promise<void> {
  for (const start = Date.now(); !condition(); await sleep(25))
    if (Date.now() - start > ms) throw new Error('waited in vain');
}

/** Writes on the line until the stream has heard one (it is then surely open), then until it is quiet. */
async function warmUp(stream: Reader, token: string, line: SeededLine): Promise<void> {
  for (let attempt = 0; attempt < 100 && stream.results.length === 0; attempt++) {
    await touch(token, line);
    await sleep(100);
  }
  expect(stream.results[0]?.data?.lineEvents.mdn).toBe(line.mdn);
  for (let heard = -1; heard !== stream.results.length; await sleep(300)) heard = stream.results.length;
}

/**
 * Makes the change, then an event of the line: the stream sends one error and ends, within a
 * second and a half of the change, and nothing else.
 */
async function expectEnded(stream: Reader, change: () => Promise<unknown>, after: () => Promise<void>, code: string) {
  const before = stream.results.length;
  const changedAt = Date.now();
  await change();
  await after();
  await waitFor(stream.ended);
  expect(Date.now() - changedAt).toBeLessThan(STREAM_RECHECK_MS + 1_500);
  const sent = stream.results.slice(before);
  expect(sent).toHaveLength(1);
  expect(sent[0]?.data ?? null).toBeNull();
  expect(sent[0]?.errors?.[0]?.extensions).toMatchObject({ code });
}

beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(async () => {
  streams.dispose();
  await gateway?.close();
});

it('a revoked token ends its stream, before the next event; another token of the user streams on', async () => {
  const { user, token } = await gateway.user();
  const other = await gateway.app.services.tokens.issue(user, '1h');
  const line = await ownedLine(user);
  const [revoked, kept] = [reader(subscribe(token)), reader(subscribe(other.token))];
  await warmUp(revoked, token, line);
  await warmUp(kept, token, line);
  const keptBefore = kept.results.length;
  await expectEnded(
    revoked,
    () => gateway.app.services.tokens.revoke(token),
    () => touch(other.token, line),
    'UNAUTHENTICATED',
  );
  await waitFor(() => kept.results.length > keptBefore);
  expect(kept.results.at(-1)?.data?.lineEvents.mdn).toBe(line.mdn);
  expect(kept.ended()).toBe(false);
});

it('a stream ends when its token expires, with no event to send', async () => {
  const { user, token } = await gateway.user();
  const line = await ownedLine(user);
  const brief = await gateway.app.services.tokens.issue(user, '3s');
  const stream = reader(subscribe(brief.token));
  await warmUp(stream, token, line);
  await sleep(Math.max(brief.expiresAt.getTime() - Date.now(), 0));
  expect(stream.ended()).toBe(false);
  await expectEnded(
    stream,
    async () => {},
    async () => {},
    'UNAUTHENTICATED',
  );
});

it('deactivating the user ends their stream', async () => {
  const { user, token } = await gateway.user();
  const line = await ownedLine(user);
  const { token: admin } = await gateway.user({ superuser: true });
  const stream = reader(subscribe(token));
  await warmUp(stream, token, line);
  await expectEnded(
    stream,
    () => gateway.app.services.directory.updateUser(user.name, { active: false }),
    () => touch(admin, line),
    'UNAUTHENTICATED',
  );
});

it('withdrawing superuser rights ends the stream: the next event, of another user’s line, is not sent', async () => {
  const { user, token } = await gateway.user({ superuser: true });
  const owner = await gateway.user();
  const line = await ownedLine(owner.user);
  const stream = reader(subscribe(token));
  await warmUp(stream, token, line);
  await expectEnded(
    stream,
    () => gateway.app.services.directory.updateUser(user.name, { superuser: false }),
    () => touch(owner.token, line),
    'FORBIDDEN',
  );
});
