// Superusers manage webhook endpoints here (GraphQL only; not part of the spec's REST surface):
// register one (its URL checked, its secret shown once), list, disable or delete them, list the
// deliveries with every attempt, and replay a delivery or an event.

import type { OutputRef } from '@pothos/core';
import { z } from 'zod';
import { ForbiddenError, UnauthenticatedError, ValidationFailedError } from '../errors/gateway-errors.js';
import type { LineEventRecord } from '../events/outbox.js';
import { messageOf } from '../events/outbox.js';
import { checkResolvedHost, checkWebhookUrl, WebhookUrlRefused } from '../events/url-guard.js';
import {
  MAX_DELIVERIES_PAGE,
  WebhookStore,
  type WebhookAttemptRecord,
  type WebhookDeliveryRecord,
  type WebhookEndpointRecord,
} from '../events/webhook-store.js';
import { LINE_EVENT_TYPES } from '../pipeline/line-events.js';
import type { RequestContext } from '../pipeline/request-context.js';
import { builder } from './builder.js';
import { LineEventRef } from './line-events.js';

function superuserOf(context: RequestContext): string {
  const user = context.user;
  if (!user) throw new UnauthenticatedError(context.authFailure);
  if (!user.superuser) throw new ForbiddenError();
  return user.id;
}

const store = (context: RequestContext) => new WebhookStore(context.services.db);

const refused = (field: string, msg: string) =>
  new ValidationFailedError([{ type: 'value_error', loc: ['body', field], msg }]);

const id = z.string().min(1, 'must not be empty').max(64, 'must be at most 64 characters');

const WebhookEndpointRef = builder.objectRef<WebhookEndpointRecord>('WebhookEndpoint').implement({
  description: 'A receiver of line events (its signing secret is shown once, when it is created)',
  fields: (t) => ({
    id: t.exposeID('id', { nullable: false, description: 'Endpoint id (whe_…)' }),
    url: t.exposeString('url', { nullable: false, description: 'Where deliveries are POSTed' }),
    eventTypes: t.exposeStringList('eventTypes', {
      nullable: false,
      description: 'The event types it receives; empty = every type',
    }),
    active: t.exposeBoolean('active', {
      nullable: false,
      description: 'False: no new deliveries, and pending ones wait until it is enabled again',
    }),
    createdBy: t.exposeString('createdBy', { nullable: false, description: 'The superuser who registered it' }),
    createdAt: t.field({
      type: 'DateTime',
      nullable: false,
      description: 'When it was registered',
      resolve: (endpoint) => endpoint.createdAt,
    }),
  }),
});

const CreatedEndpointRef = builder
  .objectRef<{ endpoint: WebhookEndpointRecord; secret: string }>('WebhookEndpointCreated')
  .implement({
    description: 'A new endpoint and its signing secret: store the secret now, it is never shown again',
    fields: (t) => ({
      endpoint: t.field({
        type: WebhookEndpointRef,
        nullable: false,
        description: 'The endpoint as registered',
        resolve: (created) => created.endpoint,
      }),
      secret: t.exposeString('secret', {
        nullable: false,
        description: 'HMAC-SHA256 key of the Line-Gateway-Signature header (docs/webhooks.md)',
      }),
    }),
  });

const WebhookAttemptRef = builder.objectRef<WebhookAttemptRecord>('WebhookAttempt').implement({
  description: 'One attempt of a delivery',
  fields: (t) => ({
    attempt: t.exposeInt('attempt', { nullable: false, description: '1 for the first attempt' }),
    attemptedAt: t.field({
      type: 'DateTime',
      nullable: false,
      description: 'When the attempt started',
      resolve: (attempt) => attempt.attemptedAt,
    }),
    durationMs: t.exposeInt('durationMs', { nullable: false, description: 'How long the receiver took (ms)' }),
    httpStatus: t.exposeInt('httpStatus', {
      nullable: true,
      description: "The receiver's HTTP status; null when it could not be reached",
    }),
    error: t.exposeString('error', { nullable: true, description: 'Why the attempt failed; null when it succeeded' }),
  }),
});

