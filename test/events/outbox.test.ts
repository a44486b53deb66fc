// The line events outbox: every kind of state change writes one event with its transaction
// (type from the operation table, the line after the change, its owner), a refused or invalid
// write writes none, and an event committed just before a crash is relayed after the restart.

import { describe, expect, it } from 'vitest';
import type { OutboxWorkers } from '../../src/events/outbox-workers.js';
import { LineEventStore } from '../../src/events/outbox.js';
import { startGateway, startReplica } from '../support/gateway.js';
import { eventually } from '../support/eventually.js';
import { createPlans } from '../support/plans.js';
import { freshSim, seedLine } from '../support/lines.js';
import { useGateway } from '../support/use-gateway.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';
import { setFaults } from '../recovery/support.js';

const gateway = useGateway();

async function owner() {
  await createPlans(gateway);
  return gateway.user({ plans: ['BASIC', 'PREMIUM', 'TOPUP'] });
}

const eventsOf = (mdn: string) =>
  gateway.app.services.db.lineEvent.findMany({ where: { mdn }, orderBy: { seq: 'asc' } });

describe('an event per state change', () => {
  it('writes one event per successful write, typed by the operation table, with its transaction', async () => {
    const { token, user } = await owner();
    const post = async (path: string, body: Record<string, unknown>) => {
      const answer = await gateway.rest<Record<string, unknown>>('POST', path, { token, body });
      expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
      return answer.body;
    };
    const activated = await post('/sim/activate/', {
      sim: freshSim(),
      plan_id: 'BASIC',
      zip_code: '30301',
      address1: '1 Main St',
      city: 'Atlanta',
      state: 'GA',
    });
    const mdn = String(activated.mdn);
    let sim = String(activated.sim);
    const steps: [string, string, Record<string, unknown>][] = [
      ['line.suspended', '/sim/suspend/', { mdn }],
      ['line.restored', '/sim/restore/', { mdn }],
      ['line.plan_changed', '/sim/plan/change/', { mdn, new_plan_id: 'PREMIUM' }],
      ['line.feature_changed', '/sim/voicemail/language/', { mdn, language: 'SPAN' }],
      ['line.feature_changed', '/sim/voicemail/reset/', { mdn }],
      ['line.feature_changed', '/sim/device-location/cancel/', { mdn }],
    ];
    for (const [, path, body] of steps) await post(path, body);
    const purchase = await post('/sim/plan/purchase/', { mdn, plan_id: 'TOPUP' });
    await post('/sim/plan/cancel/', { mdn, purchase_id: purchase.purchase_id });
    const newSim = freshSim();
    await post('/sim/swap/', { mdn, old_sim: sim, new_sim: newSim });
    sim = newSim;
    const swapped = await post('/sim/mdn/swap/', { mdn, sim, zip_code: '30301' });
    const newMdn = String(swapped.new_mdn);
    await post('/sim/disconnect/', { mdn: newMdn, sim, acknowledge_final: true });
    await post('/sim/reconnect/', { mdn: newMdn, sim, plan_id: 'BASIC', zip_code: '30301' });

    const before = await eventsOf(mdn);
    const after = await eventsOf(newMdn);
    expect(before.map((event) => event.type)).toEqual([
      'line.activated',
      ...steps.map(([type]) => type),
      'line.purchase_made',
      'line.purchase_cancelled',
      'line.sim_swapped',
    ]);
    expect(after.map((event) => event.type)).toEqual(['line.mdn_swapped', 'line.disconnected', 'line.reconnected']);
    const transactions = await gateway.app.services.db.transaction.findMany({
      where: { id: { in: [...before, ...after].map((event) => event.transactionId!) } },
    });
    expect(transactions).toHaveLength(before.length + after.length);
    expect(transactions.every((row) => row.status === 'success')).toBe(true);
    for (const event of [...before, ...after]) {
      expect(event).toMatchObject({ ownerId: user.id, actorId: user.id, carrier: '321' });
      expect(event.id).toMatch(/^evt_[0-9a-f]{24}$/);
    }
    // Every event carries the SIM the line holds once its change is made: a SIM swap's is the new one.
    expect([...before, ...after].map((event) => [event.type, event.sim])).toEqual([
      ...before.slice(0, -1).map((event) => [event.type, String(activated.sim)]),
      ['line.sim_swapped', newSim],
      ...after.map((event) => [event.type, newSim]),
    ]);
    expect(JSON.parse(after[0]!.data)).toMatchObject({ previousMdn: mdn, newMdn });
    expect(JSON.parse(before.at(-1)!.data)).toMatchObject({ oldSim: String(activated.sim), newSim });
    // Nothing personal in the payloads (the E911 address stays out).
    expect([...before, ...after].map((event) => event.data).join()).not.toMatch(/Main St|Atlanta/);

    // The history reader: newest first, paged by occurredAt.
    const store = new LineEventStore(gateway.app.services.db);
    const page = await store.eventsOfLine(mdn, { limit: 3 });
    expect(page.map((event) => event.type)).toEqual([
      'line.sim_swapped',
      'line.purchase_cancelled',
      'line.purchase_made',
    ]);
  });

  it('writes no event for a refused, invalid, forbidden or duplicate write', async () => {
    const { token } = await owner();
    const line = await seedLine(gateway);
    const count = () => gateway.app.services.db.lineEvent.count({ where: { mdn: line.mdn } });
    // Carrier refusal: the line is already on that plan (916).
    const refused = await gateway.rest('POST', '/sim/plan/change/', {
      token,
      body: { mdn: line.mdn, new_plan_id: 'BASIC' },
    });
    expect(refused.status).toBe(400);
    const invalid = await gateway.rest('POST', '/sim/suspend/', { token, body: { mdn: 'nope' } });
    expect(invalid.status).toBe(422);
    const forbidden = await gateway.rest('POST', '/sim/plan/change/', {
      token,
      body: { mdn: line.mdn, new_plan_id: 'INTL' },
    });
    expect(forbidden.status).toBe(403);
    expect(await count()).toBe(0);
    const first = await gateway.rest('POST', '/sim/suspend/', {
      token,
      body: { mdn: line.mdn, transaction_id: `DUP-${line.sim}` },
    });
    expect(first.status).toBe(200);
    const duplicate = await gateway.rest('POST', '/sim/restore/', {
      token,
      body: { mdn: line.mdn, transaction_id: `DUP-${line.sim}` },
    });
    expect(duplicate.status).toBe(409);
    expect(await count()).toBe(1);
  });
});

