// `transaction(id)` and GET /transactions/{id}: what happened to a request whose answer was lost
// (yours, or anyone's for a superuser). The stored answer is what the caller was sent, or, once
// the reconciler has resolved a lost outcome, the carrier's real answer (`recovered`).

import { z } from 'zod';
import { quote } from '../../lib/quote.js';
import { InputRefusal, NotFoundError } from '../../errors/gateway-errors.js';
import { TRANSACTION_STATUSES, wasRecovered, type TransactionRecord } from '../../pipeline/transaction-log.js';
import { defineOperation } from '../define.js';
import { TRANSACTION_ID_PATTERN, TRANSACTION_ID_RULE } from '../schemas/fields.js';

export const transactionStatus = z.enum(TRANSACTION_STATUSES).meta({
  id: 'TransactionStatus',
  description:
    'pending (in flight), success, failure (carrier refused), unknown (carrier did not answer: may or may not have happened; the gateway re-sends it until the outcome is known), error (did not happen; see `noEffect`), superseded (its outcome was lost and a later write of the same kind on the same line, e.g. a restore after this suspension, succeeded first: not re-sent, so that the later write stands; the stored answer names it), abandoned (its outcome was lost and never learned, and an operator gave it up so that the later writes on its line could go: it may or may not have happened at the carrier, and it is not re-sent; the stored answer gives the operator’s `reason`)',
});

export const transactionRecord = z
  .object({
    id: z.string().describe('The transaction id'),
    operation: z.string().describe('GraphQL name of the operation'),
    carrier: z.string().nullable().describe('Carrier the request was routed to'),
    mdn: z.string().nullable().describe('Line named by the request (for an activation: the line it created)'),
    sim: z.string().nullable().describe('SIM named by the request'),
    status: transactionStatus.describe('Outcome'),
    httpStatus: z
      .number()
      .int()
      .nullable()
      .describe(
        'HTTP status the caller got; once recovered, the status of the answer the carrier gave on re-send (a superseded write keeps the one the caller got)',
      ),
    response: z
      .string()
      .nullable()
      .describe(
        'The answer the caller got, as JSON (REST field names; REST answers JSON text, GraphQL the JSON value itself); once recovered, the answer the carrier gave on re-send; once superseded, `superseded_by` (the later transaction, when it is the caller’s own) and a `message` saying so; once abandoned, a `message` saying so and the operator’s `reason`',
      ),
    createdAt: z
      .string()
      .describe('When the request arrived (ISO 8601); after a retry under the same id, when the retry did'),
    updatedAt: z.string().describe('When the outcome was recorded (ISO 8601)'),
    recovered: z
      .boolean()
      .describe(
        'True when the outcome was lost (timeout, crash) and learned afterwards by re-sending the write with the same transaction id. For the batch id of POST /sim/activate/bulk/ (activateSims): its answer was written after the fact, by a replica that resumed the batch after a crash, or again when one of its SIMs’ lost outcomes was learned',
      ),
    resolvedAt: z
      .string()
      .nullable()
      .describe(
        'When the gateway resolved a lost outcome, recovered, superseded or abandoned (ISO 8601); null otherwise',
      ),
    noEffect: z
      .boolean()
      .describe(
        'True when the request is known to have changed nothing at the carrier (status error: it never reached the carrier, e.g. its connection was refused, or the carrier turned it away before acting, e.g. bad credentials): you may retry the same operation under the same transaction id, and the retry takes this record over. False for every other outcome, whose id stays used (409)',
      ),
    earlierAttempts: z
      .number()
      .int()
      .describe(
        'Earlier requests under this id that had no effect at the carrier and were retried under it; the record shows the latest',
      ),
    firstAttemptAt: z
      .string()
      .nullable()
      .describe('When the first of those earlier requests arrived (ISO 8601); null when there was none'),
  })
  .meta({ id: 'TransactionRecord', description: 'The audit record of a mutating request' });

export const transaction = defineOperation({
  name: 'transaction',
  kind: 'query',
  description:
    'The outcome of one of your transactions by id (any transaction for a superuser). A write that timed out answers `unknown` until the gateway has re-sent it and learned the outcome (`recovered`)',
  rest: { method: 'GET', path: '/transactions/{id}' },
  // 100: the longest id any version accepted (rows written before ids were held to 64 printable
  // characters stay readable); the handler tells an id no request can carry now from a lost one.
  input: z.object({ id: z.string().min(1).max(100).describe('Transaction id, at most 100 characters') }),
  output: transactionRecord,
  routing: 'none',
  handle: async ({ services, input, user }) => {
    const record = await services.transactions.find(input.id);
    // An id no request could carry is a caller's mistake (422), not a 404 that reads like a lost write.
    if (!record && !TRANSACTION_ID_PATTERN.test(input.id))
      throw new InputRefusal('id', TRANSACTION_ID_RULE.replace('transaction_id', 'id'));
    if (!record || (record.userId !== user.id && !user.superuser))
      throw new NotFoundError(`Transaction ${quote(input.id)} not found`);
    return { status: 200, body: transactionView(record) };
  },
});

/** A transaction row as `transaction(id)` answers it (REST and GraphQL alike). */
export function transactionView(record: TransactionRecord): z.infer<typeof transactionRecord> {
  return {
    id: record.id,
    operation: record.operation,
    carrier: record.carrier,
    mdn: record.mdn,
    sim: record.sim,
    status: record.status,
    httpStatus: record.httpStatus,
    response: record.response === null ? null : JSON.stringify(record.response),
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
    recovered: wasRecovered(record),
    resolvedAt: record.resolvedAt?.toISOString() ?? null,
    noEffect: record.noEffect,
    earlierAttempts: record.earlierAttempts,
    firstAttemptAt: record.firstAttemptAt?.toISOString() ?? null,
  };
}
