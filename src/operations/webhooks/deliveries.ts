// `webhookDeliveries`: the deliveries, newest first, each with every attempt.

import { z } from 'zod';
import { MAX_DELIVERIES_PAGE } from '../../events/webhook-store.js';
import { defineOperation } from '../define.js';
import { deliveryStatus, deliveryView, recordId, store, webhookDelivery } from './schemas.js';

const DEFAULT_PAGE = 50;

export const webhookDeliveries = defineOperation({
  name: 'webhookDeliveries',
  kind: 'query',
  description: `Webhook deliveries, newest first, with every attempt (superuser only); at most ${MAX_DELIVERIES_PAGE}`,
  input: z.object({
    endpointId: recordId('endpointId').optional().describe('Only this endpoint’s'),
    eventId: recordId('eventId').optional().describe('Only this event’s'),
    status: deliveryStatus.optional().describe('Only those in this status'),
    first: z
      .number()
      .int()
      .min(1, 'first must be at least 1')
      .max(MAX_DELIVERIES_PAGE, `first must be at most ${MAX_DELIVERIES_PAGE}`)
      .optional()
      .describe(`How many, newest first (1 to ${MAX_DELIVERIES_PAGE}, default ${DEFAULT_PAGE})`),
  }),
  output: z.array(webhookDelivery),
  rateLimit: { max: 60, window: 'minute' },
  superuserOnly: true,
  routing: 'none',
  handle: async ({ services, input }) => {
    const deliveries = await store(services).deliveries({
      endpointId: input.endpointId,
      eventId: input.eventId,
      status: input.status,
      limit: input.first ?? DEFAULT_PAGE,
    });
    return { status: 200, body: deliveries.map(deliveryView) };
  },
});
