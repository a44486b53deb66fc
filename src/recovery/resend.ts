// Re-sends one unresolved write exactly as its request would have: the same operation handler,
// the original user, the stored validated input, the stored carrier, the plan the input names
// and the same transaction id (so the carrier de-duplicates it into its first answer). The
// handler also records the line (its carrier, its owner) as the original call would have.

import { CARRIER_IDS, type CarrierId } from '../carriers/types.js';
import { runCarrierHandler, type CarrierAnswer } from '../pipeline/carrier-handler.js';
import { requestContextFor } from '../pipeline/request-context.js';
import type { TransactionRecord } from '../pipeline/transaction-log.js';
import type { CarrierCall, CarrierRoutedOperation, RegisteredOperation } from '../pipeline/operation.js';
import type { Services } from '../pipeline/services.js';

/** Why a row cannot be re-sent (yet): reported, and retried later like a fault. */
export class NotResendable extends Error {
  override readonly name = 'NotResendable';
}

export async function resend(
  services: Services,
  operations: readonly RegisteredOperation[],
  row: TransactionRecord,
): Promise<CarrierAnswer> {
  const operation = operations.find(
    (candidate): candidate is CarrierRoutedOperation =>
      candidate.name === row.operation && candidate.routing !== 'none',
  );
  if (!operation) throw new NotResendable(`operation ${row.operation} cannot be re-sent`);
  if (row.request === null || typeof row.request !== 'object') throw new NotResendable('no stored request');
  if (!CARRIER_IDS.includes(row.carrier as CarrierId))
    throw new NotResendable(`unknown carrier ${String(row.carrier)}`);
  const carrierId = row.carrier as CarrierId;
  const user = await services.directory.user(row.userId);
  if (!user) throw new NotResendable('the user of the transaction no longer exists');
  const input = row.request as Record<string, unknown>;
  const planId = operation.planField ? input[operation.planField] : undefined;
  const plan = typeof planId === 'string' ? await services.directory.plan(planId) : null;
  if (operation.planField && !plan) throw new NotResendable(`plan ${String(planId)} no longer exists`);
  const carrier = services.carriers.adapter(carrierId);
  if (operation.extended && !carrier.extended)
    throw new NotResendable(`carrier ${carrierId} has no extended operations`);
  const context: CarrierCall = {
    input,
    user,
    services,
    request: requestContextFor(services, `recovery-${row.id}`, user),
    carrierId,
    carrier,
    extended: carrier.extended,
    transactionId: row.id,
    plan,
  };
  return runCarrierHandler(operation, context);
}
