// carrier_b adapter: the optional line features (Wi-Fi Calling / E911, voicemail, device location).

import type { CarrierFeatureMethods } from '../types.js';
import { toWireAddress, toWireLanguage, wireAccepted, wireLineRef } from './codec.js';
import type { CarrierBTransport } from './transport.js';

export function featureOperations(transport: CarrierBTransport) {
  return {
    addWfc: (request) =>
      transport.write(request.transactionId, {
        method: 'WifiCalling.Enable',
        params: { msisdn: request.mdn, iccid: request.sim, emergencyAddress: toWireAddress(request.address) },
        schema: wireLineRef,
      }),

    updateE911Address: (request) =>
      transport.write(request.transactionId, {
        method: 'WifiCalling.UpdateAddress',
        params: { msisdn: request.mdn, iccid: request.sim, emergencyAddress: toWireAddress(request.address) },
        schema: wireLineRef,
      }),

    resetVoicemailPassword: (request) =>
      transport.write(request.transactionId, {
        method: 'Voicemail.ResetPin',
        params: { msisdn: request.mdn, iccid: request.sim },
        schema: wireAccepted,
      }),

    setVoicemailLanguage: (request) =>
      transport.write(request.transactionId, {
        method: 'Voicemail.SetLanguage',
        params: { msisdn: request.mdn, greetingLanguage: toWireLanguage(request.language) },
        schema: wireAccepted,
      }),

    cancelDeviceLocation: (request) =>
      transport.write(request.transactionId, {
        method: 'Location.CancelTracking',
        params: { msisdn: request.mdn },
        schema: wireAccepted,
      }),
  } satisfies CarrierFeatureMethods;
}
