// Carrier contract, plans area: plan change, add-on purchases and the wholesale billing code.

import { methodNames } from './method-names.js';
import type { CarrierWrite, WfcOutcome, WfcRequest } from './vocabulary.js';

export interface ChangePlanRequest extends CarrierWrite {
  mdn: string;
  sim?: string;
  carrierPlanId: string;
  wfc?: WfcRequest;
}

export interface ChangePlanResult {
  mdn: string;
  wfc?: WfcOutcome;
}

export interface PurchasePlanRequest extends CarrierWrite {
  mdn: string;
  carrierPlanId: string;
  wfc?: WfcRequest;
}

export interface PurchaseResult {
  mdn: string;
  purchaseId: string;
  /** Present when the purchased plan is a WFC plan (purchasePlan only). */
  wfc?: WfcOutcome;
}

export interface CancelPurchaseRequest extends CarrierWrite {
  mdn: string;
  purchaseId: string;
}

export interface ChangeBillingCodeRequest extends CarrierWrite {
  mdn: string;
  billingCode: string;
}

export interface CarrierPlanMethods {
  changePlan(request: ChangePlanRequest): Promise<ChangePlanResult>;
  purchasePlan(request: PurchasePlanRequest): Promise<PurchaseResult>;
  cancelPurchase(request: CancelPurchaseRequest): Promise<PurchaseResult>;
  changeBillingCode(request: ChangeBillingCodeRequest): Promise<void>;
}

export const PLAN_METHODS = methodNames<CarrierPlanMethods>({
  changePlan: true,
  purchasePlan: true,
  cancelPurchase: true,
  changeBillingCode: true,
});
