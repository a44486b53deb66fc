// Webhook management (superusers, GraphQL only): endpoints, deliveries and replays.

import { deleteWebhookEndpoint, setWebhookEndpointActive } from './endpoint-state.js';
import { createWebhookEndpoint, webhookEndpoints } from './endpoints.js';
import { webhookDeliveries } from './deliveries.js';
import { replayLineEvent, replayWebhookDelivery } from './replays.js';

export const webhookOperations = [
  webhookEndpoints,
  webhookDeliveries,
  createWebhookEndpoint,
  setWebhookEndpointActive,
  deleteWebhookEndpoint,
  replayWebhookDelivery,
  replayLineEvent,
];
