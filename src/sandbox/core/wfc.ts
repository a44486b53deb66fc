// Wi-Fi Calling provisioning as a side step of plan-bearing operations (activation, plan
// change, reconnect, purchase): a bad or missing E911 address fails WFC only, never the
// operation that carried it.

import type { E911Address, WfcOutcome, WfcRequest } from '../../carriers/types.js';
import { REJECTION_TEXTS } from './rejections.js';
import type { CoreContext, LineRecord } from './state.js';
import { isInvalidE911Address } from './test-values.js';

export function enableWfc(ctx: CoreContext, line: LineRecord, address: E911Address): void {
  line.wfc = { enabled: true, address: { ...address }, since: line.wfc.enabled ? line.wfc.since : ctx.clock.now() };
}

export function disableWfc(line: LineRecord): void {
  line.wfc = { enabled: false, address: null, since: null };
}

/** Undefined when WFC was not requested. */
export function provisionWfc(
  ctx: CoreContext,
  line: LineRecord,
  request: WfcRequest | undefined,
): WfcOutcome | undefined {
  if (request === undefined) return undefined;
  if (request.address === null || isInvalidE911Address(request.address)) {
    const text = request.address === null ? 'Invalid E911 address: no address supplied' : REJECTION_TEXTS['GENS-0090'];
    return { provisioned: false, failure: { code: 'GENS-0090', text } };
  }
  enableWfc(ctx, line, request.address);
  return { provisioned: true };
}
