// `webhookEndpoints` and `createWebhookEndpoint`: list the endpoints, register one (its URL
// checked, its secret shown once, in the answer to the real call only).

import { z } from 'zod';
import { InputRefusal } from '../../errors/gateway-errors.js';
import {
  checkResolvedHost,
  checkWebhookUrl,
  MAX_WEBHOOK_URL_LENGTH,
  WebhookUrlRefused,
} from '../../events/url-guard.js';
import { LINE_EVENT_TYPES } from '../../pipeline/line-events.js';
import type { Services } from '../../pipeline/services.js';
import { capped } from '../schemas/fields.js';
import { defineOperation } from '../define.js';
import { eventType, store, webhookEndpoint, webhookEndpointCreated } from './schemas.js';

export const webhookEndpoints = defineOperation({
  name: 'webhookEndpoints',
  kind: 'query',
  description: 'Registered webhook endpoints (superuser only); secrets are never shown',
  input: z.object({}),
  output: z.array(webhookEndpoint),
  rateLimit: { max: 60, window: 'minute' },
  superuserOnly: true,
  routing: 'none',
  handle: async ({ services }) => ({ status: 200, body: await store(services).endpoints() }),
});

/**
 * The URL as registration accepts it: its form, then where its host resolves (delivery checks
 * the address again at every connection). A refusal is the 422 of the `url` member.
 */
async function registrableUrl(raw: string, services: Services): Promise<URL> {
  const allowPrivate = services.config.WEBHOOK_ALLOW_PRIVATE_URLS === 'on';
  try {
    const url = checkWebhookUrl(raw, allowPrivate);
    await checkResolvedHost(url, allowPrivate);
    return url;
  } catch (error) {
    if (!(error instanceof WebhookUrlRefused)) throw error;
    throw new InputRefusal('url', error.message);
  }
}

export const createWebhookEndpoint = defineOperation({
  name: 'createWebhookEndpoint',
  kind: 'mutation',
  description:
    'Registers a webhook endpoint (superuser only): https to a public address (WEBHOOK_ALLOW_PRIVATE_URLS lifts that). The answer carries the signing secret, shown only this once',
  input: z.object({
    url: capped('url', MAX_WEBHOOK_URL_LENGTH).describe('https URL deliveries are POSTed to'),
    eventTypes: z
      .array(eventType)
      .max(LINE_EVENT_TYPES.length, `eventTypes must name at most ${LINE_EVENT_TYPES.length} types`)
      .optional()
      .describe(`Event types to receive (${LINE_EVENT_TYPES.join(', ')}); absent or empty = all`),
    secret: z
      .string()
      .min(32, 'secret must be at least 32 characters')
      .max(200, 'secret must be at most 200 characters')
      .optional()
      .describe('Your own signing secret (32 to 200 characters); absent = one is generated'),
  }),
  output: webhookEndpointCreated,
  rateLimit: { max: 20, window: 'minute' },
  superuserOnly: true,
  routing: 'none',
  handle: async ({ services, input, user }) => {
    const url = await registrableUrl(input.url, services);
    const created = await store(services).createEndpoint({
      url: url.href,
      eventTypes: input.eventTypes ?? [],
      secret: input.secret,
      createdBy: user.id,
    });
    return { status: 200, body: created };
  },
  // Dry run: the URL by the same checks, the event types by the input schema; nothing is stored
  // and no secret is made or echoed (`secret` and `id` are empty).
  predict: async ({ services, input, user, checks }) => {
    const url = await registrableUrl(input.url, services);
    checks.passed('url', 'The URL may receive deliveries');
    const eventTypes = [...new Set(input.eventTypes ?? [])];
    checks.passed('eventTypes', eventTypes.length > 0 ? `Receives ${eventTypes.join(', ')}` : 'Receives every type');
    return {
      endpoint: { id: '', url: url.href, eventTypes, active: true, createdBy: user.id, createdAt: new Date() },
      secret: '',
    };
  },
});
