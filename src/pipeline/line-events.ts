// Line events: what a successful write did to a line, as the outbox (table LineEvent) records it.
// An operation of the table declares its event (`event` on its spec); the pipeline, and the
// reconciler when it learns a lost outcome, derive the row from that declaration and write it in
// the same database transaction that completes the transaction row, so that a committed
// change always has its event and a refused or failed one never has.

import { randomHex } from '../lib/random-hex.js';

export const LINE_EVENT_TYPES = [
  'line.activated',
  'line.suspended',
  'line.restored',
  'line.disconnected',
  'line.reconnected',
  'line.sim_swapped',
  'line.mdn_swapped',
  'line.plan_changed',
  'line.billing_code_changed',
  'line.purchase_made',
  'line.purchase_cancelled',
  'line.feature_changed',
  'line.balance_adjusted',
  'line.child_line_added',
  'line.child_line_removed',
] as const;

export type LineEventType = (typeof LINE_EVENT_TYPES)[number];

export const isLineEventType = (value: string): value is LineEventType =>
  (LINE_EVENT_TYPES as readonly string[]).includes(value);

/**
 * What an operation's spec says about its event: the type, and the payload fields particular to
 * it (never a secret or a personal detail such as an address: receivers are third parties).
 */
export interface LineEventSpec<I, O> {
  type: LineEventType;
  data?(input: I, answer: O): Record<string, unknown>;
}

/** The same declaration with its types erased, as a table row carries it. */
export interface RowEvent {
  type: LineEventType;
  data(input: unknown, answer: unknown): Record<string, unknown>;
}

/**
 * An event about to be written: everything but what the line registry knows of the line (its
 * owner and SIM), read in the same write. `sim` is the SIM the request or answer named, kept
 * for a line the registry does not know.
 */
export interface LineEventDraft {
  id: string;
  type: LineEventType;
  mdn: string;
  sim: string | null;
  carrier: string | null;
  transactionId: string;
  actorId: string;
  data: Record<string, unknown>;
}

/** evt_ followed by 24 hexadecimal characters; stored, so the same on every delivery. */
export const newEventId = (): string => `evt_${randomHex(12)}`;

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * The event of a successful write of `operation`, or null when it declares none or names no
 * line. The line is the one the write leaves behind: an MDN swap's new number, an activation's
 * new line.
 */
export function lineEventOf(
  operation: { name: string; lineField: string; event?: RowEvent },
  write: {
    input: unknown;
    answer: unknown;
    transactionId: string;
    actorId: string;
    carrier: string | null;
    recovered?: boolean;
  },
): LineEventDraft | null {
  const event = operation.event;
  if (!event) return null;
  const input = (write.input ?? {}) as Record<string, unknown>;
  const answer = (write.answer ?? {}) as Record<string, unknown>;
  const mdn = text(answer.newMdn) ?? text(answer.mdn) ?? text(input[operation.lineField]);
  if (!mdn) return null;
  return {
    id: newEventId(),
    type: event.type,
    mdn,
    sim: text(answer.sim) ?? text(input.newSim) ?? text(input.sim),
    carrier: write.carrier,
    transactionId: write.transactionId,
    actorId: write.actorId,
    data: {
      ...event.data(input, answer),
      operation: operation.name,
      ...(write.recovered ? { recovered: true } : {}),
    },
  };
}

/** The event's line as the registry holds it when the event is written; null when it does not know it. */
export interface RegisteredLine {
  ownerId: string | null;
  sim: string;
}

/**
 * The outbox row of an event (Prisma's create input, shared by every writer). `recordedLine`:
 * the number its transaction row is recorded under; an event of another number is `standalone`
 * (the line's history shows it on its own).
 */
export function outboxRow(draft: LineEventDraft, line: RegisteredLine | null, recordedLine: string | null) {
  return {
    standalone: draft.mdn !== recordedLine,
    id: draft.id,
    type: draft.type,
    mdn: draft.mdn,
    // Most writes name the line by its number alone (a suspension): the registry knows its SIM,
    // as the handler left it (a SIM swap's new SIM, an activation's).
    sim: line?.sim ?? draft.sim,
    carrier: draft.carrier,
    ownerId: line?.ownerId ?? null,
    transactionId: draft.transactionId,
    actorId: draft.actorId,
    data: JSON.stringify(draft.data),
  };
}
