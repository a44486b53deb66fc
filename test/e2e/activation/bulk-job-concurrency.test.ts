// A bulk activation job runs its SIMs side by side, never more than BULK_JOB_CONCURRENCY at once
// (counted at the sandbox carrier's own HTTP server), and still answers its entries in the SIMs'
// order, each SIM activated once, with its transaction row, line and line event written.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { createPlans } from '../../support/plans.js';
import { camelInput } from '../../support/surfaces.js';
import { useGateway } from '../../support/use-gateway.js';
import { setFaults } from '../../recovery/support.js';
import { activationBody } from './activations.js';

const BOUND = 3;
const gateway = useGateway({ env: { BULK_JOB_CONCURRENCY: String(BOUND), CARRIER_RETRIES: '0' } });
beforeAll(async () => {
  await createPlans(gateway);
});

interface Entry {
  sim: string;
  status: string;
  transactionId: string;
  mdn: string | null;
}

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

describe('a bulk activation job with bounded concurrency', () => {
  it('has at most BULK_JOB_CONCURRENCY SIMs at the carrier and answers in the SIMs’ order', async () => {
    const { token, user } = await gateway.user({ plans: ['BASIC'] });
    const items = Array.from({ length: 15 }, () => activationBody());
    let jobId = '';
    let entries: Entry[] = [];
    // Each activation takes a while at the carrier, so that the SIMs in flight overlap.
    await setFaults(gateway, '321', { latency_ms: 40 });
    let peak: number;
    try {
      peak = await peakActivationsInFlight(async () => {
        const started = await gateway.graphql<{ startBulkActivation: { id: string } }>(
          'mutation ($input: StartBulkActivationInput!) { startBulkActivation(input: $input) { id } }',
          { token, variables: { input: { activations: items.map(camelInput) } } },
        );
        expect(started.errors).toBeUndefined();
        jobId = started.data!.startBulkActivation.id;
        const done = await eventually(async () => {
          const view = await gateway.graphql<{ bulkActivation: { status: string; results: Entry[] } }>(
            'query ($id: String!) { bulkActivation(id: $id, first: 100) { status results { sim status transactionId mdn } } }',
            { token, variables: { id: jobId } },
          );
          entries = view.data?.bulkActivation.results ?? [];
          return view.data?.bulkActivation.status === 'COMPLETED';
        }, 60_000);
        expect(done).toBe(true);
      });
    } finally {
      await setFaults(gateway, '321', { latency_ms: 0 });
    }
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
});
