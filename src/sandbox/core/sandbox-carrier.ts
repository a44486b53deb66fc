// The stateful in-memory carrier behind both sandbox servers: it keeps lines, SIMs, numbers
// and purchases, enforces the spec's rules, refuses with the spec's codes and replays writes
// by transaction id. Each operation lives in its own module; this class only delegates.

import type {
  ActivateRequest,
  AddWfcRequest,
  AdjustBalanceRequest,
  AdjustBalancesRequest,
  CancelPurchaseRequest,
  CarrierId,
  CarrierOperations,
  ChangeBillingCodeRequest,
  ChangePlanRequest,
  ChildLineRequest,
  DisconnectRequest,
  ExtendedCarrierOperations,
  MdnWrite,
  PurchasePlanRequest,
  ReconnectRequest,
  ResetVoicemailRequest,
  RestoreRequest,
  SetVoicemailLanguageRequest,
  SuspendRequest,
  SwapMdnRequest,
  SwapSimRequest,
  UpdateE911Request,
} from '../../carriers/types.js';
import type { SandboxControls } from '../http-kit.js';
import { activate } from './activation.js';
import { adjustBalance, adjustBalances } from './balances.js';
import { addChildLine, removeChildLine } from './child-lines.js';
import { SandboxClock } from './clock.js';
import { coverageFor } from './coverage.js';
import { deviceInfo } from './devices.js';
import { SandboxExtendedOperations } from './extended.js';
import { addWfc, cancelDeviceLocation, resetVoicemailPassword, setVoicemailLanguage, updateE911Address } from './features.js';
import { disconnect, reconnect, restore, suspend } from './lifecycle.js';
import { getCarrierUsage, getNetworkStatus, getServiceProfile, getUsage } from './line-queries.js';
import { DEFAULT_MDN_POOL_SIZE } from './mdn-pool.js';
import { cancelPurchase, changeBillingCode, changePlan, purchasePlan } from './plan-changes.js';
import { once } from './replay.js';
import { getEsimProfile, getSimDetails } from './sim-queries.js';
import { createState, type CoreContext } from './state.js';
import { swapMdn, swapSim } from './swaps.js';

export interface SandboxCarrierOptions {
  carrier: CarrierId;
  /** Whether `extended` is offered; defaults to true for carrier 321 only. */
  extended?: boolean;
  /** Active add-on purchases a subscriber may hold before 969; default 5. */
  maxPurchases?: number;
  /** Freezes the clock at this instant (it then moves only by `advanceClock`); default: wall time. */
  startTime?: Date;
  /** How many numbers the MDN pool holds before GENS-0011; default (and maximum) 9999. */
  mdnPoolSize?: number;
}

export class SandboxCarrier implements CarrierOperations, SandboxControls {
  readonly carrier: CarrierId;
  readonly extended: ExtendedCarrierOperations | undefined;
  private readonly ctx: CoreContext;

  constructor(options: SandboxCarrierOptions) {
    const maxPurchases = options.maxPurchases ?? 5;
    const mdnPoolSize = options.mdnPoolSize ?? DEFAULT_MDN_POOL_SIZE;
    if (!Number.isInteger(maxPurchases) || maxPurchases < 0) throw new RangeError('maxPurchases must be a whole number, 0 or more');
    if (!Number.isInteger(mdnPoolSize) || mdnPoolSize < 0 || mdnPoolSize > DEFAULT_MDN_POOL_SIZE) {
      throw new RangeError(`mdnPoolSize must be a whole number from 0 to ${DEFAULT_MDN_POOL_SIZE}`);
    }
    const clock = new SandboxClock(options.startTime);
    this.carrier = options.carrier;
    this.ctx = { carrier: options.carrier, maxPurchases, mdnPoolSize, clock, state: createState(clock.now()) };
    this.extended = (options.extended ?? options.carrier === '321') ? new SandboxExtendedOperations(this.ctx) : undefined;
  }

  // ------------------------------------------------------------ sandbox controls

  advanceClock(milliseconds: number): void {
    this.ctx.clock.advance(milliseconds);
  }

  now(): Date {
    return new Date(this.ctx.clock.now());
  }

  reset(): void {
    this.ctx.clock.reset();
    this.ctx.state = createState(this.ctx.clock.now());
  }

  // ------------------------------------------------------------ features

  async addWfc(request: AddWfcRequest) {
    return once(this.ctx, 'addWfc', request.transactionId, () => addWfc(this.ctx, request));
  }

