// Device knowledge: every well-formed IMEI not starting 99 is a compatible, eSIM-, VoLTE- and
// WFC-capable handset whose make and model follow from its digits.

import type { DeviceInfo, ImeiDetails } from '../../carriers/types.js';
import { digitsFrom, pick } from './hash.js';
import { reject } from './rejections.js';
import { isUnknownImei } from './test-values.js';

interface DeviceModel {
  manufacturer: string;
  model: string;
  marketingName: string;
  osName: string;
}

const MODELS: readonly DeviceModel[] = [
  { manufacturer: 'Apple', model: 'A2846', marketingName: 'iPhone 15', osName: 'iOS' },
  { manufacturer: 'Samsung', model: 'SM-S921U', marketingName: 'Galaxy S24', osName: 'Android' },
  { manufacturer: 'Google', model: 'GKWS6', marketingName: 'Pixel 8', osName: 'Android' },
  { manufacturer: 'Motorola', model: 'XT2417', marketingName: 'moto g 5G', osName: 'Android' },
];

function requireModel(imei: string): DeviceModel {
  if (isUnknownImei(imei)) reject('506');
  // The TAC (first eight digits) identifies the model, as on a real network.
  return pick(MODELS, imei.slice(0, 8));
}

export function deviceInfo(imei: string): DeviceInfo {
  const model = requireModel(imei);
  return {
    imei,
    compatible: true,
    technology: '5G',
    simType: 'PSIM_ESIM',
    simSize: 'NANO',
    model: model.model,
    manufacturer: model.manufacturer,
    marketingName: model.marketingName,
    osName: model.osName,
    esimCapable: true,
    volteCapable: true,
    wifiCallingCapable: true,
    networkApproved: true,
  };
}

export function imeiDetails(imei: string): ImeiDetails {
  const model = requireModel(imei);
  return { imei, ...model, esimCapable: true, volteCapable: true, blacklisted: false };
}

/** Throws 506 for an unknown device. */
export function requireKnownDevice(imei: string): void {
  requireModel(imei);
}

/** The handset a new line is first seen with: a stable, known IMEI derived from its SIM. */
export function imeiForSim(iccid: string): string {
  return `35${digitsFrom(`${iccid}:imei`, 13)}`;
}
