// Carrier 321 adapter: the optional line features (Wi-Fi Calling / E911, voicemail, device location).

import type { CarrierFeatureMethods } from '../types.js';
import { toWireE911, toWireLanguage, wireAck, wireLineRef } from './codec.js';
import { wirePath, type Carrier321Transport } from './transport.js';

export function featureOperations(transport: Carrier321Transport) {
  return {
    addWfc: (request) =>
      transport.write(request.transactionId, {
        method: 'POST',
        path: wirePath`v1/subscribers/${request.mdn}/wfc`,
        json: { iccid: request.sim, e911: toWireE911(request.address) },
        schema: wireLineRef,
      }),

    updateE911Address: (request) =>
      transport.write(request.transactionId, {
        method: 'PUT',
        path: wirePath`v1/subscribers/${request.mdn}/wfc/e911`,
        json: { iccid: request.sim, e911: toWireE911(request.address) },
        schema: wireLineRef,
      }),

    resetVoicemailPassword: (request) =>
      transport.write(request.transactionId, {
        method: 'POST',
        path: wirePath`v1/subscribers/${request.mdn}/voicemail/password-reset`,
        json: { iccid: request.sim },
        schema: wireAck,
      }),

    setVoicemailLanguage: (request) =>
      transport.write(request.transactionId, {
        method: 'PUT',
        path: wirePath`v1/subscribers/${request.mdn}/voicemail/language`,
        json: { language: toWireLanguage(request.language) },
        schema: wireAck,
      }),

    cancelDeviceLocation: (request) =>
      transport.write(request.transactionId, {
        method: 'DELETE',
        path: wirePath`v1/subscribers/${request.mdn}/device-location`,
        schema: wireAck,
      }),
  } satisfies CarrierFeatureMethods;
}
