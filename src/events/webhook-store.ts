// Webhook endpoints and their deliveries as stored (tables WebhookEndpoint, WebhookDelivery,
// WebhookAttempt). An endpoint's secret leaves this module once, in the answer to its creation;
// every other read returns the endpoint without it.

import { randomBytes } from 'node:crypto';
import type { Database } from '../db/client.js';
import { isLineEventType } from '../pipeline/line-events.js';
import { recordOf, type LineEventRecord } from './outbox.js';
import { newWebhookSecret } from './signature.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookEndpointRecord {
  id: string;
  url: string;
  /** Empty: every event type. */
  eventTypes: string[];
  active: boolean;
  createdBy: string;
  createdAt: Date;
}

export interface WebhookAttemptRecord {
  attempt: number;
  attemptedAt: Date;
  durationMs: number;
  httpStatus: number | null;
  error: string | null;
}

export interface WebhookDeliveryRecord {
  id: string;
  endpointId: string;
  event: LineEventRecord;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  createdAt: Date;
  attemptLog: WebhookAttemptRecord[];
}

const newId = (prefix: string): string => `${prefix}_${randomBytes(12).toString('hex')}`;
export const newDeliveryId = (): string => newId('dlv');

/** Whether an endpoint subscribed to `type` (an empty list takes every type). */
export const wants = (eventTypes: readonly string[], type: string): boolean =>
  eventTypes.length === 0 || eventTypes.includes(type);

export const parseEventTypes = (text: string): string[] => (JSON.parse(text) as unknown[]).map(String);

const endpointOf = (row: {
  id: string;
  url: string;
  eventTypes: string;
  active: boolean;
  createdBy: string;
  createdAt: Date;
}): WebhookEndpointRecord => ({
  id: row.id,
  url: row.url,
  eventTypes: parseEventTypes(row.eventTypes),
  active: row.active,
  createdBy: row.createdBy,
  createdAt: row.createdAt,
});

/** Most deliveries one listing returns. */
export const MAX_DELIVERIES_PAGE = 100;

export class WebhookStore {
  constructor(private readonly db: Database) {}

  /** Stores a new endpoint (the URL already checked); the answer is the only place its secret is shown. */
  async createEndpoint(entry: {
    url: string;
    eventTypes: readonly string[];
    secret?: string;
    createdBy: string;
  }): Promise<{ endpoint: WebhookEndpointRecord; secret: string }> {
    const unknown = entry.eventTypes.filter((type) => !isLineEventType(type));
    if (unknown.length > 0) throw new Error(`unknown event types: ${unknown.join(', ')}`);
    const secret = entry.secret ?? newWebhookSecret();
    const row = await this.db.webhookEndpoint.create({
      data: {
        id: newId('whe'),
        url: entry.url,
        eventTypes: JSON.stringify([...new Set(entry.eventTypes)]),
        secret,
        createdBy: entry.createdBy,
      },
    });
    return { endpoint: endpointOf(row), secret };
  }

  async endpoints(): Promise<WebhookEndpointRecord[]> {
    const rows = await this.db.webhookEndpoint.findMany({ orderBy: { createdAt: 'asc' } });
    return rows.map(endpointOf);
  }

  async endpoint(id: string): Promise<WebhookEndpointRecord | null> {
    const row = await this.db.webhookEndpoint.findUnique({ where: { id } });
    return row ? endpointOf(row) : null;
  }

  /** Disabled: no new deliveries, and its pending ones wait until it is enabled again. */
  async setActive(id: string, active: boolean): Promise<WebhookEndpointRecord | null> {
    const { count } = await this.db.webhookEndpoint.updateMany({ where: { id }, data: { active } });
    return count === 1 ? this.endpoint(id) : null;
  }

  /** Deletes the endpoint with its deliveries and their attempts. */
  async deleteEndpoint(id: string): Promise<boolean> {
    const { count } = await this.db.webhookEndpoint.deleteMany({ where: { id } });
    return count === 1;
  }

  async deliveryById(id: string): Promise<WebhookDeliveryRecord | null> {
    return (await this.deliveries({ id }))[0] ?? null;
  }

  async deliveries(filter: {
    id?: string;
    endpointId?: string;
    eventId?: string;
    status?: DeliveryStatus;
    limit?: number;
  }): Promise<WebhookDeliveryRecord[]> {
    const rows = await this.db.webhookDelivery.findMany({
      where: {
        ...(filter.id ? { id: filter.id } : {}),
        ...(filter.endpointId ? { endpointId: filter.endpointId } : {}),
        ...(filter.eventId ? { eventId: filter.eventId } : {}),
        ...(filter.status ? { status: filter.status } : {}),
      },
      orderBy: { seq: 'desc' },
      take: Math.min(Math.max(filter.limit ?? 50, 1), MAX_DELIVERIES_PAGE),
      include: { event: true, attemptLog: { orderBy: { attempt: 'asc' } } },
    });
    return rows.map((row) => ({
      id: row.id,
      endpointId: row.endpointId,
      event: recordOf(row.event),
      status: row.status as DeliveryStatus,
      attempts: row.attempts,
      nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt : null,
      lastStatus: row.lastStatus,
      lastError: row.lastError,
      deliveredAt: row.deliveredAt,
      createdAt: row.createdAt,
      attemptLog: row.attemptLog.map((attempt) => ({
        attempt: attempt.attempt,
        attemptedAt: attempt.attemptedAt,
        durationMs: attempt.durationMs,
        httpStatus: attempt.httpStatus,
        error: attempt.error,
      })),
    }));
  }

  /**
   * Sends a delivery's event again, as a new delivery to the same endpoint (queued behind the
   * endpoint's pending ones); the event id is the same, so receivers that dedupe skip it.
   */
  async replayDelivery(id: string): Promise<string | null> {
    const row = await this.db.webhookDelivery.findUnique({
      where: { id },
      select: { endpointId: true, eventId: true },
    });
    if (!row) return null;
    return this.enqueue(row.endpointId, row.eventId);
  }

  /** Sends an event again to one endpoint, or to every active endpoint that takes its type. */
  async replayEvent(eventId: string, endpointId?: string): Promise<string[] | null> {
    const event = await this.db.lineEvent.findUnique({ where: { id: eventId }, select: { type: true } });
    if (!event) return null;
    if (endpointId) {
      const endpoint = await this.db.webhookEndpoint.findUnique({ where: { id: endpointId }, select: { id: true } });
      return endpoint ? [await this.enqueue(endpointId, eventId)] : null;
    }
    const endpoints = await this.db.webhookEndpoint.findMany({ where: { active: true } });
    const targets = endpoints.filter((endpoint) => wants(parseEventTypes(endpoint.eventTypes), event.type));
    const ids: string[] = [];
    for (const endpoint of targets) ids.push(await this.enqueue(endpoint.id, eventId));
    return ids;
  }

  private async enqueue(endpointId: string, eventId: string): Promise<string> {
    const id = newDeliveryId();
    await this.db.webhookDelivery.create({
      data: { id, endpointId, eventId, status: 'pending', nextAttemptAt: new Date() },
    });
    return id;
  }
}
