// The Wi-Fi Calling partial-success rule shared by activation, reconnect
// and plan change: when the main operation succeeded but WFC could not be added, the answer
// is still HTTP 200 with `warning` and `wfcStatus: false`.

import type { E911Address, WfcOutcome, WfcRequest } from '../carriers/types.js';
import type { PlanRecord } from '../directory/types.js';

/** The WFC request for a WFC plan (the carrier tries, and reports failure separately). */
export function wfcFor(plan: PlanRecord, address: E911Address | null): WfcRequest | undefined {
  return plan.wfc ? { address } : undefined;
}

/** `warning` and `wfcStatus: false` when WFC was requested and not provisioned. */
export function wfcWarning(what: string, outcome: WfcOutcome | undefined): { warning?: string; wfcStatus?: boolean } {
  if (!outcome || outcome.provisioned) return {};
  const reason = `${outcome.failure.text} (${outcome.failure.code})`;
  return { warning: `${what} succeeded but Wi-Fi Calling could not be added: ${reason}`, wfcStatus: false };
}
