// Dry runs of the webhook mutations (rows of the operation table, answered by the gateway): each
// predicts from the store, writes nothing (endpoints, secrets and deliveries are as they were),
// shows no secret, and agrees with the real call made next — the same answer, or the same
// refusal (code and message). Every webhook row refuses a caller who is not a superuser.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphQLAnswer } from '../support/gateway.js';
import { eventually } from '../support/eventually.js';
import { seedLine } from '../support/lines.js';
import { useGateway } from '../support/use-gateway.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const gateway = useGateway({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'on', OUTBOX_POLL_MS: '100' } });
let receiver: WebhookReceiver;
let admin: string;
let caller: string;

const REPORT = 'dryRun { operation wouldSucceed carrier checks { name outcome } }';
const ENDPOINT = 'id url eventTypes active createdBy';
const DELIVERY = 'id endpointId status attempts attemptLog { attempt } event { id type mdn }';

const inputType = (field: string) => `${field[0]!.toUpperCase()}${field.slice(1)}Input`;

function mutate(field: string, input: Record<string, unknown>, selection: string, token = admin) {
  return gateway.graphql(`mutation ($input: ${inputType(field)}!) { ${field}(input: $input) { ${selection} } }`, {
    token,
    variables: { input },
  });
}

/** The dry run, what is stored right after it, then the real call. */
async function dryThenReal(field: string, input: Record<string, unknown>, selection: string) {
  const before = await stored();
  const dry = await mutate(field, { ...input, dryRun: true }, `${selection} ${REPORT}`);
  expect(await stored(), `${field}'s dry run wrote nothing`).toEqual(before);
  const real = await mutate(field, input, selection);
  return { dry, real };
}

/** Everything a webhook mutation could write: endpoints (with their secrets) and deliveries. */
async function stored() {
  const { db } = gateway.app.services;
  const endpoints = await db.webhookEndpoint.findMany({ orderBy: { id: 'asc' } });
  const deliveries = await db.webhookDelivery.findMany({ select: { id: true }, orderBy: { id: 'asc' } });
  return { endpoints, deliveries: deliveries.map((delivery) => delivery.id) };
}

const errorOf = (answer: GraphQLAnswer) => {
  const error = answer.errors?.[0];
  return error && { code: error.extensions?.code, status: error.extensions?.status, message: error.message };
};

/** A predicted refusal is the call's own: same code, status and message, and no data. */
function expectSameRefusal(dry: GraphQLAnswer, real: GraphQLAnswer, code: string) {
  expect(errorOf(dry)).toMatchObject({ code });
  expect(errorOf(dry)).toEqual(errorOf(real));
  expect(dry.errors?.[0]?.extensions?.issues).toEqual(real.errors?.[0]?.extensions?.issues);
}

const withoutReport = (value: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'dryRun'));

async function newEndpoint(eventTypes: string[] = []): Promise<string> {
  const created = await mutate('createWebhookEndpoint', { url: receiver.url, eventTypes }, 'endpoint { id }');
  expect(created.errors).toBeUndefined();
  return (created.data as { createWebhookEndpoint: { endpoint: { id: string } } }).createWebhookEndpoint.endpoint.id;
}

/** A committed line event (a suspension) and, once the relay ran, its deliveries. */
async function suspendedEvent(): Promise<{ eventId: string; mdn: string }> {
  const line = await seedLine(gateway);
  expect((await gateway.rest('POST', '/sim/suspend/', { token: admin, body: { mdn: line.mdn } })).status).toBe(200);
  const { db } = gateway.app.services;
  const event = await db.lineEvent.findFirstOrThrow({ where: { mdn: line.mdn } });
  const queued = async () => (await db.webhookDelivery.count({ where: { eventId: event.id } })) > 0;
  expect(await eventually(queued, 10_000)).toBe(true);
  return { eventId: event.id, mdn: line.mdn };
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  ({ token: admin } = await gateway.user({ superuser: true }));
  ({ token: caller } = await gateway.user({}));
});
afterAll(async () => {
  await receiver?.close();
});

