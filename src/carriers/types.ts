// The carrier-neutral vocabulary spoken between the gateway, the carrier adapters and the
// sandbox carriers. Every adapter translates these shapes to and from its own wire format;
// nothing here knows about HTTP, REST bodies or GraphQL.
//
// The contract is split by area (./contract/<area>.ts, like each carrier tree's area files);
// this file is its one entry point and puts the areas together into `CarrierOperations`.

import { ACTIVATION_METHODS, type CarrierActivationMethods } from './contract/activation.js';
import type { ExtendedCarrierOperations } from './contract/extended.js';
import { FEATURE_METHODS, type CarrierFeatureMethods } from './contract/features.js';
import { LIFECYCLE_METHODS, type CarrierLifecycleMethods } from './contract/lifecycle.js';
import { PLAN_METHODS, type CarrierPlanMethods } from './contract/plans.js';
import { QUERY_METHODS, type CarrierQueryMethods } from './contract/queries.js';
import type { CarrierId } from './contract/vocabulary.js';

export * from './contract/vocabulary.js';
export * from './contract/features.js';
export * from './contract/queries.js';
export * from './contract/lifecycle.js';
export * from './contract/plans.js';
export * from './contract/activation.js';
export * from './contract/extended.js';

/** The methods every carrier implements: one interface per area. */
export type CarrierMethods = CarrierFeatureMethods &
  CarrierQueryMethods &
  CarrierLifecycleMethods &
  CarrierPlanMethods &
  CarrierActivationMethods;

/**
 * One method per carrier operation of the spec. A business refusal by the carrier is thrown
 * as `CarrierRejection`; a carrier that cannot be reached or answers nonsense is thrown as
 * `CarrierFault` (see errors.ts).
 */
export interface CarrierOperations extends CarrierMethods {
  readonly carrier: CarrierId;
  /** Present only on carriers that support the extended operations. */
  readonly extended?: ExtendedCarrierOperations;
}

/** Every method of `CarrierOperations` (not `extended`'s), by area: what each carrier tree must implement. */
export const CARRIER_METHODS_BY_AREA = {
  features: FEATURE_METHODS,
  queries: QUERY_METHODS,
  lifecycle: LIFECYCLE_METHODS,
  plans: PLAN_METHODS,
  activation: ACTIVATION_METHODS,
} as const;

export const CARRIER_METHODS: readonly (keyof CarrierMethods & string)[] =
  Object.values(CARRIER_METHODS_BY_AREA).flat();
