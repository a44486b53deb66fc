// carrier_b adapter method for activating a SIM on a tariff.

import type { CarrierOperations } from '../../types.js';
import { decodeWifiCalling, encodeAddress, encodeLanguage, encodeWifiCalling } from '../codec.js';
import type { RpcClient } from '../rpc-client.js';
import { activated } from '../wire-schemas.js';

export function activationOperations(rpc: RpcClient): Pick<CarrierOperations, 'activate'> {
  return {
    async activate(request) {
      const params = {
        iccid: request.sim,
        ratePlan: request.carrierPlanId,
        postCode: request.zipCode,
        emergencyAddress: encodeAddress(request.address),
        simKind: request.isEsim ? 'esim' : 'physical',
        contactEmail: request.email,
        costPlan: request.billingCode,
        greetingLanguage: encodeLanguage(request.language),
        wifiCalling: encodeWifiCalling(request.wfc),
      };
      const result = await rpc.write('Subscriber.Activate', request.transactionId, params, activated);
      return { mdn: result.msisdn, sim: result.iccid, customerId: result.customerRef, ...decodeWifiCalling(result.wifiCalling) };
    },
  };
}
