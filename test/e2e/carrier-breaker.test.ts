// A carrier that stops answering, seen through the gateway: after CARRIER_BREAKER_FAILURES faults
// in a row its calls are refused at once (nothing sent, CARRIER_UNAVAILABLE with Retry-After, in
// the operation's own failure envelope), the other carrier is untouched, a refused write may be
// retried under its id, and once the cooldown has passed one call tries the carrier and its
// answer lets every call through again. A hung carrier no longer holds a dashboard screen for
// the timeout of every one of its numbers.

import type { IncomingMessage } from 'node:http';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CarrierId } from '../../src/carriers/types.js';
import type { Logger } from '../../src/lib/logger.js';
import { eventually } from '../support/eventually.js';
import { seedLine, type SeededLine } from '../support/lines.js';
import { createPlans } from '../support/plans.js';
import { camelInput } from '../support/surfaces.js';
import { activationBody } from './activation/activations.js';
import { useGateway } from '../support/use-gateway.js';

const FAILURES = 3;
const COOLDOWN_MS = 500;
const logged: { level: string; message: string }[] = [];
const record =
  (level: string) =>
  (message: string): void =>
    void logged.push({ level, message });
const logger: Logger = {
  debug: () => undefined,
  info: record('info'),
  warn: record('warn'),
  error: record('error'),
};

const gateway = useGateway({
  env: {
    CARRIER_RETRIES: '0',
    CARRIER_TIMEOUT_MS: '300',
    CARRIER_BREAKER_FAILURES: String(FAILURES),
    CARRIER_BREAKER_COOLDOWN_MS: String(COOLDOWN_MS),
    LINES_CARRIER_CONCURRENCY: '2',
    BULK_JOB_CONCURRENCY: '1',
  },
  logger,
});

let token: string;
let line: SeededLine;
let lineB: SeededLine;

