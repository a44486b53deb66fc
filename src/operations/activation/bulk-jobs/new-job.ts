// A new bulk activation job, as both of its entry points store it (the synchronous REST batch and
// startBulkActivation): the batch id's row with the job, every SIM's transaction id chosen (409,
// nothing stored, when the batch id is taken; batch-transaction.ts says when it is answered).

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
  return createJob(
    services.db,
    {
      ownerId: user.id,
      batch: input.transactionId === undefined ? undefined : { id: input.transactionId, operation },
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
