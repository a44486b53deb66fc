// The sandbox carrier core: an in-memory carrier that both sandbox HTTP servers sit on.

export { SandboxCarrier, type SandboxCarrierOptions } from './sandbox-carrier.js';
export type { PurchaseOutcome } from './plan-changes.js';
export { PLAN_CATALOGUE, type PlanDefinition } from './plans.js';
export { REJECTION_TEXTS, type RejectionCode } from './rejections.js';
export { RECONNECT_WINDOW_MS } from './lifecycle.js';
export { UNLOCK_AFTER_MS } from './extended-queries.js';
export { LABEL_MAX_LENGTH, SMS_MAX_LENGTH } from './extended-writes.js';
export { classifyIccid, classifyZip, MDN_PREFIXES, type IccidClass, type ZipClass } from './test-values.js';
