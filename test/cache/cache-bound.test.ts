// CACHE_MAX_ENTRIES end to end, on the gateway's own statement counter: as many active users as
// the caches hold are served without a database statement however they take turns, and a busy
// user stays served from memory while more users than that come and go once each.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../support/gateway.js';

/** The smallest bound the configuration takes. */
const BOUND = 100;

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway({
    env: {
      CACHE_MAX_ENTRIES: String(BOUND),
      // Background loops query on their own schedule; slowed so the count is the requests'.
      OUTBOX_POLL_MS: '3600000',
      BULK_JOB_LEASE_MS: '3600000',
      RECOVERY_SWEEP_MS: '3600000',
    },
  });
}, 30_000);
afterAll(() => gateway.close());

const statements = async () => (await gateway.app.services.metrics.databaseQueries.get()).values[0]!.value;
const users = async (count: number) => {
  const created = [];
  for (let i = 0; i < count; i++) created.push(await gateway.user({ plans: ['A321'] }));
  return created;
};
const me = async (token: string) => {
  const answer = await gateway.graphql<{ me: { name: string; lineCount: number } }>(
    '{ me { name lineCount authorizedPlans { planId } } }',
    { token },
  );
  expect(answer.errors).toBeUndefined();
  return answer.data!.me;
};

describe('caches bounded by CACHE_MAX_ENTRIES', () => {
  it('serve as many active users as they hold without a statement, in any order', async () => {
    const active = await users(BOUND);
    for (const { token } of active) await me(token);
    const before = await statements();
    for (const { token } of [...active].reverse()) await me(token);
    for (let i = 0; i < BOUND; i++) await me(active[(i * 37) % BOUND]!.token);
    expect(await statements()).toBe(before);
  }, 30_000);

  it('keep a busy user in memory while more users than they hold come and go once each', async () => {
    const [busy] = await users(1);
    const passing = await users(BOUND + 50);
    await me(busy!.token);
    let busyStatements = 0;
    for (const { token } of passing) {
      await me(token);
      const before = await statements();
      expect((await me(busy!.token)).lineCount).toBe(0);
      busyStatements += (await statements()) - before;
    }
    expect(busyStatements).toBe(0);
  }, 30_000);

  it('read a user again once more users than they hold have been served since', async () => {
    const [first, ...others] = await users(BOUND + 1);
    await me(first!.token);
    for (const { token } of others) await me(token);
    const before = await statements();
    await me(first!.token);
    expect(await statements()).toBeGreaterThan(before);
  }, 30_000);
});
