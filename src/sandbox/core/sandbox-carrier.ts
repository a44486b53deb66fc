// The stateful in-memory carrier behind both sandbox servers: it keeps lines, SIMs, numbers
// and purchases, enforces the spec's rules, refuses with the spec's codes and replays writes
// by transaction id. Each operation lives in its own module; the contract's methods come from
// one typed table per area (./contract/<area>.ts), so a missing method fails to compile there.

import type { CarrierId, CarrierMethods, CarrierOperations, ExtendedCarrierOperations } from '../../carriers/types.js';
import type { SandboxControls } from '../http-kit.js';
import { SandboxClock } from './clock.js';
import { activationMethods } from './contract/activation.js';
import { extendedMethods } from './contract/extended.js';
import { featureMethods } from './contract/features.js';
import { lifecycleMethods } from './contract/lifecycle.js';
import { planMethods } from './contract/plans.js';
import { queryMethods } from './contract/queries.js';
import { DEFAULT_MDN_POOL_SIZE, MAX_MDN_POOL_SIZE } from './mdn-pool.js';
import { createState, type ActivationCalls, type CoreContext } from './state.js';

export interface SandboxCarrierOptions {
  carrier: CarrierId;
  /** Whether `extended` is offered; defaults to true for carrier 321 only. */
  extended?: boolean;
  /** Active add-on purchases a subscriber may hold before 969; default 5. */
  maxPurchases?: number;
  /** Freezes the clock at this instant (it then moves only by `advanceClock`); default: wall time. */
  startTime?: Date;
  /** How many numbers the MDN pool holds before GENS-0011; default 9999 (one exchange), at most 99,990. */
  mdnPoolSize?: number;
}

function contractMethods(ctx: CoreContext): CarrierMethods {
  return {
    ...featureMethods(ctx),
    ...queryMethods(ctx),
    ...lifecycleMethods(ctx),
    ...planMethods(ctx),
    ...activationMethods(ctx),
  };
}

/**
 * A base class whose instances carry the table's methods as their own properties, so that
 * `SandboxCarrier` is a class (tests and tools construct it) without re-declaring each method.
 */
const ContractMethodTable = class {
  constructor(ctx: CoreContext) {
    Object.assign(this, contractMethods(ctx));
  }
} as new (ctx: CoreContext) => CarrierMethods;

function contextFor(options: SandboxCarrierOptions): CoreContext {
  const maxPurchases = options.maxPurchases ?? 5;
  const mdnPoolSize = options.mdnPoolSize ?? DEFAULT_MDN_POOL_SIZE;
  if (!Number.isInteger(maxPurchases) || maxPurchases < 0)
    throw new RangeError('maxPurchases must be a whole number, 0 or more');
  if (!Number.isInteger(mdnPoolSize) || mdnPoolSize < 0 || mdnPoolSize > MAX_MDN_POOL_SIZE) {
    throw new RangeError(`mdnPoolSize must be a whole number from 0 to ${MAX_MDN_POOL_SIZE}`);
  }
  const clock = new SandboxClock(options.startTime);
  return { carrier: options.carrier, maxPurchases, mdnPoolSize, clock, state: createState(clock.now()) };
}

export class SandboxCarrier extends ContractMethodTable implements CarrierOperations, SandboxControls {
  readonly carrier: CarrierId;
  readonly extended: ExtendedCarrierOperations | undefined;
  private readonly ctx: CoreContext;

  constructor(options: SandboxCarrierOptions) {
    const ctx = contextFor(options);
    super(ctx);
    this.ctx = ctx;
    this.carrier = options.carrier;
    this.extended = (options.extended ?? options.carrier === '321') ? extendedMethods(ctx) : undefined;
  }

  // ------------------------------------------------------------ sandbox controls

  advanceClock(milliseconds: number): void {
    this.ctx.clock.advance(milliseconds);
  }

  now(): Date {
    return new Date(this.ctx.clock.now());
  }

  activationCalls(sim: string): ActivationCalls {
    const seen = this.ctx.state.activationCalls.get(sim);
    return { requests: seen?.requests ?? 0, transactionIds: [...(seen?.transactionIds ?? [])] };
  }

  reset(): void {
    this.ctx.clock.reset();
    this.ctx.state = createState(this.ctx.clock.now());
  }
}
