// The rows a bulk activation job writes with its batched SQL statements (SQLite) read back through
// Prisma exactly as those of the same activation made alone: the transaction row, the line and
// its event, for a success and for a carrier's refusal, several SIMs in flight at once.

import { beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { createPlans } from '../../support/plans.js';
import { camelInput } from '../../support/surfaces.js';
import { useGateway } from '../../support/use-gateway.js';
import { setFaults } from '../../recovery/support.js';
import { activateOnGraphQL, activationBody, runBulkJob, type BulkEntry } from './activations.js';
import { createJob } from '../../../src/operations/activation/bulk-jobs/job-store.js';
import type { ActivationFields } from '../../../src/operations/activation/fields.js';

// The relay's own poll is left out of reach, so that only the wake-ups of commits publish events.
const gateway = useGateway({ env: { BULK_JOB_CONCURRENCY: '4', CARRIER_RETRIES: '0', OUTBOX_POLL_MS: '600000' } });
beforeAll(async () => {
  await createPlans(gateway);
});

/** A row without what differs between two activations (ids, SIM, MDN, times), times checked to be dates. */
function shape<T extends Record<string, unknown>>(row: T | null, varying: readonly string[]): Record<string, unknown> {
  expect(row).not.toBeNull();
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row!)) {
    if (value instanceof Date) expect(Number.isNaN(value.getTime())).toBe(false);
    else if (!varying.includes(key)) kept[key] = key === 'response' ? Object.keys(JSON.parse(String(value))) : value;
  }
  return kept;
}

const TRANSACTION_VARYING = ['id', 'userId', 'sim', 'mdn'];
const LINE_VARYING = ['mdn', 'sim', 'ownerId'];
// Whether, and when, the relay has published an event yet is the relay's timing, not the row's content.
const EVENT_VARYING = [
  'seq',
  'id',
  'mdn',
  'sim',
  'ownerId',
  'transactionId',
  'actorId',
  'data',
  'published',
  'publishedAt',
];

