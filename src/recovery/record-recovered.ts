// What a re-send learned, recorded as the request's own completion would have recorded it: the
// transaction row's answer, the line (carrier, owner), its event marked `recovered`, and what
// else follows the operation's outcome (a bulk job's entry), in one database transaction.

import type { CarrierAnswer } from '../pipeline/carrier-handler.js';
import type { DatabaseTransaction } from '../db/client.js';
import { convertKeys, toSnake } from '../lib/case.js';
import { nonEmptyText } from '../lib/text.js';
import { lineEventOf } from '../pipeline/line-events.js';
import type { RegisteredOperation } from '../pipeline/operation.js';
import type { Services } from '../pipeline/services.js';
import type { TransactionRecord, TransactionStatus } from '../pipeline/transaction-log.js';
import type { RecoveryLeases } from './leases.js';

/** A learned outcome as the transaction log now holds it (its stored answer in REST's snake_case). */
export interface LearnedOutcome {
  id: string;
  status: TransactionStatus;
  response: unknown;
  resolvedAt: Date;
}

/**
 * What else follows a learned outcome of one operation, written with it (a bulk activation
 * job's entry for an activation: src/operations/activation/bulk-jobs/recovered-items.ts).
 */
export type OutcomeFollowers = Readonly<
  Record<string, (tx: DatabaseTransaction, row: TransactionRecord, outcome: LearnedOutcome) => Promise<void>>
>;

export interface RecordingDeps {
  services: Services;
  leases: RecoveryLeases;
  operations: readonly RegisteredOperation[];
  followers: OutcomeFollowers;
  /** Told after a learned outcome's line event commits (the outbox relay publishes it). */
  eventWritten: () => void;
}

/** Records `answer`, the carrier's to the re-send of `row`, unless the row was resolved elsewhere meanwhile. */
export async function recordRecovered(
  deps: RecordingDeps,
  row: TransactionRecord,
  answer: CarrierAnswer,
): Promise<void> {
  const { logger, metrics } = deps.services;
  const operation = deps.operations.find((candidate) => candidate.name === row.operation);
  const event =
    operation && answer.status === 'success'
      ? lineEventOf(operation, {
          input: row.request,
          answer: answer.outcome.body,
          transactionId: row.id,
          actorId: row.userId,
          carrier: row.carrier,
          recovered: true,
        })
      : null;
  // Recorded as the request's own completion would have: a request that named no line (an
  // activation) under the line its answer names.
  const namedLine = row.mdn ?? undefined;
  const answeredLine = namedLine ? undefined : nonEmptyText((answer.outcome.body as { mdn?: unknown } | null)?.mdn);
  const response = convertKeys(answer.outcome.body, toSnake);
  const follower = deps.followers[row.operation];
  const recorded = await deps.leases.resolve(row.id, answer.status, answer.outcome.status, response, {
    namedLine,
    answeredLine,
    event,
    follow:
      follower && ((tx, resolvedAt) => follower(tx, row, { id: row.id, status: answer.status, response, resolvedAt })),
  });
  if (recorded && event) deps.eventWritten();
  metrics.recoveries.inc({ outcome: answer.status });
  if (recorded)
    logger.info('transaction outcome recovered', {
      transactionId: row.id,
      operation: row.operation,
      status: answer.status,
      attempts: row.attempts,
    });
  else
    logger.warn(
      'transaction resolved elsewhere meanwhile (lease expired or its request finished); answer not recorded twice',
      { transactionId: row.id, operation: row.operation },
    );
}
