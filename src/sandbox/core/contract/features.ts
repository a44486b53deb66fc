// The sandbox core's features area of the carrier contract.

import type { CarrierFeatureMethods } from '../../../carriers/types.js';
import {
  addWfc,
  cancelDeviceLocation,
  resetVoicemailPassword,
  setVoicemailLanguage,
  updateE911Address,
} from '../features.js';
import type { CoreContext } from '../state.js';
import { write } from './method.js';

export function featureMethods(ctx: CoreContext) {
  return {
    addWfc: write(ctx, 'addWfc', addWfc),
    updateE911Address: write(ctx, 'updateE911Address', updateE911Address),
    resetVoicemailPassword: write(ctx, 'resetVoicemailPassword', resetVoicemailPassword),
    setVoicemailLanguage: write(ctx, 'setVoicemailLanguage', setVoicemailLanguage),
    cancelDeviceLocation: write(ctx, 'cancelDeviceLocation', cancelDeviceLocation),
  } satisfies CarrierFeatureMethods;
}