const deliveryStatus = builder.enumType('WebhookDeliveryStatus', {
  description: 'PENDING: to be (re)tried; DELIVERED: the receiver answered 2xx; FAILED: retries stopped after 72 h',
  values: {
    PENDING: { value: 'pending' as const, description: 'Waiting for its next attempt (or its turn)' },
    DELIVERED: { value: 'delivered' as const, description: 'The receiver answered 2xx' },
    FAILED: { value: 'failed' as const, description: 'Retries stopped, 72 h after it was queued' },
  },
});

const WebhookDeliveryRef: OutputRef<WebhookDeliveryRecord> = builder
  .objectRef<WebhookDeliveryRecord>('WebhookDelivery')
  .implement({
    description: 'One event to one endpoint; a replay is a new delivery of the same event',
    fields: (t) => ({
      id: t.exposeID('id', {
        nullable: false,
        description: 'Delivery id (dlv_…), also its Line-Gateway-Delivery-Id header',
      }),
      endpointId: t.exposeString('endpointId', { nullable: false, description: 'The endpoint it goes to' }),
      event: t.field({
        type: LineEventRef,
        nullable: false,
        description: 'The event it carries',
        resolve: (delivery) => messageOf(delivery.event satisfies LineEventRecord),
      }),
      status: t.field({
        type: deliveryStatus,
        nullable: false,
        description: 'Where it stands',
        resolve: (delivery) => delivery.status,
      }),
      attempts: t.exposeInt('attempts', { nullable: false, description: 'Attempts made so far' }),
      nextAttemptAt: t.field({
        type: 'DateTime',
        nullable: true,
        description: 'When it is tried next (pending only)',
        resolve: (delivery) => delivery.nextAttemptAt,
      }),
      lastStatus: t.exposeInt('lastStatus', {
        nullable: true,
        description: "The receiver's HTTP status at the last attempt",
      }),
      lastError: t.exposeString('lastError', {
        nullable: true,
        description: 'Why the last attempt failed; null after a success',
      }),
      deliveredAt: t.field({
        type: 'DateTime',
        nullable: true,
        description: 'When the receiver accepted it',
        resolve: (delivery) => delivery.deliveredAt,
      }),
      createdAt: t.field({
        type: 'DateTime',
        nullable: false,
        description: 'When it was queued',
        resolve: (delivery) => delivery.createdAt,
      }),
      attemptLog: t.field({
        type: [WebhookAttemptRef],
        nullable: false,
        description: 'Every attempt, first to last',
        resolve: (delivery) => delivery.attemptLog,
      }),
    }),
  });

builder.queryField('webhookEndpoints', (t) =>
  t.field({
    type: [WebhookEndpointRef],
    nullable: false,
    description: 'Registered webhook endpoints (superuser only); secrets are never shown',
    resolve: (_root, _args, context) => {
      superuserOf(context);
      return store(context).endpoints();
    },
  }),
);

builder.queryField('webhookDeliveries', (t) =>
  t.field({
    type: [WebhookDeliveryRef],
    nullable: false,
    description: `Webhook deliveries, newest first, with every attempt (superuser only); at most ${MAX_DELIVERIES_PAGE}`,
    args: {
      endpointId: t.arg.string({ required: false, description: 'Only this endpoint’s', validate: { schema: id } }),
      eventId: t.arg.string({ required: false, description: 'Only this event’s', validate: { schema: id } }),
      status: t.arg({ type: deliveryStatus, required: false, description: 'Only those in this status' }),
      first: t.arg.int({
        required: false,
        description: `How many, newest first (1 to ${MAX_DELIVERIES_PAGE})`,
        defaultValue: 50,
        validate: { schema: z.number().int().min(1).max(MAX_DELIVERIES_PAGE) },
      }),
    },
    resolve: (_root, args, context) => {
      superuserOf(context);
      return store(context).deliveries({
        endpointId: args.endpointId ?? undefined,
        eventId: args.eventId ?? undefined,
        status: args.status ?? undefined,
        limit: args.first ?? undefined,
      });
    },
  }),
);

