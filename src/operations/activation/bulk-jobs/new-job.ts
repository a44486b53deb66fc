// A new bulk activation job, as both of its entry points store it (the synchronous REST batch and
// startBulkActivation): the batch id reserved first (409, nothing stored, when it is taken), then
// the job with every SIM's transaction id chosen.

import { parseDatabaseUrl } from '../../../db/client.js';
import type { UserRecord } from '../../../directory/types.js';
import type { Services } from '../../../pipeline/services.js';
import type { ActivationFields } from '../fields.js';
import { bulkTransactionId } from './activate-item.js';
import { createJob } from './job-store.js';

export async function storeJob(
  services: Services,
  user: UserRecord,
  operation: string,
  input: { activations: readonly ActivationFields[]; transactionId?: string },
): Promise<string> {
  const batchId = input.transactionId;
  if (batchId) await services.transactions.reserve({ id: batchId, userId: user.id, operation, carrier: null });
  return createJob(
    services.db,
    {
      ownerId: user.id,
      transactionId: batchId,
      items: input.activations.map((item) => ({
        input: item,
        transactionId: item.transactionId ?? bulkTransactionId(item.sim),
      })),
    },
    parseDatabaseUrl(services.config.DATABASE_URL).provider === 'sqlite',
  );
}

/** The input of a batch: 1 to `max` activations and an optional batch id. */
export function batchDescription(max: number): string {
  return `The SIMs to activate (1 to ${max}), each with the fields of a single activation`;
}
