// Carrier contract, activation area: a SIM becomes a line on a plan.

import { methodNames } from './method-names.js';
import type { CarrierWrite, E911Address, VoicemailLanguage, WfcOutcome, WfcRequest } from './vocabulary.js';

export interface ActivateRequest extends CarrierWrite {
  sim: string;
  carrierPlanId: string;
  /** 5 digits or ZIP+4. */
  zipCode: string;
  address: E911Address;
  isEsim: boolean;
  email?: string;
  billingCode?: string;
  language: VoicemailLanguage;
  wfc?: WfcRequest;
}

export interface ActivateResult {
  mdn: string;
  sim: string;
  customerId: string;
  wfc?: WfcOutcome;
}

export interface CarrierActivationMethods {
  activate(request: ActivateRequest): Promise<ActivateResult>;
}

export const ACTIVATION_METHODS = methodNames<CarrierActivationMethods>({ activate: true });
