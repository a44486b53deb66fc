// The sandbox core's extended area of the carrier contract: what a carrier-321-style sandbox
// exposes as `core.extended`; its writes de-duplicate by transaction id like every other write.

import type { AddressToValidate, ExtendedCarrierOperations } from '../../../carriers/types.js';
import { numberGroupsFor } from '../coverage.js';
import { imeiDetails } from '../devices.js';
import * as reads from '../extended-queries.js';
import * as writes from '../extended-writes.js';
import type { CoreContext } from '../state.js';
import { query, write } from './method.js';

export function extendedMethods(ctx: CoreContext) {
  return {
    listAvailablePlans: query(ctx, () => reads.listAvailablePlans()),
    validateAddress: query(ctx, (_ctx, address: AddressToValidate) => reads.validateAddress(address)),
    getDeviceUnlockStatus: query(ctx, reads.getDeviceUnlockStatus),
    getAccount: query(ctx, reads.getAccount),
    getPoolUsage: query(ctx, reads.getPoolUsage),
    getNumberGroups: query(ctx, (context, zipCode: string) => numberGroupsFor(context.carrier, zipCode)),
    getActivePlan: query(ctx, reads.getActivePlan),
    getImeiDetails: query(ctx, (_ctx, imei: string) => imeiDetails(imei)),
    getProducts: query(ctx, reads.getProducts),
    getCustomerImpactingEvents: query(ctx, reads.getCustomerImpactingEvents),
    sendSms: write(ctx, 'sendSms', writes.sendSms),
    managePhoneList: write(ctx, 'managePhoneList', writes.managePhoneList),
    setLabel: write(ctx, 'setLabel', writes.setLabel),
    changeImei: write(ctx, 'changeImei', writes.changeImei),
  } satisfies ExtendedCarrierOperations;
}
