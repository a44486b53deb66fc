// SIGTERM with subscriptions open, against the compiled gateway as a process: draining completes
// every open stream at once (`lineEvents` read as raw Server-Sent Events, as curl would;
// `bulkActivationProgress` through graphql-sse in its distinct connections mode), each ending
// with its `complete` event and a proper end of the response, while a request in flight still
// gets its answer within the grace period; then the process exits 0. The grace period is far
// longer than the test's timeout, so a stream holding the drain open fails the test; and the
// job's SIM is at a slower carrier than the request in flight, so a progress stream that waited
// for the job's next progress would end after that request's answer, not before it.

import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'graphql-sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openData } from '../../src/app/data.js';
import { loadConfig } from '../../src/config.js';
import { freshSim } from '../support/lines.js';
import { startCompiledGateway, type RunningProcess } from '../support/processes.js';

let dir: string;
let env: Record<string, string>;
const started: RunningProcess[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'line-gateway-drain-'));
  env = {
    DATABASE_URL: `file:${join(dir, 'gateway.db')}`,
    DATA_DIR: dir,
    PORT: '0',
    LOG_LEVEL: 'info',
    JWT_SECRET: 'a-test-secret-that-is-long-enough-0123456789',
    // Were the streams to hold the drain, the process would outlive the test.
    SHUTDOWN_GRACE_MS: '600000',
    CARRIER_TIMEOUT_MS: '30000',
  };
});
afterAll(() => {
  for (const running of started) if (running.child.exitCode === null) running.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A user authorized for a plan of carrier 321 who prefers carrier_b (where a number the gateway
 * has not seen goes), and a token, made on the gateway's database as the admin CLI would.
 */
async function userWithPlan(): Promise<string> {
  const data = await openData(loadConfig(env));
  try {
    const user = await data.directory.createUser({ name: `drain${Date.now()}`, carrierPreference: 'carrier_b' });
    await data.directory.createPlan({ planId: 'BASIC', name: 'Basic', carrierPlanId: 'BASIC1GB', carrier: '321' });
    await data.directory.authorize(user.name, ['BASIC']);
    return (await data.tokens.issue(user, '1h')).token;
  } finally {
    await data.close();
  }
}

interface RawStream {
  /** Resolves once the gateway has started the stream (its first bytes, a comment, are in). */
  opened: Promise<void>;
  /** Resolves with what was received once the response ended properly; rejects if it was cut. */
  ended: Promise<string>;
}

/** A subscription read as raw Server-Sent Events over node:http. */
function rawStream(url: string, token: string, query: string): RawStream {
  let opened!: () => void;
  const openedPromise = new Promise<void>((resolve) => (opened = resolve));
  const ended = new Promise<string>((resolve, reject) => {
    const request = httpRequest(
      `${url}/graphql`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
          opened();
        });
        response.on('aborted', () => reject(new Error(`stream cut after ${JSON.stringify(text)}`)));
        response.on('error', reject);
        response.on('end', () => resolve(text));
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify({ query }));
  });
  return { opened: openedPromise, ended };
}

/** A GET whose `sent` resolves once the request is on the wire (so it is in flight). */
function slowRequest(url: string, token: string): { sent: Promise<void>; answer: Promise<number> } {
  let sent!: () => void;
  const sentPromise = new Promise<void>((resolve) => (sent = resolve));
  const answer = new Promise<number>((resolve, reject) => {
    const request = httpRequest(url, { headers: { authorization: `Bearer ${token}` } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
    request.end(() => sent());
  });
  return { sent: sentPromise, answer };
}

/** Sets the latency of one of the gateway's in-process sandbox carriers (their URLs are in its start-up log). */
async function slowCarrier(running: RunningProcess, carrier: '321' | 'carrier_b', latencyMs: number): Promise<void> {
  const line = running.output.stderr.split('\n').find((text) => text.includes('sandbox carriers running in-process'));
  const urls = JSON.parse(line!) as Record<string, string>;
  const answer = await fetch(`${urls[carrier]}/_sandbox/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ latency_ms: latencyMs }),
  });
  expect(answer.status).toBe(200);
}

describe('SIGTERM with subscriptions open', () => {
  it('completes every open stream at once, lets the request in flight finish, and exits 0', async () => {
    const token = await userWithPlan();
    const { running, url } = await startCompiledGateway(env);
    started.push(running);
    // The job's SIM (321) is at its carrier well after the request in flight (carrier_b) is answered.
    await slowCarrier(running, '321', 8000);
    await slowCarrier(running, 'carrier_b', 2000);

    // A bulk job whose one SIM is at the (slow) carrier: its progress stream has no end in sight.
    const job = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation ($input: StartBulkActivationInput!) { startBulkActivation(input: $input) { id } }',
        variables: {
          input: {
            activations: [
              {
                sim: freshSim(),
                planId: 'BASIC',
                zipCode: '30301',
                address1: '1 Main St',
                city: 'Atlanta',
                state: 'GA',
              },
            ],
          },
        },
      }),
    });
    const jobId = ((await job.json()) as { data: { startBulkActivation: { id: string } } }).data.startBulkActivation.id;

    const order: string[] = [];
    const events = rawStream(url, token, 'subscription { lineEvents { id type mdn } }');
    const progress = createClient({
      url: `${url}/graphql`,
      headers: { authorization: `Bearer ${token}` },
      retryAttempts: 0,
    }).iterate<{ bulkActivationProgress: { status: string } }>({
      query: 'subscription ($id: String!) { bulkActivationProgress(id: $id) { status } }',
      variables: { id: jobId },
    });
    // Its first event is the job as it stands: the stream is open at the gateway.
    const first = await progress.next();
    expect(first.done).toBe(false);
    expect(first.value?.data?.bulkActivationProgress.status).toMatch(/^(QUEUED|RUNNING)$/);
    await events.opened;
    const progressEnded = (async () => {
      for (;;) if ((await progress.next()).done) return;
    })().then(() => order.push('progress stream completed'));
    const eventsEnded = events.ended.then((text) => {
      order.push('lineEvents stream completed');
      return text;
    });

    const inFlight = slowRequest(`${url}/sim/usage/6465559999`, token);
    await inFlight.sent;
    running.child.kill('SIGTERM');
    const answered = inFlight.answer.then((status) => {
      order.push('request in flight answered');
      return status;
    });
    const exited = running.done.then((exit) => {
      order.push('process exited');
      return exit;
    });

    const [text, , status, exit] = await Promise.all([eventsEnded, progressEnded, answered, exited]);
    // The raw stream ended properly, with its `complete` event last.
    expect(text.endsWith('event: complete\ndata:\n\n')).toBe(true);
    // Its carrier answers the request seconds after SIGTERM: the streams ended before, not at the drain's end.
    expect(status).toBe(400);
    expect(order.indexOf('request in flight answered')).toBeGreaterThan(order.indexOf('lineEvents stream completed'));
    expect(order.indexOf('request in flight answered')).toBeGreaterThan(order.indexOf('progress stream completed'));
    expect(order.at(-1)).toBe('process exited');
    expect(exit.code).toBe(0);
    expect(exit.stderr).toMatch(/SIGTERM: draining/);
    expect(exit.stderr).toContain('"stopped"');
  }, 90_000);
});
