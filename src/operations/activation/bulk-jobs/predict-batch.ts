// The dry run of a bulk activation (activateSims, startBulkActivation): each SIM dry-run as the
// single activation would be (plan authorization, carrier, the SIM, ZIP and E911 checks), in
// request order, its predicted outcome an entry of the same shape as the real answer's. A SIM
// the real batch would refuse before its carrier (plan not authorized, transaction id taken
// or repeated in the batch) is a predicted failure too, as it would be a failure entry.

import { DuplicateTransactionError, isGatewayError } from '../../../errors/gateway-errors.js';
import type { LocalPredictionContext } from '../../../pipeline/operation.js';
import { quote } from '../../../lib/quote.js';
import type { BulkActivationEntry } from '../bulk-result.js';
import type { ActivationFields } from '../fields.js';
import { failedEntry, predictItem as predictSingle } from './activate-item.js';

const PREDICTED = 'Success (dry run: nothing was sent to the carrier)';

/** Every SIM's predicted entry; each is also a check of the report (`activations[i]`). */
export async function predictBatch(
  context: LocalPredictionContext<{ activations: ActivationFields[] }>,
): Promise<BulkActivationEntry[]> {
  const { checks, input } = context;
  const seen = new Set<string>();
  const entries: BulkActivationEntry[] = [];
  for (const [index, item] of input.activations.entries()) {
    const name = `activations[${index}]`;
    const id = item.transactionId ?? '';
    const entry = await predictItem(context, item, id, seen);
    if (item.transactionId) seen.add(item.transactionId);
    if (entry.status === 'failure') checks.failed(name, `SIM ${quote(item.sim)} would fail: ${entry.message}`);
    else checks.passed(name, `SIM ${quote(item.sim)} would be activated${entry.warning ? ` (${entry.warning})` : ''}`);
    entries.push(entry);
  }
  return entries;
}

async function predictItem(
  context: LocalPredictionContext<{ activations: ActivationFields[] }>,
  item: ActivationFields,
  id: string,
  seen: Set<string>,
): Promise<BulkActivationEntry> {
  // The real batch reserves each id in turn: a repeat within it is refused as a used one.
  if (item.transactionId && seen.has(item.transactionId))
    return failedEntry(item.sim, id, new DuplicateTransactionError(item.transactionId).message);
  try {
    const { report } = await predictSingle(context, item);
    context.checks.cannotPredict(...report.unpredictable);
    if (!report.wouldSucceed) return failedEntry(item.sim, id, report.predictedMessage ?? 'Would fail');
    return {
      sim: item.sim,
      status: 'success',
      transactionId: id,
      message: PREDICTED,
      ...(report.predictedWarning === null ? {} : { warning: report.predictedWarning, wfcStatus: false }),
    };
  } catch (error) {
    // What would answer a single activation as a whole (403 plan, 409 id) is this SIM's failure.
    if (isGatewayError(error)) return failedEntry(item.sim, id, error.message);
    throw error;
  }
}
