// POST /sim/activate/bulk/: activates many SIMs in one request, one after the other, each
// exactly as a single activation would (plan authorization, carrier resolution, transaction
// id, carrier call, line record); one SIM's failure is an entry in the answer, never the end.

import { z } from 'zod';
import { convertKeys, toSnake } from '../../lib/case.js';
import { isGatewayError } from '../../errors/gateway-errors.js';
import type { LocalContext } from '../../pipeline/operation.js';
import { defineOperation } from '../define.js';
import type { OperationResult } from '../schemas/envelope.js';
import { transactionId } from '../schemas/fields.js';
import { activationSpec } from './activate-sim.js';
import { bulkActivationResult, type BulkActivationEntry, type BulkActivationResult } from './bulk-result.js';
import { activationFields, type ActivationFields } from './fields.js';

/** The most SIMs one request may carry (the spec names none; this bounds one request's work). */
export const MAX_BULK_ACTIVATIONS = 100;

/**
 * One SIM of a batch: the single activation's definition without its route and rate limit
 * (the batch is counted once, by its own 10/hour limit), run through the shared pipeline by
 * `runOperation`.
 */
const activationItem = defineOperation<ActivationFields, OperationResult>(activationSpec);

const bulkInput = z.object({
  activations: z
    .array(activationFields)
    .min(1, 'activations must contain at least one activation')
    .max(MAX_BULK_ACTIVATIONS, `activations must contain at most ${MAX_BULK_ACTIVATIONS} activations`)
    .describe(`The SIMs to activate (1 to ${MAX_BULK_ACTIVATIONS}), each with the fields of a single activation`),
  transactionId: transactionId
    .optional()
    .describe('Id of the whole batch (unique; repeating one answers 409). Each SIM has its own transaction id'),
});

type BulkInput = z.infer<typeof bulkInput>;

let lastStamp = 0;

/** `BULK_<sim>_<epoch ms>`; strictly increasing stamps keep ids unique within this process. */
function bulkTransactionId(sim: string): string {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return `BULK_${sim}_${lastStamp}`;
}

function failure(sim: string, id: string, message: string): BulkActivationEntry {
  return { sim, status: 'failure', transactionId: id, message, error: [message] };
}

async function activateOne(
  item: ActivationFields,
  { request, runOperation }: LocalContext<BulkInput>,
): Promise<BulkActivationEntry> {
  const id = item.transactionId ?? bulkTransactionId(item.sim);
  try {
    const outcome = await runOperation(activationItem, { ...item, transactionId: id });
    // activationItem answers only with the envelope (its handler or its onRejection).
    const body = outcome.body as OperationResult;
    if (body.status === 'failure') return failure(item.sim, id, body.message);
    return {
      sim: item.sim,
      status: 'success',
      transactionId: id,
      mdn: body.mdn ?? undefined,
      message: body.message,
      ...(body.warning === undefined ? {} : { warning: body.warning, wfcStatus: body.wfcStatus }),
    };
  } catch (error) {
    // Refusals that answer a whole single request (403 plan, 409 id, 502/503/504 carrier)
    // are this SIM's failure here; anything unexpected is logged and reported without detail.
    if (isGatewayError(error)) return failure(item.sim, id, error.message);
    request.logger.error('bulk activation item failed', { sim: item.sim, err: error });
    return failure(item.sim, id, `Internal server error (request ${request.requestId})`);
  }
}

export const activateSims = defineOperation<BulkInput, BulkActivationResult, 'activateSims'>({
  name: 'activateSims',
  kind: 'mutation',
  description:
    'Activates several SIMs in one request, sequentially, each as `activateSim` would (plan authorization, carrier and transaction id per SIM). Answers HTTP 200 even with mixed results: one entry per SIM, in order, with `error` on failure',
  rest: { method: 'POST', path: '/sim/activate/bulk/' },
  input: bulkInput,
  output: bulkActivationResult,
  rateLimit: { max: 10, window: 'hour' },
  // Each SIM resolves its own carrier (by its plan) inside the pipeline, so the batch has none.
  routing: 'none',
  usesCarriers: true,
  handle: async (context) => {
    const { input, user, services } = context;
    const batchId = input.transactionId;
    if (batchId)
      await services.transactions.reserve({ id: batchId, userId: user.id, operation: 'activateSims', carrier: null });
    const results: BulkActivationEntry[] = [];
    for (const item of input.activations) results.push(await activateOne(item, context));
    const body = {
      results,
      total: input.activations.length,
      processed: results.filter((entry) => entry.status === 'success').length,
    };
    if (batchId) await services.transactions.complete(batchId, 'success', 200, convertKeys(body, toSnake));
    return { status: 200, body };
  },
});
