// The bulkActivationProgress subscription over Server-Sent Events with a real graphql-sse client
// on a real port: the job's progress from the moment of subscribing, after each SIM, ending with
// COMPLETED and the stream closed; another user's job is NOT_FOUND before anything streams; an
// anonymous subscription is refused 401; and an SSE client that curl would be gets the same.

import { createClient } from 'graphql-sse';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPlans } from '../../support/plans.js';
import { camelInput } from '../../support/surfaces.js';
import { useGateway } from '../../support/use-gateway.js';
import { setFaults } from '../../recovery/support.js';
import { activationBody } from './activations.js';

const gateway = useGateway({ listen: true });
beforeAll(async () => {
  await createPlans(gateway);
});

const PROGRESS = `subscription ($id: String!) {
  bulkActivationProgress(id: $id) { jobId status total processed succeeded failed }
}`;

interface Progress {
  jobId: string;
  status: string;
  total: number;
  processed: number;
  succeeded: number;
  failed: number;
}

const sseClient = (token?: string) =>
  createClient({
    url: `${gateway.url}/graphql`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
  });

async function startJob(token: string, size: number): Promise<string> {
  const items = Array.from({ length: size }, () => camelInput(activationBody()));
  const answer = await gateway.graphql<{ startBulkActivation: { id: string } }>(
    `mutation ($input: StartBulkActivationInput!) { startBulkActivation(input: $input) { id } }`,
    { token, variables: { input: { activations: items } } },
  );
  expect(answer.errors).toBeUndefined();
  return answer.data!.startBulkActivation.id;
}

describe('bulkActivationProgress over SSE', () => {
  it('streams the job’s progress after each SIM and ends with its completion', async () => {
    const { token } = await gateway.user({ plans: ['BASIC'] });
    // Slow enough that the subscription starts while the job runs: three rounds of 16 SIMs in
    // flight (the default concurrency) at 50 ms each.
    const size = 48;
    await setFaults(gateway, '321', { latency_ms: 50 });
    const client = sseClient(token);
    try {
      const id = await startJob(token, size);
      const seen: Progress[] = [];
      for await (const result of client.iterate<{ bulkActivationProgress: Progress }>({
        query: PROGRESS,
        variables: { id },
      })) {
        expect(result.errors).toBeUndefined();
        seen.push(result.data!.bulkActivationProgress);
      }
      const last = seen.at(-1)!;
      expect(last).toEqual({
        jobId: id,
        status: 'COMPLETED',
        total: size,
        processed: size,
        succeeded: size,
        failed: 0,
      });
      // In order, never backwards, and more than the end alone.
      expect(seen.length).toBeGreaterThan(1);
      const counts = seen.map((progress) => progress.processed);
      expect([...counts].sort((a, b) => a - b)).toEqual(counts);
    } finally {
      client.dispose();
      await setFaults(gateway, '321', { latency_ms: 0 });
    }
  });

  it('answers a finished job with its last state and closes', async () => {
    const { token } = await gateway.user({ plans: ['BASIC'] });
    const id = await startJob(token, 1);
    const client = sseClient(token);
    try {
      let seen: Progress[] = [];
      // Subscribing until the job is seen finished (the first subscription may catch it running).
      while (seen.at(-1)?.status !== 'COMPLETED') {
        seen = [];
        for await (const result of client.iterate<{ bulkActivationProgress: Progress }>({
          query: PROGRESS,
          variables: { id },
        }))
          seen.push(result.data!.bulkActivationProgress);
      }
      const again: Progress[] = [];
      for await (const result of client.iterate<{ bulkActivationProgress: Progress }>({
        query: PROGRESS,
        variables: { id },
      }))
        again.push(result.data!.bulkActivationProgress);
      expect(again).toEqual([{ jobId: id, status: 'COMPLETED', total: 1, processed: 1, succeeded: 1, failed: 0 }]);
    } finally {
      client.dispose();
    }
  });

  it('refuses another user’s job with NOT_FOUND before streaming anything', async () => {
    const { token: owner } = await gateway.user({ plans: ['BASIC'] });
    const { token: other } = await gateway.user({ plans: ['BASIC'] });
    const id = await startJob(owner, 1);
    const client = sseClient(other);
    try {
      const results = [];
      for await (const result of client.iterate({ query: PROGRESS, variables: { id } })) results.push(result);
      expect(results).toHaveLength(1);
      expect(results[0]!.data ?? null).toBeNull();
      expect(results[0]!.errors?.[0]).toMatchObject({
        message: expect.stringMatching(/not found/),
        extensions: { code: 'NOT_FOUND', status: 404 },
      });
    } finally {
      client.dispose();
    }
  });

  it('refuses an anonymous subscription with 401', async () => {
    const response = await fetch(`${gateway.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: PROGRESS, variables: { id: 'x' } }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    await response.body?.cancel();
  });

  it('serves a plain text/event-stream request (the README’s curl example)', async () => {
    const { token } = await gateway.user({ plans: ['BASIC'] });
    const id = await startJob(token, 2);
    const response = await fetch(`${gateway.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: PROGRESS, variables: { id } }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await response.text();
    expect(text).toMatch(/event: next\ndata: \{"data":\{"bulkActivationProgress":\{"jobId":/);
    expect(text).toContain('"status":"COMPLETED"');
    expect(text).toMatch(/event: complete/);
  });
});
