// Carrier 321 sandbox routes: Wi-Fi Calling / E911, voicemail and device location.

import { z } from 'zod';
import type { CarrierFeatureMethods, CarrierOperations } from '../../../carriers/types.js';
import type { SandboxRoute } from '../../http-kit.js';
import { decodeBody, writeRoute } from '../routing.js';
import { ack, wireE911, wireLanguage } from '../wire.js';

const wfcBody = z.object({ iccid: z.string(), e911: wireE911 });
const e911Body = z.object({ iccid: z.string().optional(), e911: wireE911 });
const passwordResetBody = z.object({ iccid: z.string().optional() });
const languageBody = z.object({ language: wireLanguage });

export function featureRoutes(core: CarrierOperations) {
  return {
    addWfc: writeRoute('POST', '/v1/subscribers/{msisdn}/wfc', async ({ param, body, transactionId }) => {
      const wire = decodeBody(wfcBody, body);
      const line = await core.addWfc({ transactionId, mdn: param('msisdn'), sim: wire.iccid, address: wire.e911 });
      return { status: 201, body: { msisdn: line.mdn, iccid: line.sim, wfc_state: 'active' } };
    }),

    updateE911Address: writeRoute(
      'PUT',
      '/v1/subscribers/{msisdn}/wfc/e911',
      async ({ param, body, transactionId }) => {
        const wire = decodeBody(e911Body, body);
        const line = await core.updateE911Address({
          transactionId,
          mdn: param('msisdn'),
          sim: wire.iccid,
          address: wire.e911,
        });
        return { status: 200, body: { msisdn: line.mdn, iccid: line.sim } };
      },
    ),

    resetVoicemailPassword: writeRoute(
      'POST',
      '/v1/subscribers/{msisdn}/voicemail/password-reset',
      async ({ param, body, transactionId }) => {
        const wire = decodeBody(passwordResetBody, body);
        await core.resetVoicemailPassword({ transactionId, mdn: param('msisdn'), sim: wire.iccid });
        return { status: 200, body: ack(param('msisdn')) };
      },
    ),

    setVoicemailLanguage: writeRoute(
      'PUT',
      '/v1/subscribers/{msisdn}/voicemail/language',
      async ({ param, body, transactionId }) => {
        const wire = decodeBody(languageBody, body);
        await core.setVoicemailLanguage({ transactionId, mdn: param('msisdn'), language: wire.language });
        return { status: 200, body: ack(param('msisdn')) };
      },
    ),

    cancelDeviceLocation: writeRoute(
      'DELETE',
      '/v1/subscribers/{msisdn}/device-location',
      async ({ param, transactionId }) => {
        await core.cancelDeviceLocation({ transactionId, mdn: param('msisdn') });
        return { status: 200, body: ack(param('msisdn')) };
      },
    ),
  } satisfies Record<keyof CarrierFeatureMethods, SandboxRoute>;
}
