// Features: WFC and E911, voicemail, device location.

import { addWfc } from './add-wfc.js';
import { cancelDeviceLocation } from './cancel-device-location.js';
import { resetVoicemailPassword } from './reset-voicemail-password.js';
import { setVoicemailLanguage } from './set-voicemail-language.js';
import { updateE911Address } from './update-e911-address.js';

export const featureOperations = [
  addWfc,
  updateE911Address,
  resetVoicemailPassword,
  setVoicemailLanguage,
  cancelDeviceLocation,
];
