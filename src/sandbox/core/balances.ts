// Balance adjustments: positive amounts add, negative deduct, per subscription and unit
// (SECOND = talk seconds, EVENT = messages, BYTE = data). A batch applies all or nothing.

import type { AdjustBalanceRequest, AdjustBalancesRequest, BalanceAdjustment } from '../../carriers/types.js';
import { requireLine } from './lines.js';
import { reject } from './rejections.js';
import type { BalanceRecord, CoreContext, LineRecord } from './state.js';
import { activeSubscriptions } from './subscriptions.js';
import { endOfDay } from './time-format.js';
import { recordActivity } from './usage-records.js';

export function adjustBalance(ctx: CoreContext, request: AdjustBalanceRequest): void {
  const line = requireLine(ctx, request.mdn);
  // With no unit the carrier adjusts the subscription's voice balance, its primary unit.
  applyAdjustments(ctx, line, [
    {
      subscriptionId: request.subscriptionId,
      uom: request.uom ?? 'SECOND',
      amount: request.amount ?? 0,
      expiryDate: request.expiryDate,
    },
  ]);
}

export function adjustBalances(ctx: CoreContext, request: AdjustBalancesRequest): void {
  applyAdjustments(ctx, requireLine(ctx, request.mdn), request.adjustments);
}

function applyAdjustments(ctx: CoreContext, line: LineRecord, adjustments: BalanceAdjustment[]): void {
  // Work out every new amount first, so that a refusal part-way changes nothing.
  const planned = new Map<BalanceRecord, { amount: number; validTo: number }>();
  for (const adjustment of adjustments) {
    const subscription =
      activeSubscriptions(line).find((candidate) => candidate.id === adjustment.subscriptionId) ?? reject('919');
    const balance = subscription.balances[adjustment.uom];
    const current = planned.get(balance) ?? { amount: balance.amount, validTo: balance.validTo };
    const amount = current.amount + adjustment.amount;
    if (amount < 0) reject('920');
    let validTo = current.validTo;
    if (adjustment.expiryDate !== undefined) {
      validTo =
        endOfDay(adjustment.expiryDate) ??
        reject('GENS-0404', 'Invalid request parameter: expiry_date must be YYYY-MM-DD');
    }
    planned.set(balance, { amount, validTo });
  }
  for (const [balance, next] of planned) {
    balance.amount = next.amount;
    balance.validTo = next.validTo;
  }
  recordActivity(ctx, line);
}
