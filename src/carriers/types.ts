// The carrier-neutral vocabulary spoken between the gateway, the carrier adapters and the
// sandbox carriers. Every adapter translates these shapes to and from its own wire format;
// nothing here knows about HTTP, REST bodies or GraphQL.

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

// ---------------------------------------------------------------- results of queries

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

export interface UsageSummary {
  mdn: string;
  sim: string;
  lineStatus: LineStatus;
  customerId: string;
  planName: string;
  effectiveDate: CarrierTimestamp;
  balanceDetails: BalanceDetails;
  subscriptions: Subscription[];
}

export interface ServiceCode {
  code: string;
  /** `YYYY-MM-DD`. */
  effectiveDate: string;
}

export interface ServiceProfile {
  mdn: string;
  sim: string;
  imei: string;
  lineStatus: LineStatus;
  planName: string;
  effectiveDate: CarrierTimestamp;
  billCycleDay: string;
  serviceCodes: ServiceCode[];
  balanceDetails: BalanceDetails;
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
  /** e.g. AVAILABLE */
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
  /** e.g. AVAILABLE, INUSE */
  iccidStatus: string | null;
}

// ---------------------------------------------------------------- requests and results of writes

export interface LineRef {
  mdn: string;
  sim: string;
}

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

export interface MdnWrite extends CarrierWrite {
  mdn: string;
}

export interface SuspendRequest extends CarrierWrite {
  mdn: string;
  /** Absent = all services. */
  service?: ServiceScope;
  hotlineNumber?: string;
  hotlineChargeable?: boolean;
  reason?: string;
}

export interface RestoreRequest extends CarrierWrite {
  mdn: string;
  service?: ServiceScope;
}

export interface DisconnectRequest extends CarrierWrite {
  mdn: string;
  sim: string;
}

export interface ReconnectRequest extends CarrierWrite {
  mdn: string;
  sim: string;
  carrierPlanId: string;
  zipCode: string;
  billingCode: string;
  wfc?: WfcRequest;
}

export interface ReconnectResult extends LineRef {
  wfc?: WfcOutcome;
}

export interface SwapSimRequest extends CarrierWrite {
  mdn: string;
  oldSim: string;
  newSim: string;
}

export interface SwapMdnRequest extends CarrierWrite {
  mdn: string;
  sim: string;
  zipCode: string;
  imei?: string;
}

export interface SwapMdnResult {
  mdn: string;
  newMdn: string;
  sim: string;
}

export interface BalanceAdjustment {
  subscriptionId: string;
  uom: BalanceUnit;
  amount: number;
  /** `YYYY-MM-DD` */
  expiryDate?: string;
}

export interface AdjustBalanceRequest extends CarrierWrite {
  mdn: string;
  subscriptionId: string;
  uom?: BalanceUnit;
  amount?: number;
  expiryDate?: string;
}

export interface AdjustBalancesRequest extends CarrierWrite {
  mdn: string;
  adjustments: BalanceAdjustment[];
}

export interface ChildLineRequest extends CarrierWrite {
  parentMdn: string;
  parentSim: string;
  childMdn: string;
  childSim?: string;
}

export interface ChangePlanRequest extends CarrierWrite {
  mdn: string;
  sim?: string;
  carrierPlanId: string;
  wfc?: WfcRequest;
}

export interface ChangePlanResult {
  mdn: string;
  wfc?: WfcOutcome;
}

export interface PurchasePlanRequest extends CarrierWrite {
  mdn: string;
  carrierPlanId: string;
  wfc?: WfcRequest;
}

export interface PurchaseResult {
  mdn: string;
  purchaseId: string;
  /** Present when the purchased plan is a WFC plan (purchasePlan only). */
  wfc?: WfcOutcome;
}

export interface CancelPurchaseRequest extends CarrierWrite {
  mdn: string;
  purchaseId: string;
}

export interface ChangeBillingCodeRequest extends CarrierWrite {
  mdn: string;
  billingCode: string;
}

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

// ---------------------------------------------------------------- extended operations (carrier 321)

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

/**
 * One method per carrier operation of the spec. A business refusal by the carrier is thrown
 * as `CarrierRejection`; a carrier that cannot be reached or answers nonsense is thrown as
 * `CarrierFault` (see errors.ts).
 */
export interface CarrierOperations {
  readonly carrier: CarrierId;
  /** Present only on carriers that support the extended operations. */
  readonly extended?: ExtendedCarrierOperations;

  // Features
  addWfc(request: AddWfcRequest): Promise<LineRef>;
  updateE911Address(request: UpdateE911Request): Promise<LineRef>;
  resetVoicemailPassword(request: ResetVoicemailRequest): Promise<void>;
  setVoicemailLanguage(request: SetVoicemailLanguageRequest): Promise<void>;
  cancelDeviceLocation(request: MdnWrite): Promise<void>;

  // Queries
  getUsage(mdn: string): Promise<UsageSummary>;
  getServiceProfile(mdn: string, sim?: string): Promise<ServiceProfile>;
  getCarrierUsage(mdn: string): Promise<CarrierUsage>;
  getCoverage(zipCode: string): Promise<Coverage>;
  getDevice(imei: string): Promise<DeviceInfo>;
  getNetworkStatus(mdn: string): Promise<NetworkStatus>;
  getEsimProfile(sim: string): Promise<EsimProfile>;
  getSimDetails(sim: string): Promise<SimDetails>;

  // Lifecycle
  suspend(request: SuspendRequest): Promise<void>;
  restore(request: RestoreRequest): Promise<void>;
  disconnect(request: DisconnectRequest): Promise<LineRef>;
  reconnect(request: ReconnectRequest): Promise<ReconnectResult>;
  swapSim(request: SwapSimRequest): Promise<LineRef>;
  swapMdn(request: SwapMdnRequest): Promise<SwapMdnResult>;
  adjustBalance(request: AdjustBalanceRequest): Promise<void>;
  adjustBalances(request: AdjustBalancesRequest): Promise<void>;
  addChildLine(request: ChildLineRequest): Promise<void>;
  removeChildLine(request: ChildLineRequest): Promise<void>;

  // Plans
  changePlan(request: ChangePlanRequest): Promise<ChangePlanResult>;
  purchasePlan(request: PurchasePlanRequest): Promise<PurchaseResult>;
  cancelPurchase(request: CancelPurchaseRequest): Promise<PurchaseResult>;
  changeBillingCode(request: ChangeBillingCodeRequest): Promise<void>;

  // Activation
  activate(request: ActivateRequest): Promise<ActivateResult>;
}
