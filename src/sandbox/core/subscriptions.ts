// Subscriptions and their balances: a base subscription per plan and add-ons per purchase.
// Talk is kept in seconds (the SECOND unit); balance_details reports it in whole minutes.

import type { BalanceDetails, Subscription } from '../../carriers/types.js';
import type { PlanDefinition } from './plans.js';
import { sequenceId, type CoreContext, type LineRecord, type SubscriptionRecord } from './state.js';
import { carrierTimestamp, DAY_MS } from './time-format.js';

/** Plan grants are valid for one 30-day cycle from the moment they are made. */
const CYCLE_MS = 30 * DAY_MS;

/** Ended subscriptions remembered per line (for 949 on a repeated cancel); older ones are dropped. */
export const ENDED_SUBSCRIPTIONS_KEPT = 50;

export function newSubscription(
  ctx: CoreContext,
  plan: PlanDefinition,
  kind: SubscriptionRecord['kind'],
): SubscriptionRecord {
  const counters = ctx.state.counters;
  const id = kind === 'base' ? sequenceId('SUB', ++counters.subscription) : sequenceId('PUR', ++counters.purchase);
  const now = ctx.clock.now();
  const validTo = now + CYCLE_MS;
  return {
    id,
    kind,
    planCode: plan.soc,
    planName: plan.name,
    active: true,
    granted: { ...plan.allowance },
    validFrom: now,
    balances: {
      SECOND: { amount: plan.allowance.talkSeconds, validTo },
      EVENT: { amount: plan.allowance.texts, validTo },
      BYTE: { amount: plan.allowance.dataBytes, validTo },
    },
  };
}

/** Adds a subscription to the line, forgetting the oldest ended ones beyond the limit. */
export function addSubscription(line: LineRecord, subscription: SubscriptionRecord): void {
  line.subscriptions.push(subscription);
  let ended = line.subscriptions.filter((candidate) => !candidate.active).length;
  if (ended <= ENDED_SUBSCRIPTIONS_KEPT) return;
  line.subscriptions = line.subscriptions.filter((candidate) => candidate.active || --ended < ENDED_SUBSCRIPTIONS_KEPT);
}

export function activeSubscriptions(line: LineRecord): SubscriptionRecord[] {
  return line.subscriptions.filter((subscription) => subscription.active);
}

/**
 * The active subscriptions as reads list them: the base plan's first, then the add-ons in
 * purchase order (a plan change appends the new base plan; readers rely on the order).
 */
export function listedSubscriptions(line: LineRecord): SubscriptionRecord[] {
  const active = activeSubscriptions(line);
  return [...active.filter((s) => s.kind === 'base'), ...active.filter((s) => s.kind !== 'base')];
}

export function activePurchases(line: LineRecord): SubscriptionRecord[] {
  return activeSubscriptions(line).filter((subscription) => subscription.kind === 'addon');
}

export function subscriptionView(subscription: SubscriptionRecord): Subscription {
  const validFrom = carrierTimestamp(subscription.validFrom);
  return {
    purchaseId: subscription.id,
    planCode: subscription.planCode,
    planName: subscription.planName,
    balances: (['SECOND', 'EVENT', 'BYTE'] as const).map((uom) => ({
      uom,
      balance: subscription.balances[uom].amount,
      validFrom,
      validTo: carrierTimestamp(subscription.balances[uom].validTo),
    })),
  };
}

export function balanceDetails(line: LineRecord): BalanceDetails {
  let seconds = 0;
  let text = 0;
  let data = 0;
  for (const subscription of activeSubscriptions(line)) {
    seconds += subscription.balances.SECOND.amount;
    text += subscription.balances.EVENT.amount;
    data += subscription.balances.BYTE.amount;
  }
  return { talk: Math.floor(seconds / 60), text, data };
}
