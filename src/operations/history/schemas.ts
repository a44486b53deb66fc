// The shape of a line's history on both surfaces: a Relay-style connection (edges with a
// cursor and a node, pageInfo) of entries newest first. An entry says its `kind` and carries
// the record of that kind: a transaction (with the line event its success wrote, if any), or a
// line event that no transaction of this line carries (the new number of an MDN swap).

import { z } from 'zod';
import { transactionStatus } from '../account/transaction.js';
import { carrierId } from '../management/schemas.js';
import { mdn } from '../schemas/fields.js';
import { MAX_CURSOR_LENGTH, decodeCursor } from './cursor.js';

/** Entries per page when `first` is not given, and at most. */
export const DEFAULT_PAGE = 20;
export const MAX_PAGE = 100;

export const historyInput = z.object({
  mdn,
  // Coerced: REST reads it from the query string; GraphQL gives an Int.
  first: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE)
    .optional()
    .describe(`How many entries, newest first: 1 to ${MAX_PAGE} (default ${DEFAULT_PAGE})`),
  after: z
    .string()
    .max(MAX_CURSOR_LENGTH)
    .refine((cursor) => decodeCursor(cursor) !== undefined, 'after must be a cursor of a line history')
    .optional()
    .describe('Continue after this entry: the `endCursor` (REST: `end_cursor`) of the previous page'),
});

const actor = z
  .object({
    id: z.string().describe('User id'),
    name: z.string().nullable().describe('User name; null when the user no longer exists'),
  })
  .meta({ id: 'HistoryActor', description: 'The user who made a request' });

const transactionEntry = z
  .object({
    id: z.string().describe('The transaction id (GET /transactions/{id} and `transaction(id)` show it whole)'),
    operation: z.string().describe('GraphQL name of the operation, e.g. suspend'),
    user: actor.describe('Who made the request'),
    status: transactionStatus.describe('Outcome'),
    httpStatus: z
      .number()
      .int()
      .nullable()
      .describe(
        'HTTP status the caller got; once recovered, the status of the answer the carrier gave on re-send; null while pending',
      ),
    // Not `message`: beside a TransactionStatus it would read as an operation result's status line.
    answerMessage: z
      .string()
      .nullable()
      .describe('The message the caller got (a carrier refusal ends with its code); null while pending'),
    errorCode: z
      .string()
      .nullable()
      .describe(
        'The carrier error code ending `answerMessage` (e.g. GENS-0033), or the gateway code (e.g. CARRIER_TIMEOUT, HTTP_409)',
      ),
    recovered: z
      .boolean()
      .describe('True when the outcome was lost (timeout, crash) and learned afterwards by re-sending the write'),
  })
  .meta({ id: 'HistoryTransaction', description: 'A write made through the gateway, from its audit record' });

const eventEntry = z
  .object({
    id: z.string().describe('The event id (evt_…), as webhooks and lineEvents carry it'),
    type: z.string().describe('line.activated, line.suspended… (docs/webhooks.md lists them)'),
    transactionId: z.string().nullable().describe('The transaction whose completion wrote it'),
    occurredAt: z.string().describe('When the gateway committed the change (ISO 8601)'),
    data: z.record(z.string(), z.unknown()).describe('What changed, by type (docs/webhooks.md)'),
  })
  .meta({ id: 'HistoryEvent', description: 'A state change of the line the gateway made or learned' });

export const historyEntry = z
  .object({
    kind: z
      .enum(['transaction', 'event'])
      .meta({
        id: 'HistoryEntryKind',
        description:
          'What a history entry records: transaction (a write made through the gateway) or event (a state change of the line no transaction of this line carries, e.g. the new number of an MDN swap)',
      })
      .describe('What the entry records; its member of the same name holds it'),
    at: z
      .string()
      .describe('When it happened (ISO 8601): for a transaction, when the request arrived; for an event, its commit'),
    carrier: carrierId.nullable().describe('Carrier the line was on'),
    sim: z.string().nullable().describe('SIM (ICCID) the entry names'),
    transaction: transactionEntry.nullable().describe('The transaction, when kind is transaction'),
    event: eventEntry
      .nullable()
      .describe('The line event: for kind event, the entry itself; for a transaction, the change its success wrote'),
  })
  .meta({ id: 'HistoryEntry', description: 'One entry of a line’s history' });

export const lineHistoryResult = z
  .object({
    mdn: z.string().describe('Subscriber number'),
    edges: z
      .array(
        z
          .object({
            cursor: z.string().describe('Opaque position of this entry: pass it as `after` to continue after it'),
            node: historyEntry.describe('The entry'),
          })
          .meta({ id: 'HistoryEdge', description: 'An entry and its cursor' }),
      )
      .describe('Entries, newest first'),
    pageInfo: z
      .object({
        hasNextPage: z.boolean().describe('Whether older entries follow this page'),
        endCursor: z.string().nullable().describe('Cursor of the last entry of this page; null when it is empty'),
        hasPreviousPage: z.boolean().describe('Whether newer entries precede this page (true when `after` was given)'),
        startCursor: z.string().nullable().describe('Cursor of the first entry of this page; null when it is empty'),
      })
      .meta({ id: 'PageInfo', description: 'Where a page stands in its list (Relay cursor connections)' })
      .describe('Where this page stands'),
  })
  .meta({ id: 'LineHistory', description: 'A page of a line’s history, newest first' });

export type HistoryEntry = z.infer<typeof historyEntry>;
export type LineHistoryResult = z.infer<typeof lineHistoryResult>;
