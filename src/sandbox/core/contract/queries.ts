// The sandbox core's queries area of the carrier contract.

import type { CarrierQueryMethods, E911Address } from '../../../carriers/types.js';
import { coverageFor } from '../coverage.js';
import { deviceInfo } from '../devices.js';
import { getCarrierUsage, getNetworkStatus, getServiceProfile, getUsage } from '../line-queries.js';
import { getEsimProfile, getSimDetails } from '../sim-queries.js';
import type { CoreContext } from '../state.js';
import { validateE911Address } from '../wfc.js';
import { query } from './method.js';

export function queryMethods(ctx: CoreContext) {
  return {
    getUsage: query(ctx, getUsage),
    getServiceProfile: query(ctx, getServiceProfile),
    getCarrierUsage: query(ctx, getCarrierUsage),
    getCoverage: query(ctx, (_ctx, zipCode: string) => coverageFor(zipCode)),
    getDevice: query(ctx, (_ctx, imei: string) => deviceInfo(imei)),
    getNetworkStatus: query(ctx, getNetworkStatus),
    getEsimProfile: query(ctx, getEsimProfile),
    getSimDetails: query(ctx, getSimDetails),
    validateE911Address: query(ctx, (_ctx, address: E911Address) => validateE911Address(address)),
  } satisfies CarrierQueryMethods;
}