describe('webhook dry runs', () => {
  it('createWebhookEndpoint: the endpoint it would register, no secret made or echoed; the call registers the same', async () => {
    const mySecret = 'my-own-signing-secret-of-40-characters-xx';
    const input = { url: receiver.url, eventTypes: ['line.suspended', 'line.suspended'], secret: mySecret };
    const selection = `endpoint { ${ENDPOINT} } secret`;
    const { dry, real } = await dryThenReal('createWebhookEndpoint', input, selection);
    expect(dry.errors).toBeUndefined();
    const predicted = (dry.data as { createWebhookEndpoint: Record<string, unknown> }).createWebhookEndpoint;
    expect(predicted).toMatchObject({
      endpoint: { id: '', url: receiver.url, eventTypes: ['line.suspended'], active: true },
      secret: '',
      dryRun: { operation: 'createWebhookEndpoint', wouldSucceed: true, carrier: null },
    });
    expect(JSON.stringify(dry)).not.toContain(mySecret);
    const made = (real.data as { createWebhookEndpoint: { endpoint: Record<string, unknown>; secret: string } })
      .createWebhookEndpoint;
    expect(made.secret).toBe(mySecret); // shown once, by the real call only
    expect(withoutReport(made.endpoint)).toEqual({
      ...(predicted.endpoint as Record<string, unknown>),
      id: made.endpoint.id,
    });

    // Without a secret of the caller's: none is generated by the dry run.
    const generated = await mutate('createWebhookEndpoint', { url: receiver.url, dryRun: true }, 'secret');
    expect(generated.data).toEqual({ createWebhookEndpoint: { secret: '' } });
  });

  it('createWebhookEndpoint: a refused URL, event type or secret is the call’s own 422, and nothing is stored', async () => {
    for (const input of [
      { url: 'ftp://hooks.example.com/x' },
      { url: 'https://user:pass@hooks.example.com/x' },
      { url: 'not a url' },
      { url: receiver.url, eventTypes: ['line.exploded'] },
      { url: receiver.url, secret: 'short' },
      { url: `https://hooks.example.com/${'x'.repeat(3000)}` },
    ]) {
      const before = await stored();
      const { dry, real } = await dryThenReal('createWebhookEndpoint', input, 'secret');
      expectSameRefusal(dry, real, 'BAD_USER_INPUT');
      expect(await stored()).toEqual(before);
    }
  });

  it('setWebhookEndpointActive: the endpoint as it would be, still unchanged; an unknown endpoint is NOT_FOUND', async () => {
    const id = await newEndpoint();
    const { dry, real } = await dryThenReal('setWebhookEndpointActive', { id, active: false }, ENDPOINT);
    const predicted = (dry.data as { setWebhookEndpointActive: Record<string, unknown> }).setWebhookEndpointActive;
    expect(predicted).toMatchObject({ id, active: false, dryRun: { wouldSucceed: true } });
    expect(real.data).toEqual({ setWebhookEndpointActive: withoutReport(predicted) });
    expect((await gateway.app.services.db.webhookEndpoint.findUniqueOrThrow({ where: { id } })).active).toBe(false);

    const unknown = await dryThenReal('setWebhookEndpointActive', { id: 'whe_nope', active: true }, ENDPOINT);
    expectSameRefusal(unknown.dry, unknown.real, 'NOT_FOUND');
  });

  it('deleteWebhookEndpoint: the endpoint it would delete, still there; the call deletes it; then NOT_FOUND both ways', async () => {
    const id = await newEndpoint(['line.activated']);
    const { dry, real } = await dryThenReal('deleteWebhookEndpoint', { id }, ENDPOINT);
    const predicted = (dry.data as { deleteWebhookEndpoint: Record<string, unknown> }).deleteWebhookEndpoint;
    expect(predicted).toMatchObject({ id, eventTypes: ['line.activated'], dryRun: { wouldSucceed: true } });
    expect(real.data).toEqual({ deleteWebhookEndpoint: withoutReport(predicted) });
    expect(await gateway.app.services.db.webhookEndpoint.findUnique({ where: { id } })).toBeNull();

    const again = await dryThenReal('deleteWebhookEndpoint', { id }, ENDPOINT);
    expectSameRefusal(again.dry, again.real, 'NOT_FOUND');
  });

  it('replayWebhookDelivery: the delivery it would queue, none queued; the call queues the same', async () => {
    await newEndpoint();
    const { eventId, mdn } = await suspendedEvent();
    const original = await gateway.app.services.db.webhookDelivery.findFirstOrThrow({ where: { eventId } });
    const { dry, real } = await dryThenReal('replayWebhookDelivery', { id: original.id }, DELIVERY);
    const predicted = (dry.data as { replayWebhookDelivery: Record<string, unknown> }).replayWebhookDelivery;
    expect(predicted).toMatchObject({
      id: '',
      endpointId: original.endpointId,
      status: 'PENDING',
      attempts: 0,
      attemptLog: [],
      event: { id: eventId, type: 'line.suspended', mdn },
      dryRun: { wouldSucceed: true },
    });
    const queued = (real.data as { replayWebhookDelivery: Record<string, unknown> }).replayWebhookDelivery;
    expect(queued.id).toMatch(/^dlv_/);
    expect(queued).toMatchObject({ endpointId: original.endpointId, event: { id: eventId } });

    const unknown = await dryThenReal('replayWebhookDelivery', { id: 'dlv_nope' }, DELIVERY);
    expectSameRefusal(unknown.dry, unknown.real, 'NOT_FOUND');
  });

  it('replayLineEvent: one delivery per endpoint it would reach, none queued; unknown event or endpoint NOT_FOUND', async () => {
    const { eventId } = await suspendedEvent();
    const { dry, real } = await dryThenReal('replayLineEvent', { eventId }, DELIVERY);
    const predicted = (dry.data as { replayLineEvent: Record<string, unknown>[] }).replayLineEvent;
    const queued = (real.data as { replayLineEvent: Record<string, unknown>[] }).replayLineEvent;
    expect(predicted.length).toBeGreaterThan(0);
    expect(predicted.every((delivery) => (delivery.dryRun as { wouldSucceed: boolean }).wouldSucceed)).toBe(true);
    expect(predicted.map((delivery) => delivery.endpointId).sort()).toEqual(
      queued.map((delivery) => delivery.endpointId).sort(),
    );
    // Only active endpoints that take the type: the disabled one of the earlier test is left out.
    const active = await gateway.app.services.db.webhookEndpoint.count({ where: { active: true } });
    expect(predicted).toHaveLength(active);

    const oneEndpoint = await newEndpoint(['line.activated']);
    const targeted = await dryThenReal('replayLineEvent', { eventId, endpointId: oneEndpoint }, DELIVERY);
    expect(targeted.dry.data).toMatchObject({ replayLineEvent: [{ id: '', endpointId: oneEndpoint }] });
    expect(targeted.real.data).toMatchObject({ replayLineEvent: [{ endpointId: oneEndpoint }] });

    for (const input of [{ eventId: 'evt_nope' }, { eventId, endpointId: 'whe_nope' }]) {
      const unknown = await dryThenReal('replayLineEvent', input, DELIVERY);
      expectSameRefusal(unknown.dry, unknown.real, 'NOT_FOUND');
    }
  });
});

