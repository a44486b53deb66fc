// Translation between the domain's vocabulary and carrier_b's wire vocabulary, as the adapter
// needs it: encoders for what it sends, decoders for the values it reads back.

import type { BalanceUnit, E911Address, LineStatus, ServiceScope, VoicemailLanguage, WfcOutcome, WfcRequest } from '../types.js';
import type { WireAddress, WireSubscriberState, WireWifiCallingOutcome } from './wire-schemas.js';

// ---------------------------------------------------------------- domain → wire

export function encodeAddress(address: E911Address): WireAddress {
  return { line1: address.address1, line2: address.address2, town: address.city, stateCode: address.state, postCode: address.zipCode };
}

/** `{emergencyAddress: null}` still asks for Wi-Fi Calling: the carrier then reports it failed. */
export function encodeWifiCalling(wfc: WfcRequest | undefined): { emergencyAddress: WireAddress | null } | undefined {
  if (wfc === undefined) return undefined;
  return { emergencyAddress: wfc.address === null ? null : encodeAddress(wfc.address) };
}

const SCOPES: Record<ServiceScope, string> = { VOICE: 'voice', SMS: 'sms', DATA: 'data' };
/** The wire always names the scope; `all` is its word for "no particular service". */
export function encodeScope(service: ServiceScope | undefined): string {
  return service === undefined ? 'all' : SCOPES[service];
}

const LANGUAGES: Record<VoicemailLanguage, string> = { ENGL: 'en', SPAN: 'es' };
export function encodeLanguage(language: VoicemailLanguage): string {
  return LANGUAGES[language];
}

const UNITS: Record<BalanceUnit, string> = { SECOND: 'seconds', EVENT: 'events', BYTE: 'bytes' };
export function encodeUnit(uom: BalanceUnit): string {
  return UNITS[uom];
}

/**
 * `YYYY-MM-DD` → epoch milliseconds at 00:00 UTC. The gateway validates dates before they get
 * here, so an unreadable one is a programming error, not something to send.
 */
export function encodeDay(day: string | undefined): number | undefined {
  if (day === undefined) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(day) ? Date.parse(`${day}T00:00:00Z`) : Number.NaN;
  // Date.parse rolls 2026-02-30 over to March 2nd; the round trip refuses such days.
  if (Number.isNaN(ms) || toDay(ms) !== day) throw new TypeError('carrier_b adapter: expiry date must be a real YYYY-MM-DD day');
  return ms;
}

// ---------------------------------------------------------------- wire → domain

/** Epoch milliseconds → the domain's `YYYY-MM-DD HH:MM:SS` (UTC). */
export function toCarrierTimestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** Epoch milliseconds → `YYYY-MM-DD` (UTC). */
export function toDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Epoch milliseconds → ISO 8601 UTC with a `Z`, to the second (SIM create dates). */
export function toIsoUtc(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** Epoch milliseconds → ISO 8601 with an explicit `+00:00` offset (SIM expiry dates). */
export function toIsoWithOffset(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}+00:00`;
}

const STATES: Record<WireSubscriberState, LineStatus> = { pending: 'NEW', live: 'ACTIVE', barred: 'SUSPENDED', ceased: 'DISCONNECTED' };
export function decodeState(state: WireSubscriberState): LineStatus {
  return STATES[state];
}

const UNIT_NAMES: Record<string, string> = { seconds: 'SECOND', events: 'EVENT', bytes: 'BYTE' };
/** Units without a wire word arrive as the carrier names them and pass through unchanged. */
export function decodeUnit(unit: string): string {
  return UNIT_NAMES[unit] ?? unit;
}

export function decodeAddress(address: WireAddress): E911Address {
  return {
    address1: address.line1,
    ...(address.line2 === undefined ? {} : { address2: address.line2 }),
    city: address.town,
    state: address.stateCode,
    zipCode: address.postCode,
  };
}

export function decodeWifiCalling(outcome: WireWifiCallingOutcome | undefined): { wfc?: WfcOutcome } {
  if (outcome === undefined) return {};
  if (outcome.provisioned) return { wfc: { provisioned: true } };
  return { wfc: { provisioned: false, failure: { code: String(outcome.faultCode), text: outcome.faultString } } };
}
