// Carrier contract, queries area: balances, the subscriber profile, usage records, coverage,
// devices, network status, SIMs and eSIM profiles.

import { methodNames } from './method-names.js';
import type {
  BalanceDetails,
  CarrierFailureDetail,
  CarrierTimestamp,
  E911Address,
  LineStatus,
  ServiceCode,
  Subscription,
} from './vocabulary.js';

export interface UsageSummary {
  mdn: string;
  sim: string;
  lineStatus: LineStatus;
  customerId: string;
  planName: string;
  effectiveDate: CarrierTimestamp;
  balanceDetails: BalanceDetails;
  /** The active ones: the base plan's first, then the add-ons. */
  subscriptions: Subscription[];
}

export interface ServiceProfile {
  mdn: string;
  sim: string;
  imei: string;
  lineStatus: LineStatus;
  planName: string;
  effectiveDate: CarrierTimestamp;
  billCycleDay: string;
  /** The base plan's SOC first, then the add-ons' and the features'. */
  serviceCodes: ServiceCode[];
  balanceDetails: BalanceDetails;
  /** The active ones: the base plan's first, then the add-ons. */
  subscriptions: Subscription[];
  /** Null unless WFC is enabled. */
  e911Address: E911Address | null;
  hotlineStatus: string | null;
  hotlineNumber: string | null;
}

export type UsageEvent =
  | { type: 'VOICE'; duration: number; timestamp: CarrierTimestamp; destination: string }
  | { type: 'DATA'; bytesUsed: number; timestamp: CarrierTimestamp }
  | { type: 'SMS'; count: number; timestamp: CarrierTimestamp; destination: string };

export interface CarrierUsage {
  mdn: string;
  usageRecords: UsageEvent[];
}

export interface CoverageArea {
  city: string;
  state: string;
  zipCode: string;
  quality: string;
}

/** A valid but uncovered ZIP is `covered: false` with no areas; an invalid ZIP is a rejection (510). */
export interface Coverage {
  zipCode: string;
  covered: boolean;
  areas: CoverageArea[];
}

/** An unknown device is a rejection (506), not a result. */
export interface DeviceInfo {
  imei: string;
  compatible: boolean;
  technology: string | null;
  simType: string | null;
  simSize: string | null;
  model: string | null;
  manufacturer: string | null;
  marketingName: string | null;
  osName: string | null;
  esimCapable: boolean;
  volteCapable: boolean;
  wifiCallingCapable: boolean;
  networkApproved: boolean;
}

export interface NetworkStatus {
  mdn: string;
  sim: string;
  imei: string;
  imsi: string;
  lineStatus: LineStatus;
  /** e.g. INUSE */
  simStatus: string;
  serviceCodes: string[];
}

export interface EsimProfile {
  sim: string;
  activationCode: string;
  matchingId: string;
  /**
   * AVAILABLE while the SIM is stock, RELEASED while it serves a line, DISABLED once retired:
   * only AVAILABLE is stock to the `strict` ownership rule.
   */
  profileState: string;
  /** e.g. CONSUMER */
  profileType: string;
  esimBrand: string;
  lastModified: CarrierTimestamp;
}

export interface SimDetails {
  sim: string;
  activationEligible: boolean;
  wfcEligible: boolean;
  puk1: string | null;
  puk2: string | null;
  /** ISO 8601 UTC, e.g. `2026-01-02T03:04:05Z`. */
  createDate: string | null;
  /** ISO 8601 with offset, e.g. `2031-01-02T03:04:05+00:00`. */
  expirationDate: string | null;
  /**
   * AVAILABLE (stock), INUSE (serving a line) or DEACTIVATED (retired, or its line disconnected):
   * only AVAILABLE is stock to the `strict` ownership rule.
   */
  iccidStatus: string | null;
}

/**
 * Whether the carrier would accept an address as a line's E911 address (Wi-Fi Calling): the
 * answer its WFC writes (addWfc, updateE911Address, WFC on activation, reconnect and plan
 * change) give the same address. An invalid address is an answer, with the code those writes
 * would refuse it with (GENS-0090), not a rejection.
 */
export type E911Validation = { valid: true } | { valid: false; failure: CarrierFailureDetail };

export interface CarrierQueryMethods {
  getUsage(mdn: string): Promise<UsageSummary>;
  getServiceProfile(mdn: string, sim?: string): Promise<ServiceProfile>;
  getCarrierUsage(mdn: string): Promise<CarrierUsage>;
  getCoverage(zipCode: string): Promise<Coverage>;
  getDevice(imei: string): Promise<DeviceInfo>;
  getNetworkStatus(mdn: string): Promise<NetworkStatus>;
  getEsimProfile(sim: string): Promise<EsimProfile>;
  getSimDetails(sim: string): Promise<SimDetails>;
  validateE911Address(address: E911Address): Promise<E911Validation>;
}

export const QUERY_METHODS = methodNames<CarrierQueryMethods>({
  getUsage: true,
  getServiceProfile: true,
  getCarrierUsage: true,
  getCoverage: true,
  getDevice: true,
  getNetworkStatus: true,
  getEsimProfile: true,
  getSimDetails: true,
  validateE911Address: true,
});
