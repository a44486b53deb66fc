// Per-user, per-operation rate limits: 429 with Retry-After and the spec-style body on REST,
// RATE_LIMITED on GraphQL, one budget for both surfaces, no overshoot under concurrency, and
// one shared budget for replicas that share Redis.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway, statusesOf, startReplica } from '../support/gateway.js';
import { REDIS_URL, redisAvailable } from '../support/redis.js';
import { errorOf } from '../support/surfaces.js';
import { useGateway } from '../support/use-gateway.js';

const gateway = useGateway();

const UNKNOWN_MDN = '5550009999';
const suspend = (target: TestGateway, token: string, body: Record<string, unknown> = { mdn: UNKNOWN_MDN }) =>
  target.rest('POST', '/sim/suspend/', { token, body });
const suspendOnGraphQL = (target: TestGateway, token: string) =>
  target.graphql(`mutation { suspendLine(input: { mdn: "${UNKNOWN_MDN}" }) { status } }`, { token });

async function spend(target: TestGateway, token: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await suspend(target, token)).status);
  return statuses;
}

describe('one replica', () => {
  it('answers 429 with Retry-After and the body once 20/min is spent, and RATE_LIMITED on GraphQL', async () => {
    const { token } = await gateway.user();
    expect(await spend(gateway, token, 20)).toEqual(Array(20).fill(400));
    const refused = await suspend(gateway, token);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      status: 'failure',
      message: 'Rate limit exceeded: 20 per 1 minute',
      code: 'HTTP_429',
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const graphql = await suspendOnGraphQL(gateway, token);
    expect(statusesOf(graphql)).toEqual({ http: 200, rest: 429 });
    expect(errorOf(graphql)).toEqual({ code: 'RATE_LIMITED', message: 'Rate limit exceeded: 20 per 1 minute' });
    expect(Number(graphql.errors?.[0]?.extensions?.retryAfter)).toBeGreaterThan(0);
  });

  it('counts REST and GraphQL calls against one budget', async () => {
    const { token } = await gateway.user();
    for (let i = 0; i < 10; i++) expect((await suspendOnGraphQL(gateway, token)).errors).toBeUndefined();
    expect(await spend(gateway, token, 10)).toEqual(Array(10).fill(400));
    expect((await suspend(gateway, token)).status).toBe(429);
  });

  it('keeps budgets per user and per operation', async () => {
    const { token: spent } = await gateway.user();
    const { token: other } = await gateway.user();
    await spend(gateway, spent, 20);
    expect((await suspend(gateway, spent)).status).toBe(429);
    // Another user is not affected.
    expect((await suspend(gateway, other)).status).toBe(400);
    // Another operation of the same user is not affected.
    expect((await gateway.rest('GET', `/sim/usage/${UNKNOWN_MDN}`, { token: spent })).status).toBe(400);
  });

  it('lets exactly 20 of 30 concurrent requests through a 20/min limit', async () => {
    const { token } = await gateway.user();
    const statuses = await Promise.all(
      Array.from({ length: 30 }, () => suspend(gateway, token).then((answer) => answer.status)),
    );
    expect(statuses.filter((status) => status !== 429)).toHaveLength(20);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
  });

  it('refuses before validation and the carrier: a limited request changes nothing', async () => {
    const { token } = await gateway.user();
    await spend(gateway, token, 20);
    const id = `LIMITED-${Date.now()}`;
    const refused = await suspend(gateway, token, { mdn: 'bad', transaction_id: id });
    expect(refused.status).toBe(429);
    expect(await gateway.app.services.transactions.find(id)).toBeNull();
  });

  it('does not count requests refused earlier (unauthenticated)', async () => {
    for (let i = 0; i < 25; i++)
      expect((await gateway.rest('POST', '/sim/suspend/', { body: { mdn: UNKNOWN_MDN } })).status).toBe(401);
  });
});

describe('two replicas sharing Redis', () => {
  let available = false;
  let first: TestGateway | undefined;
  let second: TestGateway | undefined;

  beforeAll(async () => {
    available = await redisAvailable();
    if (!available) return;
    first = await startGateway({ env: { REDIS_URL } });
    second = await startReplica(first, { REDIS_URL });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('share one budget', async (context) => {
    if (!available) return context.skip('no Redis answers at ' + REDIS_URL);
    const { token } = await first!.user();
    expect(await spend(first!, token, 10)).toEqual(Array(10).fill(400));
    expect(await spend(second!, token, 10)).toEqual(Array(10).fill(400));
    expect((await suspend(first!, token)).status).toBe(429);
    const refused = await suspend(second!, token);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('let exactly 20 of 30 concurrent requests through across both', async (context) => {
    if (!available) return context.skip('no Redis answers at ' + REDIS_URL);
    const { token } = await first!.user();
    const statuses = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        suspend(index % 2 ? first! : second!, token).then((answer) => answer.status),
      ),
    );
    expect(statuses.filter((status) => status !== 429)).toHaveLength(20);
  });
});