describe('a bulk activation job’s batched rows', () => {
  it('are those a lone activation writes', async () => {
    const { token, user } = await gateway.user({ plans: ['BASIC'] });
    const { db } = gateway.app.services;
    const success = () => activationBody();
    const refused = () => activationBody({ zip_code: '99999' });

    const lone = { success: success(), refused: refused() };
    const loneIds: Record<string, string> = {};
    for (const [kind, body] of Object.entries(lone)) {
      const answer = await activateOnGraphQL(gateway, token, body);
      loneIds[kind] = (answer.data as { activateSim: { transactionId: string } }).activateSim.transactionId;
    }

    const items = Array.from({ length: 12 }, (_, index) => (index % 4 === 3 ? refused() : success()));
    // Each activation takes a while at the carrier, so that the SIMs in flight share their batches.
    await setFaults(gateway, '321', { latency_ms: 30 });
    let entries: BulkEntry[] = [];
    try {
      entries = await runBulkJob(gateway, token, items);
    } finally {
      await setFaults(gateway, '321', { latency_ms: 0 });
    }
    expect(entries.map((entry) => entry.status)).toEqual(
      items.map((_, index) => (index % 4 === 3 ? 'FAILURE' : 'SUCCESS')),
    );

    const loneSuccess = await db.transaction.findUnique({ where: { id: loneIds.success! } });
    const loneRefused = await db.transaction.findUnique({ where: { id: loneIds.refused! } });
    const loneLine = await db.line.findUnique({ where: { mdn: loneSuccess!.mdn! } });
    const loneEvents = await db.lineEvent.findMany({ where: { transactionId: loneIds.success! } });
    for (const entry of entries) {
      const row = await db.transaction.findUnique({ where: { id: entry.transactionId } });
      if (entry.status === 'FAILURE') {
        expect(shape(row, TRANSACTION_VARYING)).toEqual(shape(loneRefused, TRANSACTION_VARYING));
        continue;
      }
      expect(row).toMatchObject({ userId: user.id, sim: entry.sim, mdn: entry.mdn });
      expect(shape(row, TRANSACTION_VARYING)).toEqual(shape(loneSuccess, TRANSACTION_VARYING));
      const line = await db.line.findUnique({ where: { mdn: entry.mdn! } });
      expect(line).toMatchObject({ sim: entry.sim, ownerId: user.id });
      expect(shape(line, LINE_VARYING)).toEqual(shape(loneLine, LINE_VARYING));
      const events = await db.lineEvent.findMany({ where: { transactionId: entry.transactionId } });
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ mdn: entry.mdn, sim: entry.sim, ownerId: user.id });
      expect(shape(events[0]!, EVENT_VARYING)).toEqual(shape(loneEvents[0]!, EVENT_VARYING));
    }
  });

  it('include the items of a new job, as the model API writes them', async () => {
    const { user } = await gateway.user({ plans: ['BASIC'] });
    const { db } = gateway.app.services;
    // More items than one INSERT takes (500), so that the chunks join up.
    const items = Array.from({ length: 501 }, (_, index) => ({
      input: camelInput(activationBody()) as unknown as ActivationFields,
      transactionId: `ROWS_${index}`,
    }));
    const job = (rawSql: boolean) => createJob(db, { ownerId: user.id, batch: undefined, items }, rawSql);
    const [bySql, byModel] = [await job(true), await job(false)];
    const read = (jobId: string) =>
      db.bulkActivationItem
        .findMany({ where: { jobId }, orderBy: { position: 'asc' } })
        .then((rows) => rows.map(({ jobId: _, ...row }) => row));
    const written = await read(bySql);
    expect(written).toHaveLength(501);
    expect(written[500]).toMatchObject({ position: 500, transactionId: 'ROWS_500', status: 'pending', result: null });
    expect(written).toEqual(await read(byModel));
  });

  it('have their line events relayed, the last batch’s too, though a job wakes the relay at most every 100 ms', async () => {
    const { token } = await gateway.user({ plans: ['BASIC'] });
    const { db, events } = gateway.app.services;
    const heard = new Set<string>();
    const iterator = events.pubsub.subscribe('line-event')[Symbol.asyncIterator]();
    const listening = (async () => {
      for (let next = await iterator.next(); !next.done; next = await iterator.next())
        if (next.value.transactionId) heard.add(next.value.transactionId);
    })();
    await setFaults(gateway, '321', { latency_ms: 20 });
    try {
      const started = await gateway.graphql<{ startBulkActivation: { id: string } }>(
        'mutation ($input: StartBulkActivationInput!) { startBulkActivation(input: $input) { id } }',
        {
          token,
          variables: { input: { activations: Array.from({ length: 10 }, () => camelInput(activationBody())) } },
        },
      );
      const jobId = started.data!.startBulkActivation.id;
      let ids: string[] = [];
      expect(
        await eventually(async () => {
          const view = await gateway.graphql<{ bulkActivation: { status: string; results: BulkEntry[] } }>(
            'query ($id: String!) { bulkActivation(id: $id, first: 100) { status results { transactionId } } }',
            { token, variables: { id: jobId } },
          );
          ids = view.data?.bulkActivation.results.map((entry) => entry.transactionId) ?? [];
          return view.data?.bulkActivation.status === 'COMPLETED';
        }, 60_000),
      ).toBe(true);
      expect(ids).toHaveLength(10);
      expect(await eventually(async () => ids.every((id) => heard.has(id)), 2_000)).toBe(true);
      const rows = await db.lineEvent.findMany({ where: { transactionId: { in: ids } } });
      expect(rows.map((row) => row.published)).toEqual(ids.map(() => true));
    } finally {
      await setFaults(gateway, '321', { latency_ms: 0 });
      await iterator.return?.();
      await listening;
    }
  });
});
