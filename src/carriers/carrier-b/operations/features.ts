// carrier_b adapter methods for optional line features: Wi-Fi Calling / E911, voicemail and
// device location tracking.

import type { CarrierOperations } from '../../types.js';
import { encodeAddress, encodeLanguage } from '../codec.js';
import type { RpcClient } from '../rpc-client.js';
import { accepted, lineRef } from '../wire-schemas.js';

type FeatureOperations = Pick<
  CarrierOperations,
  'addWfc' | 'updateE911Address' | 'resetVoicemailPassword' | 'setVoicemailLanguage' | 'cancelDeviceLocation'
>;

export function featureOperations(rpc: RpcClient): FeatureOperations {
  return {
    async addWfc(request) {
      const params = { msisdn: request.mdn, iccid: request.sim, emergencyAddress: encodeAddress(request.address) };
      const line = await rpc.write('WifiCalling.Enable', request.transactionId, params, lineRef);
      return { mdn: line.msisdn, sim: line.iccid };
    },

    async updateE911Address(request) {
      const params = { msisdn: request.mdn, iccid: request.sim, emergencyAddress: encodeAddress(request.address) };
      const line = await rpc.write('WifiCalling.UpdateAddress', request.transactionId, params, lineRef);
      return { mdn: line.msisdn, sim: line.iccid };
    },

    async resetVoicemailPassword(request) {
      await rpc.write('Voicemail.ResetPin', request.transactionId, { msisdn: request.mdn, iccid: request.sim }, accepted);
    },

    async setVoicemailLanguage(request) {
      const params = { msisdn: request.mdn, greetingLanguage: encodeLanguage(request.language) };
      await rpc.write('Voicemail.SetLanguage', request.transactionId, params, accepted);
    },

    async cancelDeviceLocation(request) {
      await rpc.write('Location.CancelTracking', request.transactionId, { msisdn: request.mdn }, accepted);
    },
  };
}
