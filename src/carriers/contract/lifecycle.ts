// Carrier contract, lifecycle area: suspend and restore, disconnect and reconnect, SIM and
// number swaps, balance adjustments and child lines.

import { methodNames } from './method-names.js';
import type { BalanceUnit, CarrierWrite, LineRef, ServiceScope, WfcOutcome, WfcRequest } from './vocabulary.js';

export interface SuspendRequest extends CarrierWrite {
  mdn: string;
  /** Absent = all services. */
  service?: ServiceScope;
  hotlineNumber?: string;
  hotlineChargeable?: boolean;
  reason?: string;
}

export interface RestoreRequest extends CarrierWrite {
  mdn: string;
  service?: ServiceScope;
}

export interface DisconnectRequest extends CarrierWrite {
  mdn: string;
  sim: string;
}

export interface ReconnectRequest extends CarrierWrite {
  mdn: string;
  sim: string;
  carrierPlanId: string;
  zipCode: string;
  billingCode: string;
  wfc?: WfcRequest;
}

export interface ReconnectResult extends LineRef {
  wfc?: WfcOutcome;
}

export interface SwapSimRequest extends CarrierWrite {
  mdn: string;
  oldSim: string;
  newSim: string;
}

export interface SwapMdnRequest extends CarrierWrite {
  mdn: string;
  sim: string;
  zipCode: string;
  imei?: string;
}

export interface SwapMdnResult {
  mdn: string;
  newMdn: string;
  sim: string;
}

export interface BalanceAdjustment {
  subscriptionId: string;
  uom: BalanceUnit;
  amount: number;
  /** `YYYY-MM-DD` */
  expiryDate?: string;
}

export interface AdjustBalanceRequest extends CarrierWrite {
  mdn: string;
  subscriptionId: string;
  uom?: BalanceUnit;
  amount?: number;
  expiryDate?: string;
}

export interface AdjustBalancesRequest extends CarrierWrite {
  mdn: string;
  adjustments: BalanceAdjustment[];
}

export interface ChildLineRequest extends CarrierWrite {
  parentMdn: string;
  parentSim: string;
  childMdn: string;
  childSim?: string;
}

export interface CarrierLifecycleMethods {
  suspend(request: SuspendRequest): Promise<void>;
  restore(request: RestoreRequest): Promise<void>;
  disconnect(request: DisconnectRequest): Promise<LineRef>;
  reconnect(request: ReconnectRequest): Promise<ReconnectResult>;
  swapSim(request: SwapSimRequest): Promise<LineRef>;
  swapMdn(request: SwapMdnRequest): Promise<SwapMdnResult>;
  adjustBalance(request: AdjustBalanceRequest): Promise<void>;
  adjustBalances(request: AdjustBalancesRequest): Promise<void>;
  addChildLine(request: ChildLineRequest): Promise<void>;
  removeChildLine(request: ChildLineRequest): Promise<void>;
}

export const LIFECYCLE_METHODS = methodNames<CarrierLifecycleMethods>({
  suspend: true,
  restore: true,
  disconnect: true,
  reconnect: true,
  swapSim: true,
  swapMdn: true,
  adjustBalance: true,
  adjustBalances: true,
  addChildLine: true,
  removeChildLine: true,
});
