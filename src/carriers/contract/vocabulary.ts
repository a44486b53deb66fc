// The words every area of the carrier contract shares: carrier ids, enumerations, addresses,
// Wi-Fi Calling requests and outcomes, the write envelope and the balance shapes.

export const CARRIER_IDS = ['321', 'carrier_b'] as const;
export type CarrierId = (typeof CARRIER_IDS)[number];

export const SERVICE_SCOPES = ['VOICE', 'SMS', 'DATA'] as const;
export type ServiceScope = (typeof SERVICE_SCOPES)[number];

export const VOICEMAIL_LANGUAGES = ['ENGL', 'SPAN'] as const;
export type VoicemailLanguage = (typeof VOICEMAIL_LANGUAGES)[number];

export const BALANCE_UNITS = ['SECOND', 'EVENT', 'BYTE'] as const;
export type BalanceUnit = (typeof BALANCE_UNITS)[number];

export const PHONE_LIST_ACTIONS = ['add', 'remove', 'block', 'unblock'] as const;
export type PhoneListAction = (typeof PHONE_LIST_ACTIONS)[number];

export const LINE_STATUSES = ['NEW', 'ACTIVE', 'SUSPENDED', 'DISCONNECTED'] as const;
export type LineStatus = (typeof LINE_STATUSES)[number];

/** Timestamps in carrier payloads use the spec's `YYYY-MM-DD HH:MM:SS` (UTC) form. */
export type CarrierTimestamp = string;

export interface E911Address {
  address1: string;
  address2?: string;
  city: string;
  state: string;
  zipCode: string;
}

/**
 * Present on plan-bearing requests whose plan is a Wi-Fi Calling plan: the carrier must try
 * to provision WFC with this address (null when the caller sent none). A WFC failure does
 * not fail the main operation; it comes back as `WfcOutcome`.
 */
export interface WfcRequest {
  address: E911Address | null;
}

export type WfcOutcome = { provisioned: true } | { provisioned: false; failure: CarrierFailureDetail };

export interface CarrierFailureDetail {
  /** The spec's code without parentheses: `935`, `GENS-0033`. */
  code: string;
  /** The carrier's own text, without the code. */
  text: string;
}

/** Every carrier write carries the gateway's transaction id; carriers de-duplicate on it. */
export interface CarrierWrite {
  transactionId: string;
}

export interface MdnWrite extends CarrierWrite {
  mdn: string;
}

export interface LineRef {
  mdn: string;
  sim: string;
}

export interface BalanceDetails {
  /** Remaining voice minutes. */
  talk: number;
  /** Remaining messages. */
  text: number;
  /** Remaining data in bytes. */
  data: number;
}

export interface Balance {
  uom: string;
  balance: number;
  validFrom: CarrierTimestamp;
  validTo: CarrierTimestamp;
}

export interface Subscription {
  purchaseId: string;
  planCode: string;
  planName: string;
  balances: Balance[];
}

export interface ServiceCode {
  code: string;
  /** `YYYY-MM-DD`. */
  effectiveDate: string;
}
