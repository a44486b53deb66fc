// `setWebhookEndpointActive` and `deleteWebhookEndpoint`: pause, resume or remove an endpoint.
// An unknown endpoint is refused (404) by the call and its dry run alike.

import { z } from 'zod';
import { NotFoundError } from '../../errors/gateway-errors.js';
import type { WebhookEndpointRecord } from '../../events/webhook-store.js';
import { quote } from '../../lib/quote.js';
import type { Services } from '../../pipeline/services.js';
import { defineOperation } from '../define.js';
import { recordId, store, webhookEndpoint } from './schemas.js';

const noSuchEndpoint = (id: string) => new NotFoundError(`No webhook endpoint with id ${JSON.stringify(quote(id))}`);

async function existingEndpoint(services: Services, id: string): Promise<WebhookEndpointRecord> {
  const endpoint = await store(services).endpoint(id);
  if (!endpoint) throw noSuchEndpoint(id);
  return endpoint;
}

const endpointId = recordId('id').describe('The endpoint (whe_…)');

export const setWebhookEndpointActive = defineOperation({
  name: 'setWebhookEndpointActive',
  kind: 'mutation',
  description:
    'Disables (active false) or enables an endpoint (superuser only); an unknown endpoint is NOT_FOUND. A disabled endpoint keeps its pending deliveries for when it is enabled',
  input: z.object({
    id: endpointId,
    active: z.boolean().describe('false disables, true enables'),
  }),
  output: webhookEndpoint,
  rateLimit: { max: 30, window: 'minute' },
  superuserOnly: true,
  routing: 'none',
  handle: async ({ services, input }) => {
    const endpoint = await store(services).setActive(input.id, input.active);
    if (!endpoint) throw noSuchEndpoint(input.id);
    // Its pending deliveries may go now.
    if (endpoint.active) services.outbox.deliveriesQueued();
    return { status: 200, body: endpoint };
  },
  predict: async ({ services, input, checks }) => {
    const endpoint = await existingEndpoint(services, input.id);
    checks.passed(
      'endpoint',
      endpoint.active === input.active
        ? `The endpoint exists and is ${endpoint.active ? 'enabled' : 'disabled'} already: the call changes nothing`
        : 'The endpoint exists',
    );
    return { ...endpoint, active: input.active };
  },
});

export const deleteWebhookEndpoint = defineOperation({
  name: 'deleteWebhookEndpoint',
  kind: 'mutation',
  description:
    'Deletes an endpoint with its deliveries (superuser only) and answers it as it was; an unknown endpoint is NOT_FOUND',
  input: z.object({ id: endpointId }),
  output: webhookEndpoint,
  rateLimit: { max: 30, window: 'minute' },
  superuserOnly: true,
  routing: 'none',
  handle: async ({ services, input }) => {
    const endpoint = await existingEndpoint(services, input.id);
    // Deleted meanwhile by another call: this one deleted nothing.
    if (!(await store(services).deleteEndpoint(input.id))) throw noSuchEndpoint(input.id);
    return { status: 200, body: endpoint };
  },
  predict: async ({ services, input, checks }) => {
    const endpoint = await existingEndpoint(services, input.id);
    checks.passed('endpoint', 'The endpoint exists: the call deletes it with its deliveries');
    return endpoint;
  },
});
