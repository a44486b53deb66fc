// Every RPC method the carrier_b sandbox answers, assembled from the per-area files in
// ./methods. Extended operations are deliberately absent: carrier_b does not offer them.

import type { RpcMethod } from './define-method.js';
import { activationMethods } from './methods/activation.js';
import { featureMethods } from './methods/features.js';
import { lifecycleMethods } from './methods/lifecycle.js';
import { planMethods } from './methods/plans.js';
import { queryMethods } from './methods/queries.js';

export function methodTable(): ReadonlyMap<string, RpcMethod> {
  return new Map(Object.entries({ ...featureMethods, ...queryMethods, ...lifecycleMethods, ...planMethods, ...activationMethods }));
}