describe('crash between commit and relay', () => {
  it('relays, after a restart, an event committed while no relay ran', async () => {
    const first = await startGateway({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'on', OUTBOX_POLL_MS: '100' } });
    const receiver = await startWebhookReceiver();
    try {
      // As if the process died right after the commit: the relay never runs on this replica.
      await (first.app.services.outbox as OutboxWorkers).stop();
      const { token: admin } = await first.user({ superuser: true });
      const created = await first.graphql(
        `mutation ($url: String!) { createWebhookEndpoint(input: { url: $url }) { secret } }`,
        {
          token: admin,
          variables: { url: receiver.url },
        },
      );
      expect(created.errors).toBeUndefined();
      const line = await seedLine(first);
      expect((await first.rest('POST', '/sim/suspend/', { token: admin, body: { mdn: line.mdn } })).status).toBe(200);
      const row = await first.app.services.db.lineEvent.findFirstOrThrow({ where: { mdn: line.mdn } });
      expect(row.published).toBe(false);

      const restarted = await startReplica(first, { WEBHOOK_ALLOW_PRIVATE_URLS: 'on', OUTBOX_POLL_MS: '100' });
      try {
        expect(await eventually(async () => receiver.received.length === 1, 10_000)).toBe(true);
        expect(receiver.received[0]!.body).toMatchObject({ id: row.id, type: 'line.suspended' });
        expect((await restarted.app.services.db.lineEvent.findUniqueOrThrow({ where: { id: row.id } })).published).toBe(
          true,
        );
      } finally {
        await restarted.close();
      }
    } finally {
      await receiver.close();
      await first.close();
    }
  });
});

describe('an outcome learned by recovery', () => {
  it('writes the event when the reconciler learns that a timed-out write succeeded, not before', async () => {
    const slow = await startGateway({ env: { CARRIER_TIMEOUT_MS: '300', CARRIER_RETRIES: '0' } });
    try {
      await createPlans(slow);
      const { token } = await slow.user({ plans: ['BASIC'] });
      const id = `SLOW-EVT-${Date.now()}`;
      await setFaults(slow, '321', { latency_ms: 1000 });
      let timedOut;
      try {
        timedOut = await slow.rest('POST', '/sim/activate/', {
          token,
          body: {
            sim: freshSim(),
            plan_id: 'BASIC',
            zip_code: '30301',
            address1: '1 Main St',
            city: 'Atlanta',
            state: 'GA',
            transaction_id: id,
          },
        });
      } finally {
        await setFaults(slow, '321', {});
      }
      expect(timedOut.status).toBe(400);
      const event = () => slow.app.services.db.lineEvent.findUnique({ where: { transactionId: id } });
      expect(await event()).toBeNull();
      expect(await eventually(async () => (await event()) !== null, 20_000, 100)).toBe(true);
      const row = (await event())!;
      expect(row.type).toBe('line.activated');
      expect(JSON.parse(row.data)).toMatchObject({ recovered: true, operation: 'activateSim' });
      expect((await slow.app.services.transactions.find(id))?.status).toBe('success');
    } finally {
      await slow.close();
    }
  });
});