builder.mutationField('createWebhookEndpoint', (t) =>
  t.field({
    type: CreatedEndpointRef,
    nullable: false,
    description:
      'Registers a webhook endpoint (superuser only): https to a public address (WEBHOOK_ALLOW_PRIVATE_URLS lifts that). The answer carries the signing secret, shown only this once',
    args: {
      url: t.arg.string({ required: true, description: 'https URL deliveries are POSTed to' }),
      eventTypes: t.arg.stringList({
        required: false,
        description: `Event types to receive (${LINE_EVENT_TYPES.join(', ')}); absent or empty = all`,
        validate: {
          schema: z
            .array(z.enum(LINE_EVENT_TYPES, { message: `must be one of ${LINE_EVENT_TYPES.join(', ')}` }))
            .max(LINE_EVENT_TYPES.length),
        },
      }),
      secret: t.arg.string({
        required: false,
        description: 'Your own signing secret (32 to 200 characters); absent = one is generated',
        validate: {
          schema: z
            .string()
            .min(32, 'secret must be at least 32 characters')
            .max(200, 'secret must be at most 200 characters'),
        },
      }),
    },
    resolve: async (_root, args, context) => {
      const createdBy = superuserOf(context);
      const allowPrivate = context.services.config.WEBHOOK_ALLOW_PRIVATE_URLS === 'on';
      let url: URL;
      try {
        url = checkWebhookUrl(args.url, allowPrivate);
        await checkResolvedHost(url, allowPrivate);
      } catch (error) {
        if (error instanceof WebhookUrlRefused) throw refused('url', error.message);
        throw error;
      }
      return store(context).createEndpoint({
        url: url.href,
        eventTypes: args.eventTypes ?? [],
        secret: args.secret ?? undefined,
        createdBy,
      });
    },
  }),
);

builder.mutationField('setWebhookEndpointActive', (t) =>
  t.field({
    type: WebhookEndpointRef,
    nullable: true,
    description:
      'Disables (active false) or enables an endpoint (superuser only); null when there is no such endpoint. A disabled endpoint keeps its pending deliveries for when it is enabled',
    args: {
      id: t.arg.id({ required: true, description: 'The endpoint', validate: { schema: id } }),
      active: t.arg.boolean({ required: true, description: 'false disables, true enables' }),
    },
    resolve: async (_root, args, context) => {
      superuserOf(context);
      const endpoint = await store(context).setActive(String(args.id), args.active);
      if (endpoint?.active) context.services.outbox.deliveriesQueued();
      return endpoint;
    },
  }),
);

builder.mutationField('deleteWebhookEndpoint', (t) =>
  t.field({
    type: 'Boolean',
    nullable: false,
    description: 'Deletes an endpoint with its deliveries (superuser only); false when there was none',
    args: { id: t.arg.id({ required: true, description: 'The endpoint', validate: { schema: id } }) },
    resolve: (_root, args, context) => {
      superuserOf(context);
      return store(context).deleteEndpoint(String(args.id));
    },
  }),
);

async function deliveriesById(context: RequestContext, ids: string[]): Promise<WebhookDeliveryRecord[]> {
  context.services.outbox.deliveriesQueued();
  const found = await Promise.all(ids.map((deliveryId) => store(context).deliveryById(deliveryId)));
  return found.filter((delivery) => delivery !== null);
}

builder.mutationField('replayWebhookDelivery', (t) =>
  t.field({
    type: WebhookDeliveryRef,
    nullable: true,
    description:
      'Sends a delivery’s event again to its endpoint, as a new delivery with the same event id (superuser only); null when there is no such delivery',
    args: { id: t.arg.id({ required: true, description: 'The delivery to replay', validate: { schema: id } }) },
    resolve: async (_root, args, context) => {
      superuserOf(context);
      const replayed = await store(context).replayDelivery(String(args.id));
      return replayed ? ((await deliveriesById(context, [replayed]))[0] ?? null) : null;
    },
  }),
);

builder.mutationField('replayLineEvent', (t) =>
  t.field({
    type: [WebhookDeliveryRef],
    nullable: true,
    description:
      'Sends a line event again (same event id): to one endpoint, or to every active endpoint that takes its type (superuser only); null when the event or endpoint does not exist',
    args: {
      eventId: t.arg.string({ required: true, description: 'The event (evt_…)', validate: { schema: id } }),
      endpointId: t.arg.id({
        required: false,
        description: 'Only to this endpoint; absent = every active endpoint that takes the event’s type',
        validate: { schema: id },
      }),
    },
    resolve: async (_root, args, context) => {
      superuserOf(context);
      const ids = await store(context).replayEvent(args.eventId, args.endpointId ? String(args.endpointId) : undefined);
      return ids ? deliveriesById(context, ids) : null;
    },
  }),
);