async function setFaults(carrier: CarrierId, faults: Record<string, number>): Promise<void> {
  const response = await fetch(`${gateway.sandboxes.urls[carrier]}/_sandbox/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(faults),
  });
  expect(response.status).toBe(200);
}

/** What `run` answers, and the paths of the requests carrier 321's sandbox received meanwhile. */
async function watchingCarrier<T>(run: () => Promise<T>): Promise<{ result: T; arrived: number; paths: string[] }> {
  const server = gateway.sandboxes.servers['321'].server;
  const paths: string[] = [];
  const onRequest = (request: IncomingMessage) =>
    void (request.url?.includes('/_sandbox/') || paths.push(request.url!));
  server.on('request', onRequest);
  try {
    const result = await run();
    return { result, arrived: paths.length, paths };
  } finally {
    server.off('request', onRequest);
  }
}

const usage = (mdn: string) => gateway.rest('GET', `/sim/usage/${mdn}`, { token });
const breakerGauge = async (carrier: CarrierId) => {
  const { values } = await gateway.app.services.metrics.carrierBreakerOpen.get();
  return values.find((value) => value.labels.carrier === carrier)?.value ?? 0;
};
const lineStatusAtCarrier = async (mdn: string) =>
  (await gateway.sandboxes.cores['321'].getServiceProfile(mdn)).lineStatus;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Opens carrier 321's breaker: FAILURES reads answered 503. */
async function openBreaker(): Promise<void> {
  await setFaults('321', { error_rate: 1 });
  for (let index = 0; index < FAILURES; index++) {
    const answer = await usage(line.mdn);
    expect(answer.body).toMatchObject({ message: 'Carrier 321 reported an internal error (CARRIER_UNAVAILABLE)' });
  }
  expect(await breakerGauge('321')).toBe(1);
}

/** Clears the faults and waits until the breaker's trial has closed it again. */
async function closeBreaker(): Promise<void> {
  await setFaults('321', {});
  expect(await eventually(async () => (await breakerGauge('321')) === 0, 10 * COOLDOWN_MS)).toBe(true);
}

beforeAll(async () => {
  ({ token } = await gateway.user());
  line = await seedLine(gateway);
  lineB = await seedLine(gateway, { carrier: 'carrier_b' });
  await createPlans(gateway);
});
afterEach(closeBreaker);

describe('a carrier that stops answering', () => {
  it('after the faults in a row, its calls are refused without being sent, with Retry-After, on both surfaces', async () => {
    await openBreaker();
    const { result: rest, arrived } = await watchingCarrier(() => usage(line.mdn));
    expect(arrived).toBe(0);
    expect(rest.status).toBe(400);
    const message = rest.body.message as string;
    expect(message).toMatch(/^Carrier 321 is not answering: .*nothing was sent\) \(CARRIER_UNAVAILABLE\)$/);
    expect(rest.body).toEqual({ status: 'failure', errors: [message], message });
    const retryAfter = Number(rest.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil(COOLDOWN_MS / 1000));

    const graphql = await gateway.graphql('query ($mdn: String!) { usage(mdn: $mdn) { status } }', {
      token,
      variables: { mdn: line.mdn },
    });
    expect(graphql.status).toBe(200);
    expect(graphql.errors?.[0]?.extensions).toMatchObject({
      code: 'CARRIER_UNAVAILABLE',
      outcomeKnown: true,
      retryAfter: expect.any(Number),
    });
    expect(logged).toContainEqual({
      level: 'warn',
      message: `carrier 321 is not answering: its calls are refused until its probe answers (first in ${COOLDOWN_MS} ms)`,
    });
  });

  it('the other carrier is not touched', async () => {
    await openBreaker();
    const answer = await usage(lineB.mdn);
    expect(answer.status).toBe(200);
    expect(await breakerGauge('carrier_b')).toBe(0);
  });

  it('after the cooldown the gateway tries the carrier with its probe, no caller’s call: an answer lets every call through again', async () => {
    await openBreaker();
    await setFaults('321', {});
    expect((await usage(line.mdn)).body.message).toMatch(/is not answering/);
    const { paths } = await watchingCarrier(async () => {
      expect(await eventually(async () => (await breakerGauge('321')) === 0, 10 * COOLDOWN_MS)).toBe(true);
    });
    expect(paths).toEqual(['/v1/coverage/10001']);
    expect((await usage(line.mdn)).status).toBe(200);
    expect(logged).toContainEqual({ level: 'info', message: 'carrier 321 answers again: its calls go through' });
  });

  it('a failed trial keeps calls refused for another cooldown', async () => {
    await openBreaker();
    const { paths } = await watchingCarrier(() => pause(COOLDOWN_MS * 1.5));
    expect(paths).toEqual(['/v1/coverage/10001']);
    expect(await breakerGauge('321')).toBe(1);
    const { result, arrived } = await watchingCarrier(() => usage(line.mdn));
    expect(arrived).toBe(0);
    expect(result.body.message).toMatch(/is not answering/);
  });

  it('a dry run is refused as the call it previews would be, without reaching the carrier', async () => {
    await openBreaker();
    const { result, arrived } = await watchingCarrier(() =>
      gateway.rest('POST', '/sim/suspend/?dry_run=true', { token, body: { mdn: line.mdn } }),
    );
    expect(arrived).toBe(0);
    expect(JSON.stringify(result.body)).toContain('is not answering');
    expect(Number(result.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('a refused write changes nothing and may be retried under its id once the carrier answers', async () => {
    await openBreaker();
    const transactionId = `BREAKER-SUSPEND-${line.mdn}`;
    const suspend = () =>
      gateway.rest('POST', '/sim/suspend/', { token, body: { mdn: line.mdn, transaction_id: transactionId } });
    const { result: refused, arrived } = await watchingCarrier(suspend);
    expect(arrived).toBe(0);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ status: 'failure', mdn: line.mdn, transaction_id: transactionId });
    const row = await gateway.app.services.transactions.find(transactionId);
    expect(row?.status).toBe('error');
    expect(await lineStatusAtCarrier(line.mdn)).toBe('ACTIVE');

    await closeBreaker();
    const retried = await suspend();
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ status: 'success', transaction_id: transactionId });
    expect(await lineStatusAtCarrier(line.mdn)).toBe('SUSPENDED');
    const restored = await gateway.rest('POST', '/sim/restore/', {
      token,
      body: { mdn: line.mdn, transaction_id: `BREAKER-RESTORE-${line.mdn}` },
    });
    expect(restored.status).toBe(200);
  });

  it('a hung carrier: a screen of its numbers waits for the first timeouts only, not one per number', async () => {
    const mdns = [line.mdn];
    for (let index = 0; index < 9; index++) mdns.push((await seedLine(gateway)).mdn);
    await setFaults('321', { latency_ms: 2_000 });
    const { result, arrived } = await watchingCarrier(() =>
      gateway.graphql<{ lines: { usage: unknown; networkStatus: unknown }[] }>(
        'query ($mdns: [String!]!) { lines(mdns: $mdns) { usage { status } networkStatus { status } } }',
        { token, variables: { mdns } },
      ),
    );
    // 20 calls asked for, 2 at a time: the first FAILURES time out (in at most two waves), the rest are refused.
    expect(arrived).toBeLessThanOrEqual(FAILURES + 1);
    expect(result.errors).toHaveLength(20);
    const codes = new Set(result.errors!.map((error) => error.extensions?.code));
    expect(codes).toEqual(new Set(['CARRIER_TIMEOUT', 'CARRIER_UNAVAILABLE']));
  });

  it('a bulk job waits for the carrier instead of failing the rest of its SIMs, and sends them once it answers', async () => {
    const { token: bulkToken } = await gateway.user({ plans: ['A321'] });
    const items = Array.from({ length: 8 }, () => activationBody({ plan_id: 'A321' }));
    await setFaults('321', { error_rate: 1 });
    const started = await gateway.graphql<{ startBulkActivation: { id: string } }>(
      'mutation ($input: StartBulkActivationInput!) { startBulkActivation(input: $input) { id } }',
      { token: bulkToken, variables: { input: { activations: items.map(camelInput) } } },
    );
    const jobId = started.data!.startBulkActivation.id;
    interface View {
      status: string;
      processed: number;
      results: { sim: string; status: string; message: string; transactionId: string }[];
    }
    const view = async () =>
      (
        await gateway.graphql<{ bulkActivation: View }>(
          'query ($id: String!) { bulkActivation(id: $id, first: 100) { status processed results { sim status message transactionId } } }',
          { token: bulkToken, variables: { id: jobId } },
        )
      ).data!.bulkActivation;
    // The faults open the breaker; the job then holds its next SIM instead of failing it, through
    // several failed trials (the probe's, never one of its SIMs).
    expect(await eventually(async () => (await breakerGauge('321')) === 1, 10_000)).toBe(true);
    const { paths } = await watchingCarrier(() => pause(3 * COOLDOWN_MS));
    expect(new Set(paths)).toEqual(new Set(['/v1/coverage/10001']));
    expect((await view()).status).toBe('RUNNING');

    await setFaults('321', {});
    expect(await eventually(async () => (await view()).status === 'COMPLETED', 20_000)).toBe(true);
    const ended = await view();
    expect(ended.results.map((entry) => entry.sim)).toEqual(items.map((item) => item.sim));
    expect(ended.results.filter((entry) => /is not answering/.test(entry.message))).toEqual([]);
    const sent = ended.results.slice(FAILURES);
    expect(sent.every((entry) => entry.status === 'SUCCESS')).toBe(true);
    // The SIM that waited was tried twice in all: turned away once, then sent when the breaker
    // closed (the job waits on the breaker, not by trying it again only to be turned away).
    const rows = await Promise.all(
      ended.results.map((entry) => gateway.app.services.transactions.find(entry.transactionId)),
    );
    const attempts = rows.map((row) => row?.earlierAttempts ?? 0);
    expect(attempts.filter((count) => count > 0)).toEqual([1]);
  });

  it('the synchronous batch (REST) answers at once: a SIM the breaker turned away is its failure', async () => {
    const { token: bulkToken } = await gateway.user({ plans: ['A321'] });
    const items = Array.from({ length: FAILURES + 2 }, () => activationBody({ plan_id: 'A321' }));
    await setFaults('321', { error_rate: 1 });
    const answer = await gateway.rest<{ results: { sim: string; status: string; message: string }[] }>(
      'POST',
      '/sim/activate/bulk/',
      { token: bulkToken, body: { activations: items } },
    );
    expect(answer.status).toBe(200);
    const turnedAway = answer.body.results.slice(FAILURES);
    expect(turnedAway.map((entry) => entry.sim)).toEqual(items.slice(FAILURES).map((item) => item.sim));
    for (const entry of turnedAway) {
      expect(entry.status).toBe('failure');
      expect(entry.message).toMatch(/^Carrier 321 is not answering: .*\(CARRIER_UNAVAILABLE\)$/);
    }
  });
});
