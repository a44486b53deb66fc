// carrier_b RPC methods for optional line features: Wi-Fi Calling / E911, voicemail, and
// device location tracking.

import { z } from 'zod';
import type { CarrierFeatureMethods } from '../../../carriers/types.js';
import { defineMethod, type RpcMethod } from '../define-method.js';
import { emergencyAddress, greetingLanguage, iccid, msisdn } from '../wire.js';

export const featureMethods = {
  addWfc: defineMethod(
    'WifiCalling.Enable',
    z.object({ msisdn, iccid, emergencyAddress }),
    async (core, params, requestId) => {
      const line = await core.addWfc({
        transactionId: requestId,
        mdn: params.msisdn,
        sim: params.iccid,
        address: params.emergencyAddress,
      });
      return { msisdn: line.mdn, iccid: line.sim };
    },
  ),

  updateE911Address: defineMethod(
    'WifiCalling.UpdateAddress',
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

  resetVoicemailPassword: defineMethod(
    'Voicemail.ResetPin',
    z.object({ msisdn, iccid: iccid.optional() }),
    async (core, params, requestId) => {
      await core.resetVoicemailPassword({
        transactionId: requestId,
        mdn: params.msisdn,
        ...(params.iccid === undefined ? {} : { sim: params.iccid }),
      });
      return { msisdn: params.msisdn, accepted: true };
    },
  ),

  setVoicemailLanguage: defineMethod(
    'Voicemail.SetLanguage',
    z.object({ msisdn, greetingLanguage }),
    async (core, params, requestId) => {
      await core.setVoicemailLanguage({
        transactionId: requestId,
        mdn: params.msisdn,
        language: params.greetingLanguage,
      });
      return { msisdn: params.msisdn, accepted: true };
    },
  ),

  cancelDeviceLocation: defineMethod(
    'Location.CancelTracking',
    z.object({ msisdn }),
    async (core, params, requestId) => {
      await core.cancelDeviceLocation({ transactionId: requestId, mdn: params.msisdn });
      return { msisdn: params.msisdn, accepted: true };
    },
  ),
} satisfies Record<keyof CarrierFeatureMethods, RpcMethod>;
