// Every RPC method the carrier_b sandbox answers, assembled from the per-area files in
// ./methods, each keyed by the contract method it serves. Extended operations are deliberately
// absent: carrier_b does not offer them.

import type { RpcMethod } from './define-method.js';
import { activationMethods } from './methods/activation.js';
import { featureMethods } from './methods/features.js';
import { lifecycleMethods } from './methods/lifecycle.js';
import { planMethods } from './methods/plans.js';
import { queryMethods } from './methods/queries.js';

/** The RPC methods keyed by contract method. */
export const carrierBMethods = {
  ...featureMethods,
  ...queryMethods,
  ...lifecycleMethods,
  ...planMethods,
  ...activationMethods,
};

/** The RPC methods keyed by their wire name, as the server dispatches on them. */
export function methodTable(): ReadonlyMap<string, RpcMethod> {
  return new Map(Object.values(carrierBMethods).map((method) => [method.name, method]));
}