  async updateE911Address(request: UpdateE911Request) {
    return once(this.ctx, 'updateE911Address', request.transactionId, () => updateE911Address(this.ctx, request));
  }

  async resetVoicemailPassword(request: ResetVoicemailRequest) {
    return once(this.ctx, 'resetVoicemailPassword', request.transactionId, () => resetVoicemailPassword(this.ctx, request));
  }

  async setVoicemailLanguage(request: SetVoicemailLanguageRequest) {
    return once(this.ctx, 'setVoicemailLanguage', request.transactionId, () => setVoicemailLanguage(this.ctx, request));
  }

  async cancelDeviceLocation(request: MdnWrite) {
    return once(this.ctx, 'cancelDeviceLocation', request.transactionId, () => cancelDeviceLocation(this.ctx, request));
  }

  // ------------------------------------------------------------ queries

  async getUsage(mdn: string) {
    return getUsage(this.ctx, mdn);
  }

  async getServiceProfile(mdn: string, sim?: string) {
    return getServiceProfile(this.ctx, mdn, sim);
  }

  async getCarrierUsage(mdn: string) {
    return getCarrierUsage(this.ctx, mdn);
  }

  async getCoverage(zipCode: string) {
    return coverageFor(zipCode);
  }

  async getDevice(imei: string) {
    return deviceInfo(imei);
  }

  async getNetworkStatus(mdn: string) {
    return getNetworkStatus(this.ctx, mdn);
  }

  async getEsimProfile(sim: string) {
    return getEsimProfile(this.ctx, sim);
  }

  async getSimDetails(sim: string) {
    return getSimDetails(this.ctx, sim);
  }

  // ------------------------------------------------------------ lifecycle

  async suspend(request: SuspendRequest) {
    return once(this.ctx, 'suspend', request.transactionId, () => suspend(this.ctx, request));
  }

  async restore(request: RestoreRequest) {
    return once(this.ctx, 'restore', request.transactionId, () => restore(this.ctx, request));
  }

  async disconnect(request: DisconnectRequest) {
    return once(this.ctx, 'disconnect', request.transactionId, () => disconnect(this.ctx, request));
  }

  async reconnect(request: ReconnectRequest) {
    return once(this.ctx, 'reconnect', request.transactionId, () => reconnect(this.ctx, request));
  }

  async swapSim(request: SwapSimRequest) {
    return once(this.ctx, 'swapSim', request.transactionId, () => swapSim(this.ctx, request));
  }

  async swapMdn(request: SwapMdnRequest) {
    return once(this.ctx, 'swapMdn', request.transactionId, () => swapMdn(this.ctx, request));
  }

  async adjustBalance(request: AdjustBalanceRequest) {
    return once(this.ctx, 'adjustBalance', request.transactionId, () => adjustBalance(this.ctx, request));
  }

  async adjustBalances(request: AdjustBalancesRequest) {
    return once(this.ctx, 'adjustBalances', request.transactionId, () => adjustBalances(this.ctx, request));
  }

  async addChildLine(request: ChildLineRequest) {
    return once(this.ctx, 'addChildLine', request.transactionId, () => addChildLine(this.ctx, request));
  }

  async removeChildLine(request: ChildLineRequest) {
    return once(this.ctx, 'removeChildLine', request.transactionId, () => removeChildLine(this.ctx, request));
  }

  // ------------------------------------------------------------ plans

  async changePlan(request: ChangePlanRequest) {
    return once(this.ctx, 'changePlan', request.transactionId, () => changePlan(this.ctx, request));
  }

  /** Resolves to a `PurchaseResult`, plus `wfc` when the request asked for WFC. */
  async purchasePlan(request: PurchasePlanRequest) {
    return once(this.ctx, 'purchasePlan', request.transactionId, () => purchasePlan(this.ctx, request));
  }

  async cancelPurchase(request: CancelPurchaseRequest) {
    return once(this.ctx, 'cancelPurchase', request.transactionId, () => cancelPurchase(this.ctx, request));
  }

  async changeBillingCode(request: ChangeBillingCodeRequest) {
    return once(this.ctx, 'changeBillingCode', request.transactionId, () => changeBillingCode(this.ctx, request));
  }

  // ------------------------------------------------------------ activation

  async activate(request: ActivateRequest) {
    return once(this.ctx, 'activate', request.transactionId, () => activate(this.ctx, request));
  }
}
