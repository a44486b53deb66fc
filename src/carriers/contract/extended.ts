// Carrier contract, extended area: the operations only some carriers offer (carrier 321 today):
// catalogue, address validation, unlock status, accounts and data pools, number groups, active
// plan, IMEI details, products, network events, SMS, phone lists, labels and device changes.

import { methodNames } from './method-names.js';
import type { CarrierTimestamp, CarrierWrite, LineStatus, PhoneListAction, ServiceCode } from './vocabulary.js';

export interface CarrierPlanCode {
  soc: string;
  name: string;
}

export interface AddressToValidate {
  street1: string;
  city: string;
  state: string;
  zipCode: string;
}

export interface AddressValidation {
  valid: boolean;
  /** The carrier's normalised form of the address; null when invalid. */
  normalized: AddressToValidate | null;
}

export interface DeviceUnlockStatus {
  imei: string;
  unlocked: boolean;
  unlockEligible: boolean;
  reason: string | null;
}

export interface AccountLine {
  mdn: string;
  sim: string;
  lineStatus: LineStatus;
  label: string | null;
}

export interface AccountInfo {
  accountId: string;
  mdn: string;
  lines: AccountLine[];
}

export interface PoolUsage {
  accountId: string;
  poolBytes: number;
  usedBytes: number;
  lines: { mdn: string; bytesUsed: number }[];
}

export interface NumberGroup {
  npa: string;
  nxx: string;
  city: string;
  state: string;
  available: number;
}

export interface NumberGroups {
  zipCode: string;
  groups: NumberGroup[];
}

export interface ActivePlan {
  mdn: string;
  soc: string;
  planName: string;
  effectiveDate: CarrierTimestamp;
}

export interface ImeiDetails {
  imei: string;
  manufacturer: string;
  model: string;
  marketingName: string;
  osName: string;
  esimCapable: boolean;
  volteCapable: boolean;
  blacklisted: boolean;
}

export interface ProductList {
  mdn: string;
  products: ServiceCode[];
}

export interface CustomerImpactingEvent {
  eventId: string;
  category: string;
  description: string;
  zipCodes: string[];
  startTime: CarrierTimestamp;
  endTime: CarrierTimestamp | null;
}

export interface SendSmsRequest extends CarrierWrite {
  mdn: string;
  message: string;
}

export interface PhoneListRequest extends CarrierWrite {
  mdn: string;
  action: PhoneListAction;
  numbers: string[];
}

export interface PhoneList {
  mdn: string;
  /** Numbers on the allow list after the change. */
  allowed: string[];
  /** Numbers on the block list after the change. */
  blocked: string[];
}

export interface SetLabelRequest extends CarrierWrite {
  mdn: string;
  label: string;
}

export interface ChangeImeiRequest extends CarrierWrite {
  mdn: string;
  sim: string;
  newImei: string;
}

export interface ExtendedCarrierOperations {
  listAvailablePlans(): Promise<CarrierPlanCode[]>;
  validateAddress(address: AddressToValidate): Promise<AddressValidation>;
  getDeviceUnlockStatus(imei: string): Promise<DeviceUnlockStatus>;
  getAccount(mdn: string): Promise<AccountInfo>;
  getPoolUsage(accountId: string): Promise<PoolUsage>;
  getNumberGroups(zipCode: string): Promise<NumberGroups>;
  getActivePlan(mdn: string): Promise<ActivePlan>;
  getImeiDetails(imei: string): Promise<ImeiDetails>;
  getProducts(mdn: string): Promise<ProductList>;
  /** Times are `YYYY-MM-DD HH:MM:SS` or ISO 8601; absent = no bound. */
  getCustomerImpactingEvents(window: { startTime?: string; endTime?: string }): Promise<CustomerImpactingEvent[]>;
  sendSms(request: SendSmsRequest): Promise<{ mdn: string; messageId: string }>;
  managePhoneList(request: PhoneListRequest): Promise<PhoneList>;
  setLabel(request: SetLabelRequest): Promise<{ mdn: string; label: string }>;
  changeImei(request: ChangeImeiRequest): Promise<{ mdn: string; sim: string; imei: string }>;
}

export const EXTENDED_METHODS = methodNames<ExtendedCarrierOperations>({
  listAvailablePlans: true,
  validateAddress: true,
  getDeviceUnlockStatus: true,
  getAccount: true,
  getPoolUsage: true,
  getNumberGroups: true,
  getActivePlan: true,
  getImeiDetails: true,
  getProducts: true,
  getCustomerImpactingEvents: true,
  sendSms: true,
  managePhoneList: true,
  setLabel: true,
  changeImei: true,
});