describe('webhook rows are the superuser’s', () => {
  it('refuses every row, real or dry run, to a caller who is not a superuser (403), and to no caller (401)', async () => {
    const id = await newEndpoint();
    const before = await stored();
    const mutations: [string, Record<string, unknown>, string][] = [
      ['createWebhookEndpoint', { url: receiver.url }, 'secret'],
      ['setWebhookEndpointActive', { id, active: false }, 'id'],
      ['deleteWebhookEndpoint', { id }, 'id'],
      ['replayWebhookDelivery', { id: 'dlv_any' }, 'id'],
      ['replayLineEvent', { eventId: 'evt_any' }, 'id'],
    ];
    const answers: GraphQLAnswer[] = [
      await gateway.graphql('{ webhookEndpoints { id } }', { token: caller }),
      await gateway.graphql('{ webhookDeliveries { id } }', { token: caller }),
    ];
    for (const [field, input, selection] of mutations) {
      answers.push(await mutate(field, input, selection, caller));
      answers.push(await mutate(field, { ...input, dryRun: true }, selection, caller));
    }
    expect(answers).toHaveLength(12);
    for (const answer of answers) expect(errorOf(answer)).toMatchObject({ code: 'FORBIDDEN', status: 403 });
    expect(await stored()).toEqual(before);
    const anonymous = await gateway.graphql(
      `mutation { deleteWebhookEndpoint(input: { id: "${id}", dryRun: true }) { id } }`,
    );
    expect(errorOf(anonymous)).toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});

describe('the budgets of a webhook row’s dry run', () => {
  const DRY_REPORT = 'dryRun { wouldSucceed predictedCode predictedMessage checks { name outcome detail } }';

  it('spends the shared dry-run budget and only reads the row’s own: a spent one is a predicted RATE_LIMITED, not a 429', async () => {
    // A superuser of its own: this test spends its whole createWebhookEndpoint budget (20 a minute).
    const { token } = await gateway.user({ superuser: true });
    const create = (dryRun: boolean) =>
      mutate('createWebhookEndpoint', { url: receiver.url, dryRun }, `endpoint { id } ${DRY_REPORT}`, token);
    type Created = { createWebhookEndpoint: { endpoint: { id: string }; dryRun: Record<string, unknown> } };
    const rateLimitCheck = (answer: GraphQLAnswer) =>
      (answer.data as Created).createWebhookEndpoint.dryRun.checks as {
        name: string;
        outcome: string;
        detail: string;
      }[];

    // More dry runs than the row allows calls in its window: each answers its report, none spent.
    for (let run = 1; run <= 21; run++) {
      const dry = await create(true);
      expect(dry.errors, `dry run ${run}`).toBeUndefined();
      expect(rateLimitCheck(dry)).toContainEqual({
        name: 'rateLimit',
        outcome: 'PASSED',
        detail: '20 of 20 calls left in the window (none spent)',
      });
    }
    const made: string[] = [];
    try {
      for (let call = 1; call <= 20; call++) {
        const real = await create(false);
        expect(real.errors, `call ${call}`).toBeUndefined();
        made.push((real.data as Created).createWebhookEndpoint.endpoint.id);
      }
      // The row's budget is spent: its dry run predicts the call's refusal, and answers its report.
      const dry = await create(true);
      expect(dry.errors).toBeUndefined();
      // The prediction reads as the refusal the real call gets, word for word.
      const refusal = errorOf(await create(false));
      expect(refusal).toMatchObject({
        code: 'RATE_LIMITED',
        status: 429,
        message: 'Rate limit exceeded: 20 per 1 minute',
      });
      expect((dry.data as Created).createWebhookEndpoint.dryRun).toMatchObject({
        wouldSucceed: false,
        predictedCode: 'RATE_LIMITED',
        predictedMessage: refusal?.message,
      });
      expect(rateLimitCheck(dry)).toContainEqual(
        expect.objectContaining({
          name: 'rateLimit',
          outcome: 'FAILED',
          detail: expect.stringMatching(/^Rate limit exceeded: 20 per 1 minute; retry in \d+ s$/),
        }),
      );
    } finally {
      await gateway.app.services.db.webhookEndpoint.deleteMany({ where: { id: { in: made } } });
    }
  });
});
