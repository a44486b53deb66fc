// carrier_b RPC methods for optional line features: Wi-Fi Calling / E911, voicemail, and
// device location tracking.

import { z } from 'zod';
import { defineMethod, type RpcMethod } from '../define-method.js';
import { emergencyAddress, greetingLanguage, iccid, msisdn } from '../wire.js';

export const featureMethods: Record<string, RpcMethod> = {
  'WifiCalling.Enable': defineMethod(z.object({ msisdn, iccid, emergencyAddress }), async (core, params, requestId) => {
    const line = await core.addWfc({ transactionId: requestId, mdn: params.msisdn, sim: params.iccid, address: params.emergencyAddress });
    return { msisdn: line.mdn, iccid: line.sim };
  }),

  'WifiCalling.UpdateAddress': defineMethod(
    z.object({ msisdn, iccid: iccid.optional(), emergencyAddress }),
    async (core, params, requestId) => {
      const line = await core.updateE911Address({
        transactionId: requestId,
        mdn: params.msisdn,
        ...(params.iccid === undefined ? {} : { sim: params.iccid }),
        address: params.emergencyAddress,
      });
      return { msisdn: line.mdn, iccid: line.sim };
    },
  ),

  'Voicemail.ResetPin': defineMethod(z.object({ msisdn, iccid: iccid.optional() }), async (core, params, requestId) => {
    await core.resetVoicemailPassword({
      transactionId: requestId,
      mdn: params.msisdn,
      ...(params.iccid === undefined ? {} : { sim: params.iccid }),
    });
    return { msisdn: params.msisdn, accepted: true };
  }),

  'Voicemail.SetLanguage': defineMethod(z.object({ msisdn, greetingLanguage }), async (core, params, requestId) => {
    await core.setVoicemailLanguage({ transactionId: requestId, mdn: params.msisdn, language: params.greetingLanguage });
    return { msisdn: params.msisdn, accepted: true };
  }),

  'Location.CancelTracking': defineMethod(z.object({ msisdn }), async (core, params, requestId) => {
    await core.cancelDeviceLocation({ transactionId: requestId, mdn: params.msisdn });
    return { msisdn: params.msisdn, accepted: true };
  }),
};
