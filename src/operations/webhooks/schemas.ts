// Shapes of webhook management (GraphQL only, superusers): endpoints, deliveries with their
// attempts, and the line event a delivery carries. The GraphQL type names are those clients
// already know (WebhookEndpoint, WebhookDelivery…); `LineEvent` is the subscription's own type,
// which the delivery shares (src/graphql/line-events.ts).

import { z } from 'zod';
import { messageOf } from '../../events/outbox.js';
import { WebhookStore, type WebhookDeliveryRecord } from '../../events/webhook-store.js';
import { isLineEventType, LINE_EVENT_TYPES } from '../../pipeline/line-events.js';
import type { Services } from '../../pipeline/services.js';
import { capped } from '../schemas/fields.js';

export const store = (services: Services): WebhookStore => new WebhookStore(services.db);

/** An endpoint, delivery or event id as the gateway makes them (whe_…, dlv_…, evt_…). */
export const recordId = (field: string) => capped(field, 64).min(1, `${field} must not be empty`);

export const eventType = capped('eventTypes', 64).refine(isLineEventType, {
  message: `eventTypes must each be one of ${LINE_EVENT_TYPES.join(', ')}`,
});

export const webhookEndpoint = z
  .object({
    id: z.string().describe('Endpoint id (whe_…)'),
    url: z.string().describe('Where deliveries are POSTed'),
    eventTypes: z.array(z.string()).describe('The event types it receives; empty = every type'),
    active: z.boolean().describe('False: no new deliveries, and pending ones wait until it is enabled again'),
    createdBy: z.string().describe('The superuser who registered it'),
    createdAt: z.date().describe('When it was registered'),
  })
  .meta({
    id: 'WebhookEndpoint',
    description: 'A receiver of line events (its signing secret is shown once, when it is created)',
  });

export const webhookEndpointCreated = z
  .object({
    endpoint: webhookEndpoint.describe('The endpoint as registered'),
    secret: z.string().describe('HMAC-SHA256 key of the Line-Gateway-Signature header (docs/webhooks.md)'),
  })
  .meta({
    id: 'WebhookEndpointCreated',
    description: 'A new endpoint and its signing secret: store the secret now, it is never shown again',
  });

const webhookAttempt = z
  .object({
    attempt: z.number().int().describe('1 for the first attempt'),
    attemptedAt: z.date().describe('When the attempt started'),
    durationMs: z.number().int().describe('How long the receiver took (ms)'),
    httpStatus: z.number().int().nullable().describe("The receiver's HTTP status; null when it could not be reached"),
    error: z.string().nullable().describe('Why the attempt failed; null when it succeeded'),
  })
  .meta({ id: 'WebhookAttempt', description: 'One attempt of a delivery' });

export const deliveryStatus = z.enum(['pending', 'delivered', 'failed']).meta({
  id: 'WebhookDeliveryStatus',
  description: 'PENDING: to be (re)tried; DELIVERED: the receiver answered 2xx; FAILED: retries stopped after 72 h',
});

/** The event a delivery carries, as the `lineEvents` subscription publishes it. */
const lineEvent = z
  .object({
    id: z.string().describe('Stable event id (evt_…): the same on every webhook delivery, retry and replay'),
    type: z.string().describe('Event type, e.g. line.suspended'),
    mdn: z.string().describe('The line (after an MDN swap: its new number)'),
    sim: z.string().nullable().describe("The line's SIM (ICCID), when known"),
    carrier: z.string().nullable().describe('Carrier the line lives on'),
    transactionId: z.string().nullable().describe('The transaction whose completion wrote the event'),
    occurredAt: z.string().describe('When the gateway committed the change (ISO 8601)'),
    data: z.record(z.string(), z.unknown()).describe('What changed, by type (docs/webhooks.md)'),
  })
  .meta({ id: 'LineEvent', description: 'A state change of a line that the gateway made or learned' });

export const webhookDelivery = z
  .object({
    id: z.string().describe('Delivery id (dlv_…), also its Line-Gateway-Delivery-Id header'),
    endpointId: z.string().describe('The endpoint it goes to'),
    event: lineEvent.describe('The event it carries'),
    status: deliveryStatus.describe('Where it stands'),
    attempts: z.number().int().describe('Attempts made so far'),
    nextAttemptAt: z.date().nullable().describe('When it is tried next (pending only)'),
    lastStatus: z.number().int().nullable().describe("The receiver's HTTP status at the last attempt"),
    lastError: z.string().nullable().describe('Why the last attempt failed; null after a success'),
    deliveredAt: z.date().nullable().describe('When the receiver accepted it'),
    createdAt: z.date().describe('When it was queued'),
    attemptLog: z.array(webhookAttempt).describe('Every attempt, first to last'),
  })
  .meta({
    id: 'WebhookDelivery',
    description: 'One event to one endpoint; a replay is a new delivery of the same event',
  });

export type WebhookDeliveryView = z.infer<typeof webhookDelivery>;

/** A stored delivery as the operations answer it (its event as subscribers see events). */
export const deliveryView = (delivery: WebhookDeliveryRecord): WebhookDeliveryView => ({
  ...delivery,
  event: messageOf(delivery.event),
});
