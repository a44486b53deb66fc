// The sandbox core's plans area of the carrier contract.

import type { CarrierPlanMethods } from '../../../carriers/types.js';
import { cancelPurchase, changeBillingCode, changePlan, purchasePlan } from '../plan-changes.js';
import type { CoreContext } from '../state.js';
import { write } from './method.js';

export function planMethods(ctx: CoreContext) {
  return {
    changePlan: write(ctx, 'changePlan', changePlan),
    /** Resolves to a `PurchaseResult`, plus `wfc` when the request asked for WFC. */
    purchasePlan: write(ctx, 'purchasePlan', purchasePlan),
    cancelPurchase: write(ctx, 'cancelPurchase', cancelPurchase),
    changeBillingCode: write(ctx, 'changeBillingCode', changeBillingCode),
  } satisfies CarrierPlanMethods;
}
