// Webhooks end to end: a real receiver on 127.0.0.1 gets signed, verifiable line events in the
// order the writes happened; a receiver that fails twice gets the event exactly once more after
// its failures, every attempt recorded; a replay sends the same event id again.

import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlans } from '../support/plans.js';
import { eventually } from '../support/eventually.js';
import { seedLine, type SeededLine } from '../support/lines.js';
import { useGateway } from '../support/use-gateway.js';
import { startWebhookReceiver, type ReceivedDelivery, type WebhookReceiver } from '../support/webhook-receiver.js';

const gateway = useGateway({
  env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'on', WEBHOOK_RETRY_BASE_MS: '20', OUTBOX_POLL_MS: '100' },
});
let receiver: WebhookReceiver;
let admin: string;
let owner: string;
let ownerId: string;
let secret: string;
let endpointId: string;

/** The check docs/webhooks.md shows receivers, written out independently of the gateway's code. */
function verify(header: string, rawBody: string, key: string): boolean {
  const fields = Object.fromEntries(header.split(',').map((part) => part.split('=') as [string, string]));
  const timestamp = Number(fields.t);
  if (!Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > 300) return false;
  const expected = createHmac('sha256', key).update(`${fields.t}.${rawBody}`).digest();
  const given = Buffer.from(fields.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const post = (path: string, body: Record<string, unknown>) => gateway.rest('POST', path, { token: owner, body });

const deliveriesFor = (mdn: string): ReceivedDelivery[] =>
  receiver.received.filter((delivery) => delivery.body.data.mdn === mdn);

async function ownedLine(): Promise<SeededLine> {
  const line = await seedLine(gateway);
  await gateway.app.services.lines.setOwner(line.mdn, ownerId);
  return line;
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  await createPlans(gateway);
  ({ token: admin } = await gateway.user({ superuser: true }));
  ({
    token: owner,
    user: { id: ownerId },
  } = await gateway.user({ plans: ['BASIC', 'PREMIUM', 'TOPUP'] }));
  const created = await gateway.graphql<{
    createWebhookEndpoint: { endpoint: { id: string; url: string; eventTypes: string[] }; secret: string };
  }>(
    `mutation ($url: String!) { createWebhookEndpoint(input: { url: $url }) { endpoint { id url eventTypes active } secret } }`,
    {
      token: admin,
      variables: { url: receiver.url },
    },
  );
  expect(created.errors).toBeUndefined();
  ({ secret } = created.data!.createWebhookEndpoint);
  endpointId = created.data!.createWebhookEndpoint.endpoint.id;
  expect(secret).toMatch(/^whsec_/);
});
afterAll(async () => {
  await receiver?.close();
});

describe('webhook deliveries', () => {
  it('delivers signed, verifiable events in the order the writes happened', async () => {
    const line = await ownedLine();
    expect((await post('/sim/suspend/', { mdn: line.mdn })).status).toBe(200);
    expect((await post('/sim/restore/', { mdn: line.mdn })).status).toBe(200);
    expect((await post('/sim/plan/change/', { mdn: line.mdn, new_plan_id: 'PREMIUM' })).status).toBe(200);
    expect((await post('/sim/voicemail/language/', { mdn: line.mdn, language: 'SPAN' })).status).toBe(200);

    expect(await eventually(async () => deliveriesFor(line.mdn).length >= 4, 10_000)).toBe(true);
    const got = deliveriesFor(line.mdn);
    expect(got.map((delivery) => delivery.body.type)).toEqual([
      'line.suspended',
      'line.restored',
      'line.plan_changed',
      'line.feature_changed',
    ]);
    for (const delivery of got) {
      expect(verify(String(delivery.headers['line-gateway-signature']), delivery.rawBody, secret)).toBe(true);
      expect(verify(String(delivery.headers['line-gateway-signature']), delivery.rawBody, `${secret}x`)).toBe(false);
      expect(delivery.headers['line-gateway-event-id']).toBe(delivery.body.id);
      expect(delivery.body).toEqual({
        id: expect.stringMatching(/^evt_[0-9a-f]{24}$/),
        type: expect.any(String),
        created: expect.any(Number),
        data: expect.objectContaining({
          mdn: line.mdn,
          sim: line.sim,
          carrier: '321',
          transactionId: expect.any(String),
        }),
      });
    }
    expect(got[2]!.body.data).toMatchObject({ planId: 'PREMIUM', operation: 'changePlan' });
    expect(got[3]!.body.data).toMatchObject({ feature: 'voicemail_language', language: 'SPAN' });
    // A tampered body does not verify.
    expect(
      verify(
        String(got[0]!.headers['line-gateway-signature']),
        got[0]!.rawBody.replace('suspended', 'restored'),
        secret,
      ),
    ).toBe(false);
    // The secret is never shown again.
    const listed = await gateway.graphql('{ webhookEndpoints { id url eventTypes active createdBy } }', {
      token: admin,
    });
    expect(JSON.stringify(listed)).not.toContain(secret);
  });

  it('retries a failing receiver: after two failures it gets the event exactly once more, every attempt recorded', async () => {
    const line = await ownedLine();
    let failures = 0;
    receiver.answer = (delivery) => {
      if (delivery.body.data.mdn !== line.mdn || delivery.body.type !== 'line.suspended') return 200;
      return failures++ < 2 ? 503 : 200;
    };
    expect((await post('/sim/suspend/', { mdn: line.mdn })).status).toBe(200);
    // A later event of the same line waits behind the retried one, then follows it.
    expect((await post('/sim/restore/', { mdn: line.mdn })).status).toBe(200);
    expect(
      await eventually(async () => deliveriesFor(line.mdn).some((d) => d.body.type === 'line.restored'), 10_000),
    ).toBe(true);
    const got = deliveriesFor(line.mdn);
    expect(got.map((delivery) => [delivery.body.type, delivery.answered])).toEqual([
      ['line.suspended', 503],
      ['line.suspended', 503],
      ['line.suspended', 200],
      ['line.restored', 200],
    ]);
    expect(new Set(got.slice(0, 3).map((delivery) => delivery.body.id)).size).toBe(1);
    expect(new Set(got.slice(0, 3).map((delivery) => delivery.rawBody)).size).toBe(1);

    const listed = await gateway.graphql<{
      webhookDeliveries: {
        status: string;
        attempts: number;
        attemptLog: { attempt: number; httpStatus: number | null; error: string | null }[];
      }[];
    }>(
      `query ($eventId: String) { webhookDeliveries(eventId: $eventId) { status attempts lastStatus attemptLog { attempt httpStatus error } } }`,
      { token: admin, variables: { eventId: got[0]!.body.id } },
    );
    expect(listed.data?.webhookDeliveries).toEqual([
      expect.objectContaining({
        status: 'DELIVERED',
        attempts: 3,
        attemptLog: [
          { attempt: 1, httpStatus: 503, error: 'receiver answered HTTP 503' },
          { attempt: 2, httpStatus: 503, error: 'receiver answered HTTP 503' },
          { attempt: 3, httpStatus: 200, error: null },
        ],
      }),
    ]);
    receiver.answer = () => 200;
  });

  it('replays a delivery and an event with the same event id', async () => {
    const line = await ownedLine();
    expect((await post('/sim/suspend/', { mdn: line.mdn })).status).toBe(200);
    expect(await eventually(async () => deliveriesFor(line.mdn).length === 1, 10_000)).toBe(true);
    const eventId = deliveriesFor(line.mdn)[0]!.body.id;
    const deliveries = await gateway.graphql<{ webhookDeliveries: { id: string }[] }>(
      `query ($eventId: String) { webhookDeliveries(eventId: $eventId) { id } }`,
      { token: admin, variables: { eventId } },
    );
    const replayed = await gateway.graphql<{ replayWebhookDelivery: { id: string; event: { id: string } } }>(
      `mutation ($id: String!) { replayWebhookDelivery(input: { id: $id }) { id status event { id type } } }`,
      { token: admin, variables: { id: deliveries.data!.webhookDeliveries[0]!.id } },
    );
    expect(replayed.data?.replayWebhookDelivery.event.id).toBe(eventId);
    expect(await eventually(async () => deliveriesFor(line.mdn).length === 2, 10_000)).toBe(true);
    const again = await gateway.graphql<{ replayLineEvent: { id: string }[] }>(
      `mutation ($eventId: String!, $endpointId: String) { replayLineEvent(input: { eventId: $eventId, endpointId: $endpointId }) { id } }`,
      { token: admin, variables: { eventId, endpointId } },
    );
    expect(again.data?.replayLineEvent).toHaveLength(1);
    expect(await eventually(async () => deliveriesFor(line.mdn).length === 3, 10_000)).toBe(true);
    expect(deliveriesFor(line.mdn).map((delivery) => delivery.body.id)).toEqual([eventId, eventId, eventId]);
    // Unknown ids: NOT_FOUND, nothing queued.
    const unknown = await gateway.graphql(`mutation { replayLineEvent(input: { eventId: "evt_nope" }) { id } }`, {
      token: admin,
    });
    expect(unknown.data).toEqual({ replayLineEvent: null });
    expect(unknown.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect(await eventually(async () => deliveriesFor(line.mdn).length === 3, 10_000)).toBe(true);
  });

  it('lets only superusers manage endpoints', async () => {
    const attempts = [
      `{ webhookEndpoints { id } }`,
      `mutation { createWebhookEndpoint(input: { url: "${receiver.url}" }) { secret } }`,
      `mutation { deleteWebhookEndpoint(input: { id: "${endpointId}" }) { id } }`,
    ];
    for (const query of attempts) {
      const answer = await gateway.graphql(query, { token: owner });
      expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', status: 403 });
    }
    const anonymous = await gateway.graphql(`{ webhookEndpoints { id } }`);
    expect(anonymous.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('refuses unknown event types and short secrets (422), registering nothing', async () => {
    const before = await gateway.app.services.db.webhookEndpoint.count();
    const badType = await gateway.graphql(
      `mutation { createWebhookEndpoint(input: { url: "${receiver.url}", eventTypes: ["line.exploded"] }) { secret } }`,
      { token: admin },
    );
    expect(badType.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', status: 422 });
    const shortSecret = await gateway.graphql(
      `mutation { createWebhookEndpoint(input: { url: "${receiver.url}", secret: "short" }) { secret } }`,
      { token: admin },
    );
    expect(shortSecret.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', status: 422 });
    expect(await gateway.app.services.db.webhookEndpoint.count()).toBe(before);
  });
});
