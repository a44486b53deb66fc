// Wi-Fi Calling provisioning as a side step of plan-bearing operations (activation, plan
// change, reconnect, purchase): a bad or missing E911 address fails WFC only, never the
// operation that carried it.

import type {
  CarrierFailureDetail,
  E911Address,
  E911Validation,
  WfcOutcome,
  WfcRequest,
} from '../../carriers/types.js';
import { REJECTION_TEXTS } from './rejections.js';
import type { CoreContext, LineRecord } from './state.js';
import { isInvalidE911Address } from './test-values.js';

export function enableWfc(ctx: CoreContext, line: LineRecord, address: E911Address): void {
  line.wfc = { enabled: true, address: { ...address }, since: line.wfc.enabled ? line.wfc.since : ctx.clock.now() };
}

export function disableWfc(line: LineRecord): void {
  line.wfc = { enabled: false, address: null, since: null };
}

const NO_ADDRESS: CarrierFailureDetail = { code: 'GENS-0090', text: 'Invalid E911 address: no address supplied' };

/**
 * The one judgement of an E911 address that every WFC write and the read-only validation
 * share, so that a validation predicts the writes exactly. Null when the address is valid.
 */
function e911Failure(address: E911Address | null): CarrierFailureDetail | null {
  if (address === null) return NO_ADDRESS;
  if (isInvalidE911Address(address)) return { code: 'GENS-0090', text: REJECTION_TEXTS['GENS-0090'] };
  return null;
}

export function validateE911Address(address: E911Address | null): E911Validation {
  const failure = e911Failure(address);
  return failure === null ? { valid: true } : { valid: false, failure };
}

/** Undefined when WFC was not requested. */
export function provisionWfc(
  ctx: CoreContext,
  line: LineRecord,
  request: WfcRequest | undefined,
): WfcOutcome | undefined {
  if (request === undefined) return undefined;
  if (request.address === null) return { provisioned: false, failure: NO_ADDRESS };
  const failure = e911Failure(request.address);
  if (failure !== null) return { provisioned: false, failure };
  enableWfc(ctx, line, request.address);
  return { provisioned: true };
}
