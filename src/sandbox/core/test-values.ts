// The documented test values (docs/sandbox.md): how an ICCID, ZIP, IMEI, MDN, plan code or
// address is classified decides how the sandbox answers. Pure functions, no state.

import type { CarrierId, E911Address } from '../../carriers/types.js';

/** The first six digits of every MDN each carrier issues (then four sequential digits). */
export const MDN_PREFIXES: Record<CarrierId, string> = { '321': '321555', carrier_b: '646555' };

export type IccidClass =
  /** 19–20 digits starting 8901: a physical SIM of this MVNO. */
  | 'physical'
  /** 19–20 digits starting 8902 (but not 89029): an eSIM with an AVAILABLE profile. */
  | 'esim'
  /** 19–20 digits starting 89029: an eSIM whose profile was already downloaded (8011). */
  | 'esim-completed'
  /** Starting 8999: a SIM of another MVNO (910). */
  | 'foreign'
  /** Any other ICCID starting 89: unknown to the carrier (918 / GENS-0006). */
  | 'unknown'
  /** Not starting 89: not an ICCID at all (506 / GENS-0006). */
  | 'invalid';

export function classifyIccid(iccid: string): IccidClass {
  if (!iccid.startsWith('89')) return 'invalid';
  if (iccid.startsWith('8999')) return 'foreign';
  if (!/^\d{19,20}$/.test(iccid)) return 'unknown';
  if (iccid.startsWith('89029')) return 'esim-completed';
  if (iccid.startsWith('8902')) return 'esim';
  if (iccid.startsWith('8901')) return 'physical';
  return 'unknown';
}

export type ZipClass = 'invalid' | 'uncovered' | 'covered';

/** `00000` or a malformed ZIP is invalid (510); `99999` is valid but not covered. */
export function classifyZip(zipCode: string): ZipClass {
  if (!/^\d{5}(-\d{4})?$/.test(zipCode)) return 'invalid';
  const five = zipCode.slice(0, 5);
  if (five === '00000') return 'invalid';
  if (five === '99999') return 'uncovered';
  return 'covered';
}

/** IMEIs starting 99, and anything that is not 15 digits, are unknown devices (506). */
export function isUnknownImei(imei: string): boolean {
  return !/^\d{15}$/.test(imei) || imei.startsWith('99');
}

/** MDNs starting 909 belong to another vendor (909). */
export function isForeignMdn(mdn: string): boolean {
  return mdn.startsWith('909');
}

/** Plan codes starting INVALID (any case), and empty codes, are invalid or inactive (906). */
export function isInvalidPlanCode(code: string): boolean {
  return code.trim() === '' || code.toUpperCase().startsWith('INVALID');
}

/** An E911 address whose first line contains INVALID (any case) fails validation (GENS-0090). */
export function isInvalidE911Address(address: Pick<E911Address, 'address1'> | null): boolean {
  return address === null || address.address1.toUpperCase().includes('INVALID');
}
