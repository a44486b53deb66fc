// Carrier contract, features area: Wi-Fi Calling / E911, voicemail and device location.

import { methodNames } from './method-names.js';
import type { CarrierWrite, E911Address, LineRef, MdnWrite, VoicemailLanguage } from './vocabulary.js';

export interface AddWfcRequest extends CarrierWrite {
  mdn: string;
  sim: string;
  address: E911Address;
}

export interface UpdateE911Request extends CarrierWrite {
  mdn: string;
  /** When given, the carrier verifies it is the line's SIM. */
  sim?: string;
  address: E911Address;
}

export interface ResetVoicemailRequest extends CarrierWrite {
  mdn: string;
  sim?: string;
}

export interface SetVoicemailLanguageRequest extends CarrierWrite {
  mdn: string;
  language: VoicemailLanguage;
}

export interface CarrierFeatureMethods {
  addWfc(request: AddWfcRequest): Promise<LineRef>;
  updateE911Address(request: UpdateE911Request): Promise<LineRef>;
  resetVoicemailPassword(request: ResetVoicemailRequest): Promise<void>;
  setVoicemailLanguage(request: SetVoicemailLanguageRequest): Promise<void>;
  cancelDeviceLocation(request: MdnWrite): Promise<void>;
}

export const FEATURE_METHODS = methodNames<CarrierFeatureMethods>({
  addWfc: true,
  updateE911Address: true,
  resetVoicemailPassword: true,
  setVoicemailLanguage: true,
  cancelDeviceLocation: true,
});
