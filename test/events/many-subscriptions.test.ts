// Many open subscriptions on one replica are normal (each user may hold several): each listens
// for the replica's drain, and that must not read as a listener leak (Node's
// MaxListenersExceededWarning at the 11th listener on one AbortSignal).

import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedLine, type SeededLine } from '../support/lines.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { sseSubscriber } from '../support/sse.js';

type Result = { data?: { lineEvents: { mdn: string } } | null };

let gateway: TestGateway;
const streams = sseSubscriber(() => gateway.url);
const warnings: Error[] = [];
const onWarning = (warning: Error) => void warnings.push(warning);

beforeAll(async () => {
  gateway = await startTestGateway();
  process.on('warning', onWarning);
});
afterAll(async () => {
  process.off('warning', onWarning);
  streams.dispose();
  await gateway.close();
});

async function userWithLine(): Promise<{ token: string; line: SeededLine }> {
  const { user, token } = await gateway.user();
  const line = await seedLine(gateway);
  await gateway.app.services.lines.setOwner(line.mdn, user.id);
  return { token, line };
}

it('holds a dozen open subscriptions without a listener-leak warning', async () => {
  const owners = [await userWithLine(), await userWithLine()];
  const heard = owners.map((owner) =>
    Array.from({ length: 6 }, () =>
      streams.subscribe<Result>(owner.token, 'subscription { lineEvents { mdn } }').next(),
    ),
  );
  const settled = new Set<Promise<unknown>>();
  for (const next of heard.flat()) void next.then(() => settled.add(next));
  // Writes on each owner's line until every stream has heard one (all are then surely open).
  for (let attempt = 0; attempt < 100 && settled.size < 12; attempt++) {
    for (const owner of owners) {
      const answer = await gateway.rest('POST', '/sim/voicemail/language/', {
        token: owner.token,
        body: { mdn: owner.line.mdn, language: 'ENGL' },
      });
      expect(answer.status).toBe(200);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(settled.size).toBe(12);
  for (const [index, own] of heard.entries())
    for (const next of own) expect((await next).value?.data?.lineEvents.mdn).toBe(owners[index]!.line.mdn);
  expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning').map(String)).toEqual([]);
});
