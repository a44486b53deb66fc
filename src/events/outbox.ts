// Reads of the line events outbox: a line's events for its history, one event by id, and the
// public shapes of an event (the bus message and the webhook payload).

import type { Database } from '../db/client.js';
import type { LineEventMessage } from '../pipeline/event-bus.js';

/** An outbox row as this module hands it out (data parsed). */
export interface LineEventRecord {
  seq: number;
  id: string;
  type: string;
  mdn: string;
  sim: string | null;
  carrier: string | null;
  ownerId: string | null;
  transactionId: string | null;
  actorId: string | null;
  data: Record<string, unknown>;
  occurredAt: Date;
}

type LineEventRow = Omit<LineEventRecord, 'data'> & { data: string };

export function recordOf(row: LineEventRow): LineEventRecord {
  return {
    seq: row.seq,
    id: row.id,
    type: row.type,
    mdn: row.mdn,
    sim: row.sim,
    carrier: row.carrier,
    ownerId: row.ownerId,
    transactionId: row.transactionId,
    actorId: row.actorId,
    data: JSON.parse(row.data) as Record<string, unknown>,
    occurredAt: row.occurredAt,
  };
}

/** What a subscriber (and the event bus) carries. */
export function messageOf(event: LineEventRecord): LineEventMessage {
  return {
    id: event.id,
    type: event.type,
    mdn: event.mdn,
    sim: event.sim,
    carrier: event.carrier,
    transactionId: event.transactionId,
    ownerId: event.ownerId,
    occurredAt: event.occurredAt.toISOString(),
    data: event.data,
  };
}

/** A webhook's body: `{id, type, created, data}`, the same bytes for every attempt and replay. */
export function webhookPayloadOf(event: LineEventRecord): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    created: Math.floor(event.occurredAt.getTime() / 1000),
    data: {
      mdn: event.mdn,
      sim: event.sim,
      carrier: event.carrier,
      transactionId: event.transactionId,
      actorId: event.actorId,
      occurredAt: event.occurredAt.toISOString(),
      ...event.data,
    },
  });
}

/** Most events one `eventsOfLine` call returns. */
export const MAX_EVENTS_PAGE = 100;

export class LineEventStore {
  constructor(private readonly db: Database) {}

  /**
   * The line's events, newest first, strictly older than `before` (an event's occurredAt), at
   * most `limit` (≤ MAX_EVENTS_PAGE). Uses the (mdn, occurredAt) index.
   */
  async eventsOfLine(mdn: string, options: { before?: Date; limit?: number } = {}): Promise<LineEventRecord[]> {
    const limit = Math.min(Math.max(options.limit ?? 20, 1), MAX_EVENTS_PAGE);
    const rows = await this.db.lineEvent.findMany({
      where: { mdn, ...(options.before ? { occurredAt: { lt: options.before } } : {}) },
      orderBy: [{ occurredAt: 'desc' }, { seq: 'desc' }],
      take: limit,
    });
    return rows.map(recordOf);
  }

  async find(id: string): Promise<LineEventRecord | null> {
    const row = await this.db.lineEvent.findUnique({ where: { id } });
    return row ? recordOf(row) : null;
  }
}
