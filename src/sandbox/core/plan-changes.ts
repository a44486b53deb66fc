// Plan management: a new base plan, add-on purchases (capped per subscriber) and their
// cancellation, and the wholesale billing code.

import type {
  CancelPurchaseRequest,
  ChangeBillingCodeRequest,
  ChangePlanRequest,
  ChangePlanResult,
  PurchasePlanRequest,
  PurchaseResult,
  WfcOutcome,
} from '../../carriers/types.js';
import { requireLine, verifySim } from './lines.js';
import { requirePlan } from './plans.js';
import { reject } from './rejections.js';
import type { CoreContext } from './state.js';
import { activePurchases, activeSubscriptions, addSubscription, newSubscription } from './subscriptions.js';
import { recordActivity } from './usage-records.js';
import { provisionWfc } from './wfc.js';

export function changePlan(ctx: CoreContext, request: ChangePlanRequest): ChangePlanResult {
  const line = requireLine(ctx, request.mdn);
  verifySim(line, request.sim, '918');
  const plan = requirePlan(request.carrierPlanId);
  if (plan.soc === line.plan.carrierPlanId) reject('916');
  for (const subscription of line.subscriptions) {
    if (subscription.kind === 'base') subscription.active = false;
  }
  addSubscription(line, newSubscription(ctx, plan, 'base'));
  line.plan = { carrierPlanId: plan.soc, name: plan.name, effectiveAt: ctx.clock.now() };
  const wfc = provisionWfc(ctx, line, request.wfc);
  recordActivity(ctx, line);
  return { mdn: line.mdn, ...(wfc ? { wfc } : {}) };
}

/** `PurchaseResult` plus the WFC outcome when the purchased plan asked for WFC. */
export type PurchaseOutcome = PurchaseResult & { wfc?: WfcOutcome };

export function purchasePlan(ctx: CoreContext, request: PurchasePlanRequest): PurchaseOutcome {
  const line = requireLine(ctx, request.mdn);
  const plan = requirePlan(request.carrierPlanId);
  if (activePurchases(line).length >= ctx.maxPurchases) reject('969');
  const purchase = newSubscription(ctx, plan, 'addon');
  addSubscription(line, purchase);
  const wfc = provisionWfc(ctx, line, request.wfc);
  recordActivity(ctx, line);
  return { mdn: line.mdn, purchaseId: purchase.id, ...(wfc ? { wfc } : {}) };
}

export function cancelPurchase(ctx: CoreContext, request: CancelPurchaseRequest): PurchaseResult {
  const line = requireLine(ctx, request.mdn);
  // The spec's rule: an active subscription must exist for the purchase id, else 949 (an
  // unknown id, another line's purchase, an ended or forgotten one, an earlier plan's). The
  // current base plan's own subscription id is not a purchase at all: 919. Both are what the
  // line's listed (active) subscriptions tell a reader, so a dry run predicts them.
  const subscription = activeSubscriptions(line).find((candidate) => candidate.id === request.purchaseId);
  if (subscription?.kind === 'base') reject('919');
  const purchase = subscription ?? reject('949');
  purchase.active = false;
  recordActivity(ctx, line);
  return { mdn: line.mdn, purchaseId: purchase.id };
}

export function changeBillingCode(ctx: CoreContext, request: ChangeBillingCodeRequest): void {
  const line = requireLine(ctx, request.mdn);
  line.billingCode = request.billingCode;
  recordActivity(ctx, line);
}
