// `replayWebhookDelivery` and `replayLineEvent`: send an event again (same event id) as new
// deliveries, queued behind each endpoint's pending ones. An unknown delivery, event or
// endpoint is refused (404) by the call and its dry run alike.

import { z } from 'zod';
import { NotFoundError } from '../../errors/gateway-errors.js';
import { messageOf, recordOf, type LineEventRecord } from '../../events/outbox.js';
import { wants, type WebhookEndpointRecord } from '../../events/webhook-store.js';
import { quote } from '../../lib/quote.js';
import type { Services } from '../../pipeline/services.js';
import { defineOperation } from '../define.js';
import { deliveryView, recordId, store, webhookDelivery, type WebhookDeliveryView } from './schemas.js';

const notFound = (what: string, id: string) => new NotFoundError(`No ${what} with id ${JSON.stringify(quote(id))}`);

/** The stored deliveries of `ids`, once the relay is told there is work. */
async function queued(services: Services, ids: readonly string[]): Promise<WebhookDeliveryView[]> {
  services.outbox.deliveriesQueued();
  const found = await Promise.all(ids.map((id) => store(services).deliveryById(id)));
  return found.filter((delivery) => delivery !== null).map(deliveryView);
}

/** A dry run's answer: the delivery a replay would queue (no id: none is made). */
function wouldQueue(endpointId: string, event: LineEventRecord): WebhookDeliveryView {
  const now = new Date();
  return {
    id: '',
    endpointId,
    event: messageOf(event),
    status: 'pending',
    attempts: 0,
    nextAttemptAt: now,
    lastStatus: null,
    lastError: null,
    deliveredAt: null,
    createdAt: now,
    attemptLog: [],
  };
}

export const replayWebhookDelivery = defineOperation({
  name: 'replayWebhookDelivery',
  kind: 'mutation',
  description:
    'Sends a delivery’s event again to its endpoint, as a new delivery with the same event id (superuser only); an unknown delivery is NOT_FOUND',
  input: z.object({ id: recordId('id').describe('The delivery to replay (dlv_…)') }),
  output: webhookDelivery,
  rateLimit: { max: 30, window: 'minute' },
  superuserOnly: true,
  routing: 'none',
  handle: async ({ services, input }) => {
    const replayed = await store(services).replayDelivery(input.id);
    const [delivery] = replayed ? await queued(services, [replayed]) : [];
    if (!delivery) throw notFound('webhook delivery', input.id);
    return { status: 200, body: delivery };
  },
  predict: async ({ services, input, checks }) => {
    const delivery = await store(services).deliveryById(input.id);
    if (!delivery) throw notFound('webhook delivery', input.id);
    checks.passed('delivery', `The delivery exists: its event would be queued again to ${delivery.endpointId}`);
    return wouldQueue(delivery.endpointId, delivery.event);
  },
});

/** The event and the endpoints a replay of it goes to; refuses an unknown event or endpoint. */
async function replayTargets(
  services: Services,
  eventId: string,
  endpointId: string | undefined,
): Promise<{ event: LineEventRecord; endpoints: WebhookEndpointRecord[] }> {
  const row = await services.db.lineEvent.findUnique({ where: { id: eventId } });
  if (!row) throw notFound('line event', eventId);
  const event = recordOf(row);
  if (endpointId) {
    const endpoint = await store(services).endpoint(endpointId);
    if (!endpoint) throw notFound('webhook endpoint', endpointId);
    return { event, endpoints: [endpoint] };
  }
  const endpoints = await store(services).endpoints();
  return {
    event,
    endpoints: endpoints.filter((endpoint) => endpoint.active && wants(endpoint.eventTypes, event.type)),
  };
}

export const replayLineEvent = defineOperation({
  name: 'replayLineEvent',
  kind: 'mutation',
  description:
    'Sends a line event again (same event id): to one endpoint, or to every active endpoint that takes its type (superuser only); an unknown event or endpoint is NOT_FOUND',
  input: z.object({
    eventId: recordId('eventId').describe('The event (evt_…)'),
    endpointId: recordId('endpointId')
      .optional()
      .describe('Only to this endpoint; absent = every active endpoint that takes the event’s type'),
  }),
  output: z.array(webhookDelivery),
  rateLimit: { max: 30, window: 'minute' },
  superuserOnly: true,
  routing: 'none',
  handle: async ({ services, input }) => {
    await replayTargets(services, input.eventId, input.endpointId);
    const ids = await store(services).replayEvent(input.eventId, input.endpointId);
    // The event or endpoint went between the two reads.
    if (!ids) throw notFound(input.endpointId ? 'webhook endpoint' : 'line event', input.endpointId ?? input.eventId);
    return { status: 200, body: await queued(services, ids) };
  },
  // Dry run: the deliveries it would queue. With none (no active endpoint takes the type) the
  // answer is an empty list, as the call's is, and carries no report.
  predict: async ({ services, input, checks }) => {
    const { event, endpoints } = await replayTargets(services, input.eventId, input.endpointId);
    checks.passed('event', `The event exists (${event.type})`);
    checks.passed(
      'endpoints',
      input.endpointId ? 'The endpoint exists' : `${endpoints.length} active endpoint(s) take ${event.type}`,
    );
    return endpoints.map((endpoint) => wouldQueue(endpoint.id, event));
  },
});
