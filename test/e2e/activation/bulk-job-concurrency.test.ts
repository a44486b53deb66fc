// A bulk activation job runs its SIMs side by side, never more than BULK_JOB_CONCURRENCY at once
// (counted at the sandbox carrier's own HTTP server), and still answers its entries in the SIMs'
// order, each SIM activated once, with its transaction row, line and line event written. Jobs
// side by side share BULK_REPLICA_CONCURRENCY: together they never have more at the carrier.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPlans } from '../../support/plans.js';
import { useGateway } from '../../support/use-gateway.js';
import { setFaults } from '../../recovery/support.js';
import { activationBody, runBulkJob, type BulkEntry } from './activations.js';

const BOUND = 3;
const REPLICA_BOUND = 4;
const gateway = useGateway({
  env: {
    BULK_JOB_CONCURRENCY: String(BOUND),
    BULK_REPLICA_CONCURRENCY: String(REPLICA_BOUND),
    CARRIER_RETRIES: '0',
  },
});
beforeAll(async () => {
  await createPlans(gateway);
});

/** Most activation requests the carrier was answering at once while `run` ran. */
async function peakActivationsInFlight(run: () => Promise<void>): Promise<number> {
  const server = gateway.sandboxes.servers['321'].server;
  let inFlight = 0;
  let peak = 0;
  const onRequest = (request: IncomingMessage, response: ServerResponse) => {
    if (request.method !== 'POST' || request.url?.startsWith('/_sandbox')) return;
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    response.once('close', () => (inFlight -= 1));
  };
  server.on('request', onRequest);
  try {
    await run();
  } finally {
    server.off('request', onRequest);
  }
  return peak;
}

/** `run` while each activation takes a while at the carrier, so that the SIMs in flight overlap. */
async function withSlowActivations(run: () => Promise<void>): Promise<number> {
  await setFaults(gateway, '321', { latency_ms: 40 });
  try {
    return await peakActivationsInFlight(run);
  } finally {
    await setFaults(gateway, '321', { latency_ms: 0 });
  }
}

describe('a bulk activation job with bounded concurrency', () => {
  it('has at most BULK_JOB_CONCURRENCY SIMs at the carrier and answers in the SIMs’ order', async () => {
    const { token, user } = await gateway.user({ plans: ['BASIC'] });
    const items = Array.from({ length: 15 }, () => activationBody());
    let entries: BulkEntry[] = [];
    const peak = await withSlowActivations(async () => {
      entries = await runBulkJob(gateway, token, items);
    });
    expect(peak).toBeLessThanOrEqual(BOUND);
    expect(peak).toBeGreaterThan(1);

    expect(entries.map((entry) => entry.sim)).toEqual(items.map((item) => String(item.sim)));
    expect(entries.every((entry) => entry.status === 'SUCCESS')).toBe(true);
    const core = gateway.sandboxes.cores['321'];
    const { db } = gateway.app.services;
    for (const entry of entries) {
      expect(core.activationCalls(entry.sim)).toEqual({ requests: 1, transactionIds: [entry.transactionId] });
      const row = await db.transaction.findUnique({ where: { id: entry.transactionId } });
      expect(row).toMatchObject({ status: 'success', httpStatus: 200, mdn: entry.mdn, request: null });
      expect(await db.line.findUnique({ where: { mdn: entry.mdn! } })).toMatchObject({
        sim: entry.sim,
        ownerId: user.id,
      });
      const events = await db.lineEvent.findMany({ where: { transactionId: entry.transactionId } });
      expect(events).toMatchObject([{ type: 'line.activated', mdn: entry.mdn, ownerId: user.id }]);
    }
  });

  it('shares BULK_REPLICA_CONCURRENCY between jobs running side by side, each completing in full', async () => {
    const owners = await Promise.all([0, 1, 2].map(() => gateway.user({ plans: ['BASIC'] })));
    const jobs = owners.map(() => Array.from({ length: 12 }, () => activationBody()));
    let results: BulkEntry[][] = [];
    const peak = await withSlowActivations(async () => {
      results = await Promise.all(owners.map(({ token }, index) => runBulkJob(gateway, token, jobs[index]!)));
    });
    // Three jobs of bound 3 would have 9 at the carrier; the replica's bound holds them to 4, and
    // they did run side by side (one job alone never exceeds 3).
    expect(peak).toBe(REPLICA_BOUND);
    results.forEach((entries, index) => {
      expect(entries.map((entry) => entry.sim)).toEqual(jobs[index]!.map((item) => String(item.sim)));
      expect(entries.every((entry) => entry.status === 'SUCCESS')).toBe(true);
    });
  });
});
