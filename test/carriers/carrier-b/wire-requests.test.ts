// The exact envelope each carrier_b adapter method puts on the wire (method, requestId,
// params, Basic auth), and how each wire result is translated back, against a recording
// stand-in server (stripe-node style).

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCarrierBAdapter, type CarrierBAdapter } from '../../../src/carriers/carrier-b/adapter.js';
import type { CarrierOperations } from '../../../src/carriers/types.js';
import { TRANSACTION_ID_PATTERN } from '../../../src/operations/schemas/fields.js';
import { startRecordingServer, type RecordingServer } from '../../support/recording-server.js';

const ACCOUNT_ID = 'acct-test-7';
const API_SECRET = 's3cr3t-Value!';
const EXPECTED_AUTH = `Basic ${Buffer.from('acct-test-7:s3cr3t-Value!').toString('base64')}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const MDN = '6465550001';
const SIM = '8901260000000000001';
/** 2026-01-02 03:04:05 UTC */
const T1 = Date.UTC(2026, 0, 2, 3, 4, 5);
/** 2026-02-01 00:00:00 UTC */
const T2 = Date.UTC(2026, 1, 1);

const ADDRESS = { address1: '1 Main St', address2: 'Apt 2', city: 'Springfield', state: 'IL', zipCode: '62701' };
const WIRE_ADDRESS = { line1: '1 Main St', line2: 'Apt 2', town: 'Springfield', stateCode: 'IL', postCode: '62701' };

const WIRE_BUNDLES = [
  {
    bundleId: 'PUR0001',
    tariffCode: 'PLAN_BASIC',
    tariffName: 'Basic',
    buckets: [
      { unit: 'seconds', remaining: 6000, startsAt: T1, endsAt: T2 },
      { unit: 'events', remaining: 100, startsAt: T1, endsAt: T2 },
      { unit: 'MEGABYTES', remaining: 5, startsAt: T1, endsAt: T2 },
    ],
  },
];
const DOMAIN_SUBSCRIPTIONS = [
  {
    purchaseId: 'PUR0001',
    planCode: 'PLAN_BASIC',
    planName: 'Basic',
    balances: [
      { uom: 'SECOND', balance: 6000, validFrom: '2026-01-02 03:04:05', validTo: '2026-02-01 00:00:00' },
      { uom: 'EVENT', balance: 100, validFrom: '2026-01-02 03:04:05', validTo: '2026-02-01 00:00:00' },
      { uom: 'MEGABYTES', balance: 5, validFrom: '2026-01-02 03:04:05', validTo: '2026-02-01 00:00:00' },
    ],
  },
];

const CANNED: Record<string, Record<string, unknown>> = {
  'WifiCalling.Enable': { msisdn: MDN, iccid: SIM },
  'WifiCalling.UpdateAddress': { msisdn: MDN, iccid: SIM },
  'Voicemail.ResetPin': { msisdn: MDN, accepted: true },
  'Voicemail.SetLanguage': { msisdn: MDN, accepted: true },
  'Location.CancelTracking': { msisdn: MDN, accepted: true },
  'Subscriber.GetUsage': {
    msisdn: MDN,
    iccid: SIM,
    subscriberState: 'live',
    customerRef: 'CUST-1',
    tariffName: 'Basic',
    tariffSince: T1,
    allowances: { voiceMinutes: 100, smsCount: 100, dataBytes: 1_073_741_824 },
    bundles: WIRE_BUNDLES,
  },
  'Subscriber.GetProfile': {
    msisdn: MDN,
    iccid: SIM,
    imei: '356938035643809',
    subscriberState: 'barred',
    tariffName: 'Basic',
    tariffSince: T1,
    billingDay: 2,
    features: [{ featureCode: 'WFC', activeFrom: Date.UTC(2026, 0, 2) }],
    allowances: { voiceMinutes: 1, smsCount: 2, dataBytes: 3 },
    bundles: WIRE_BUNDLES,
    emergencyAddress: { line1: '1 Main St', town: 'Springfield', stateCode: 'IL', postCode: '62701' },
    hotlineStatus: 'HOTLINED',
    hotlineRedirect: '8005550100',
  },
  'Usage.ListRecords': {
    msisdn: MDN,
    records: [
      { kind: 'call', seconds: 61, at: T1, calledParty: '2125550100' },
      { kind: 'data', octets: 2048, at: T2 },
      { kind: 'sms', messages: 1, at: T1, calledParty: '2125550101' },
    ],
  },
  'Network.CheckCoverage': {
    postCode: '62701',
    covered: true,
    areas: [{ town: 'Springfield', stateCode: 'IL', postCode: '62701', signal: 'EXCELLENT' }],
  },
  'Device.Lookup': {
    imei: '356938035643809',
    compatible: true,
    radio: '5G',
    simType: 'ESIM',
    simSize: null,
    model: 'X1',
    maker: 'Acme',
    marketingName: 'Acme X1',
    os: 'Android',
    capabilities: { esim: true, volte: true, wifiCalling: false },
    networkCertified: true,
  },
  'Network.GetHlrStatus': {
    msisdn: MDN,
    iccid: SIM,
    imei: '356938035643809',
    imsi: '310260000000001',
    subscriberState: 'ceased',
    simState: 'INUSE',
    featureCodes: ['VOLTE', 'WFC'],
  },
  'Esim.GetProfile': {
    iccid: '8902260000000000001',
    activationCode: 'LPA:1$smdp.example$ABC',
    matchingId: 'ABC',
    profileState: 'AVAILABLE',
    profileType: 'CONSUMER',
    brand: 'B-Mobile',
    updatedAt: T1,
  },
  'Sim.GetDetails': {
    iccid: SIM,
    canActivate: true,
    canUseWifiCalling: true,
    puk1: '12345678',
    puk2: null,
    createdAt: T1,
    expiresAt: T2,
    iccidState: 'AVAILABLE',
  },
  'WifiCalling.ValidateAddress': { valid: false, faultCode: 'GENS-0090', faultString: 'Invalid E911 address' },
  'Subscriber.Suspend': { msisdn: MDN, accepted: true },
  'Subscriber.Resume': { msisdn: MDN, accepted: true },
  'Subscriber.Terminate': { msisdn: MDN, iccid: SIM },
  'Subscriber.Reinstate': {
    msisdn: MDN,
    iccid: SIM,
    wifiCalling: { provisioned: false, faultCode: 'GENS-0090', faultString: 'Invalid E911 address' },
  },
  'Sim.Swap': { msisdn: MDN, iccid: '8901260000000000002' },
  'Subscriber.ChangeNumber': { previousMsisdn: MDN, msisdn: '6465550002', iccid: SIM },
  'Balance.Adjust': { msisdn: MDN, accepted: true },
  'Balance.AdjustMany': { msisdn: MDN, accepted: true },
  'Family.AttachMember': { ownerMsisdn: MDN, accepted: true },
  'Family.DetachMember': { ownerMsisdn: MDN, accepted: true },
  'Tariff.Change': { msisdn: MDN, wifiCalling: { provisioned: true } },
  'Tariff.PurchaseAddon': { msisdn: MDN, orderId: 'PUR0002' },
  'Tariff.CancelAddon': { msisdn: MDN, orderId: 'PUR0002' },
  'Billing.SetCostPlan': { msisdn: MDN, accepted: true },
  'Subscriber.Activate': {
    msisdn: MDN,
    iccid: SIM,
    customerRef: 'CUST-9',
    wifiCalling: { provisioned: false, faultCode: 906, faultString: 'Plan code invalid' },
  },
};

interface WireCase {
  name: keyof Omit<CarrierOperations, 'carrier' | 'extended'>;
  call(adapter: CarrierBAdapter): Promise<unknown>;
  method: string;
  /** The transaction id for writes; reads send a fresh UUID. */
  transactionId?: string;
  params: Record<string, unknown>;
  returns: unknown;
}

const CASES: WireCase[] = [
  // ------------------------------------------------------------ features
  {
    name: 'addWfc',
    call: (a) => a.addWfc({ transactionId: 'ADD_WFC_000000000001', mdn: MDN, sim: SIM, address: ADDRESS }),
    method: 'WifiCalling.Enable',
    transactionId: 'ADD_WFC_000000000001',
    params: { msisdn: MDN, iccid: SIM, emergencyAddress: WIRE_ADDRESS },
    returns: { mdn: MDN, sim: SIM },
  },
  {
    name: 'updateE911Address',
    call: (a) =>
      a.updateE911Address({ transactionId: 'UPD_WFC_ADDR_1', mdn: MDN, address: { ...ADDRESS, address2: undefined } }),
    method: 'WifiCalling.UpdateAddress',
    transactionId: 'UPD_WFC_ADDR_1',
    params: {
      msisdn: MDN,
      emergencyAddress: { line1: '1 Main St', town: 'Springfield', stateCode: 'IL', postCode: '62701' },
    },
    returns: { mdn: MDN, sim: SIM },
  },
  {
    name: 'resetVoicemailPassword',
    call: (a) => a.resetVoicemailPassword({ transactionId: 'VM_RESET_1', mdn: MDN, sim: SIM }),
    method: 'Voicemail.ResetPin',
    transactionId: 'VM_RESET_1',
    params: { msisdn: MDN, iccid: SIM },
    returns: undefined,
  },
  {
    name: 'setVoicemailLanguage',
    call: (a) => a.setVoicemailLanguage({ transactionId: 'VM_LANG_1', mdn: MDN, language: 'SPAN' }),
    method: 'Voicemail.SetLanguage',
    transactionId: 'VM_LANG_1',
    params: { msisdn: MDN, greetingLanguage: 'es' },
    returns: undefined,
  },
  {
    name: 'cancelDeviceLocation',
    call: (a) => a.cancelDeviceLocation({ transactionId: 'CANCEL_LOC_1', mdn: MDN }),
    method: 'Location.CancelTracking',
    transactionId: 'CANCEL_LOC_1',
    params: { msisdn: MDN },
    returns: undefined,
  },
  // ------------------------------------------------------------ queries
  {
    name: 'getUsage',
    call: (a) => a.getUsage(MDN),
    method: 'Subscriber.GetUsage',
    params: { msisdn: MDN },
    returns: {
      mdn: MDN,
      sim: SIM,
      lineStatus: 'ACTIVE',
      customerId: 'CUST-1',
      planName: 'Basic',
      effectiveDate: '2026-01-02 03:04:05',
      balanceDetails: { talk: 100, text: 100, data: 1_073_741_824 },
      subscriptions: DOMAIN_SUBSCRIPTIONS,
    },
  },
  {
    name: 'getServiceProfile',
    call: (a) => a.getServiceProfile(MDN, SIM),
    method: 'Subscriber.GetProfile',
    params: { msisdn: MDN, iccid: SIM },
    returns: {
      mdn: MDN,
      sim: SIM,
      imei: '356938035643809',
      lineStatus: 'SUSPENDED',
      planName: 'Basic',
      effectiveDate: '2026-01-02 03:04:05',
      billCycleDay: '2',
      serviceCodes: [{ code: 'WFC', effectiveDate: '2026-01-02' }],
      balanceDetails: { talk: 1, text: 2, data: 3 },
      subscriptions: DOMAIN_SUBSCRIPTIONS,
      e911Address: { address1: '1 Main St', city: 'Springfield', state: 'IL', zipCode: '62701' },
      hotlineStatus: 'HOTLINED',
      hotlineNumber: '8005550100',
    },
  },
  {
    name: 'getCarrierUsage',
    call: (a) => a.getCarrierUsage(MDN),
    method: 'Usage.ListRecords',
    params: { msisdn: MDN },
    returns: {
      mdn: MDN,
      usageRecords: [
        { type: 'VOICE', duration: 61, timestamp: '2026-01-02 03:04:05', destination: '2125550100' },
        { type: 'DATA', bytesUsed: 2048, timestamp: '2026-02-01 00:00:00' },
        { type: 'SMS', count: 1, timestamp: '2026-01-02 03:04:05', destination: '2125550101' },
      ],
    },
  },
  {
    name: 'getCoverage',
    call: (a) => a.getCoverage('62701'),
    method: 'Network.CheckCoverage',
    params: { postCode: '62701' },
    returns: {
      zipCode: '62701',
      covered: true,
      areas: [{ city: 'Springfield', state: 'IL', zipCode: '62701', quality: 'EXCELLENT' }],
    },
  },
  {
    name: 'getDevice',
    call: (a) => a.getDevice('356938035643809'),
    method: 'Device.Lookup',
    params: { imei: '356938035643809' },
    returns: {
      imei: '356938035643809',
      compatible: true,
      technology: '5G',
      simType: 'ESIM',
      simSize: null,
      model: 'X1',
      manufacturer: 'Acme',
      marketingName: 'Acme X1',
      osName: 'Android',
      esimCapable: true,
      volteCapable: true,
      wifiCallingCapable: false,
      networkApproved: true,
    },
  },
  {
    name: 'getNetworkStatus',
    call: (a) => a.getNetworkStatus(MDN),
    method: 'Network.GetHlrStatus',
    params: { msisdn: MDN },
    returns: {
      mdn: MDN,
      sim: SIM,
      imei: '356938035643809',
      imsi: '310260000000001',
      lineStatus: 'DISCONNECTED',
      simStatus: 'INUSE',
      serviceCodes: ['VOLTE', 'WFC'],
    },
  },
  {
    name: 'getEsimProfile',
    call: (a) => a.getEsimProfile('8902260000000000001'),
    method: 'Esim.GetProfile',
    params: { iccid: '8902260000000000001' },
    returns: {
      sim: '8902260000000000001',
      activationCode: 'LPA:1$smdp.example$ABC',
      matchingId: 'ABC',
      profileState: 'AVAILABLE',
      profileType: 'CONSUMER',
      esimBrand: 'B-Mobile',
      lastModified: '2026-01-02 03:04:05',
    },
  },
  {
    name: 'getSimDetails',
    call: (a) => a.getSimDetails(SIM),
    method: 'Sim.GetDetails',
    params: { iccid: SIM },
    returns: {
      sim: SIM,
      activationEligible: true,
      wfcEligible: true,
      puk1: '12345678',
      puk2: null,
      createDate: '2026-01-02T03:04:05Z',
      expirationDate: '2026-02-01T00:00:00+00:00',
      iccidStatus: 'AVAILABLE',
    },
  },
  {
    name: 'validateE911Address',
    call: (a) => a.validateE911Address({ ...ADDRESS, address2: undefined }),
    method: 'WifiCalling.ValidateAddress',
    params: { emergencyAddress: { line1: '1 Main St', town: 'Springfield', stateCode: 'IL', postCode: '62701' } },
    returns: { valid: false, failure: { code: 'GENS-0090', text: 'Invalid E911 address' } },
  },
  // ------------------------------------------------------------ lifecycle
  {
    name: 'suspend',
    call: (a) =>
      a.suspend({
        transactionId: 'SUSPEND_1',
        mdn: MDN,
        service: 'DATA',
        hotlineNumber: '8005550100',
        hotlineChargeable: false,
        reason: 'non-payment',
      }),
    method: 'Subscriber.Suspend',
    transactionId: 'SUSPEND_1',
    params: { msisdn: MDN, scope: 'data', redirectTo: '8005550100', chargeRedirect: false, note: 'non-payment' },
    returns: undefined,
  },
  {
    name: 'restore',
    call: (a) => a.restore({ transactionId: 'RESTORE_1', mdn: MDN }),
    method: 'Subscriber.Resume',
    transactionId: 'RESTORE_1',
    params: { msisdn: MDN, scope: 'all' },
    returns: undefined,
  },
  {
    name: 'disconnect',
    call: (a) => a.disconnect({ transactionId: 'DISCONNECT_1', mdn: MDN, sim: SIM }),
    method: 'Subscriber.Terminate',
    transactionId: 'DISCONNECT_1',
    params: { msisdn: MDN, iccid: SIM, confirmFinal: true },
    returns: { mdn: MDN, sim: SIM },
  },
  {
    name: 'reconnect',
    call: (a) =>
      a.reconnect({
        transactionId: 'RECONNECT_1',
        mdn: MDN,
        sim: SIM,
        carrierPlanId: 'PLAN_WFC',
        zipCode: '62701',
        billingCode: 'BC123',
        wfc: { address: null },
      }),
    method: 'Subscriber.Reinstate',
    transactionId: 'RECONNECT_1',
    params: {
      msisdn: MDN,
      iccid: SIM,
      ratePlan: 'PLAN_WFC',
      postCode: '62701',
      costPlan: 'BC123',
      wifiCalling: { emergencyAddress: null },
    },
    returns: {
      mdn: MDN,
      sim: SIM,
      wfc: { provisioned: false, failure: { code: 'GENS-0090', text: 'Invalid E911 address' } },
    },
  },
  {
    name: 'swapSim',
    call: (a) => a.swapSim({ transactionId: 'SWAP_1', mdn: MDN, oldSim: SIM, newSim: '8901260000000000002' }),
    method: 'Sim.Swap',
    transactionId: 'SWAP_1',
    params: { msisdn: MDN, fromIccid: SIM, toIccid: '8901260000000000002' },
    returns: { mdn: MDN, sim: '8901260000000000002' },
  },
  {
    name: 'swapMdn',
    call: (a) =>
      a.swapMdn({ transactionId: 'SWAP_MDN_1', mdn: MDN, sim: SIM, zipCode: '62701', imei: '356938035643809' }),
    method: 'Subscriber.ChangeNumber',
    transactionId: 'SWAP_MDN_1',
    params: { msisdn: MDN, iccid: SIM, postCode: '62701', imei: '356938035643809' },
    returns: { mdn: MDN, newMdn: '6465550002', sim: SIM },
  },
  {
    name: 'adjustBalance',
    call: (a) =>
      a.adjustBalance({
        transactionId: 'ADJ_BAL_1',
        mdn: MDN,
        subscriptionId: 'PUR0001',
        uom: 'BYTE',
        amount: -1024,
        expiryDate: '2026-03-01',
      }),
    method: 'Balance.Adjust',
    transactionId: 'ADJ_BAL_1',
    params: { msisdn: MDN, bundleId: 'PUR0001', unit: 'bytes', delta: -1024, expiresAt: Date.UTC(2026, 2, 1) },
    returns: undefined,
  },
  {
    name: 'adjustBalances',
    call: (a) =>
      a.adjustBalances({
        transactionId: 'ADJ_MULTI_BAL_1',
        mdn: MDN,
        adjustments: [
          { subscriptionId: 'PUR0001', uom: 'SECOND', amount: 600 },
          { subscriptionId: 'PUR0001', uom: 'EVENT', amount: 10, expiryDate: '2026-12-31' },
        ],
      }),
    method: 'Balance.AdjustMany',
    transactionId: 'ADJ_MULTI_BAL_1',
    params: {
      msisdn: MDN,
      adjustments: [
        { bundleId: 'PUR0001', unit: 'seconds', delta: 600 },
        { bundleId: 'PUR0001', unit: 'events', delta: 10, expiresAt: Date.UTC(2026, 11, 31) },
      ],
    },
    returns: undefined,
  },
  {
    name: 'addChildLine',
    call: (a) =>
      a.addChildLine({
        transactionId: 'ADD_LINE_1',
        parentMdn: MDN,
        parentSim: SIM,
        childMdn: '6465550003',
        childSim: '8901260000000000003',
      }),
    method: 'Family.AttachMember',
    transactionId: 'ADD_LINE_1',
    params: { ownerMsisdn: MDN, ownerIccid: SIM, memberMsisdn: '6465550003', memberIccid: '8901260000000000003' },
    returns: undefined,
  },
  {
    name: 'removeChildLine',
    call: (a) =>
      a.removeChildLine({ transactionId: 'REM_LINE_1', parentMdn: MDN, parentSim: SIM, childMdn: '6465550003' }),
    method: 'Family.DetachMember',
    transactionId: 'REM_LINE_1',
    params: { ownerMsisdn: MDN, ownerIccid: SIM, memberMsisdn: '6465550003' },
    returns: undefined,
  },
  // ------------------------------------------------------------ plans
  {
    name: 'changePlan',
    call: (a) =>
      a.changePlan({
        transactionId: 'PLAN_CHANGE_1',
        mdn: MDN,
        sim: SIM,
        carrierPlanId: 'PLAN_WFC',
        wfc: { address: ADDRESS },
      }),
    method: 'Tariff.Change',
    transactionId: 'PLAN_CHANGE_1',
    params: { msisdn: MDN, iccid: SIM, ratePlan: 'PLAN_WFC', wifiCalling: { emergencyAddress: WIRE_ADDRESS } },
    returns: { mdn: MDN, wfc: { provisioned: true } },
  },
  {
    name: 'purchasePlan',
    call: (a) => a.purchasePlan({ transactionId: 'PURCHASE_1', mdn: MDN, carrierPlanId: 'ADDON_1GB' }),
    method: 'Tariff.PurchaseAddon',
    transactionId: 'PURCHASE_1',
    params: { msisdn: MDN, ratePlan: 'ADDON_1GB' },
    returns: { mdn: MDN, purchaseId: 'PUR0002' },
  },
  {
    name: 'cancelPurchase',
    call: (a) => a.cancelPurchase({ transactionId: 'CANCEL_1', mdn: MDN, purchaseId: 'PUR0002' }),
    method: 'Tariff.CancelAddon',
    transactionId: 'CANCEL_1',
    params: { msisdn: MDN, orderId: 'PUR0002' },
    returns: { mdn: MDN, purchaseId: 'PUR0002' },
  },
  {
    name: 'changeBillingCode',
    call: (a) => a.changeBillingCode({ transactionId: 'CHG_BILL_1', mdn: MDN, billingCode: 'BC999' }),
    method: 'Billing.SetCostPlan',
    transactionId: 'CHG_BILL_1',
    params: { msisdn: MDN, costPlan: 'BC999' },
    returns: undefined,
  },
  // ------------------------------------------------------------ activation
  {
    name: 'activate',
    call: (a) =>
      a.activate({
        transactionId: 'ACT_1',
        sim: SIM,
        carrierPlanId: 'PLAN_WFC',
        zipCode: '62701-1234',
        address: ADDRESS,
        isEsim: true,
        email: 'someone@example.com',
        billingCode: 'BC123',
        language: 'ENGL',
        wfc: { address: ADDRESS },
      }),
    method: 'Subscriber.Activate',
    transactionId: 'ACT_1',
    params: {
      iccid: SIM,
      ratePlan: 'PLAN_WFC',
      postCode: '62701-1234',
      emergencyAddress: WIRE_ADDRESS,
      simKind: 'esim',
      contactEmail: 'someone@example.com',
      costPlan: 'BC123',
      greetingLanguage: 'en',
      wifiCalling: { emergencyAddress: WIRE_ADDRESS },
    },
    returns: {
      mdn: MDN,
      sim: SIM,
      customerId: 'CUST-9',
      wfc: { provisioned: false, failure: { code: '906', text: 'Plan code invalid' } },
    },
  },
];

let recorder: RecordingServer;
let adapter: CarrierBAdapter;

beforeAll(async () => {
  recorder = await startRecordingServer(() => ({ status: 500, body: {} }));
  adapter = createCarrierBAdapter({
    baseUrl: recorder.url,
    accountId: ACCOUNT_ID,
    apiSecret: API_SECRET,
    timeoutMs: 2000,
    retries: 0,
  });
});

afterAll(async () => {
  await adapter.close();
  await recorder.close();
});

beforeEach(() => {
  recorder.requests.length = 0;
  recorder.respondWith((body) => {
    const result = CANNED[body.method ?? ''];
    return result
      ? { status: 200, body: { requestId: body.requestId, result } }
      : {
          status: 200,
          body: { requestId: body.requestId, fault: { faultCode: 'RPC-1002', faultString: 'Method not found' } },
        };
  });
});

describe('carrier_b adapter wire requests', () => {
  it('covers every CarrierOperations method', () => {
    const methods = Object.keys(adapter).filter((key) => !['carrier', 'probe', 'scoped', 'close'].includes(key)); // probe: test/carriers/probe.test.ts; scoped: test/observability/carrier-call-labels.test.ts
    expect(CASES.map((c) => c.name).sort()).toEqual(methods.sort());
  });

  it.each(CASES)('$name sends $method', async (wireCase) => {
    const returned = await wireCase.call(adapter);

    expect(recorder.requests).toHaveLength(1);
    const [request] = recorder.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/rpc/v3');
    expect(request?.headers.authorization).toBe(EXPECTED_AUTH);
    expect(request?.headers['content-type']).toMatch(/^application\/json/);
    const body = request?.body as { method: string; requestId: string; params: unknown };
    expect(Object.keys(body).sort()).toEqual(['method', 'params', 'requestId']);
    expect(body.method).toBe(wireCase.method);
    expect(body.params).toEqual(wireCase.params);
    if (wireCase.transactionId) expect(body.requestId).toBe(wireCase.transactionId);
    else expect(body.requestId).toMatch(UUID);

    expect(returned).toEqual(wireCase.returns);
  });

  it('gives every read its own requestId', async () => {
    await adapter.getUsage(MDN);
    await adapter.getUsage(MDN);
    const ids = recorder.requests.map((request) => (request.body as { requestId: string }).requestId);
    expect(new Set(ids).size).toBe(2);
  });

  it('leaves optional params out rather than sending null', async () => {
    await adapter.getServiceProfile(MDN);
    await adapter.suspend({ transactionId: 'SUSPEND_2', mdn: MDN });
    expect(recorder.requests.map((request) => (request.body as { params: unknown }).params)).toEqual([
      { msisdn: MDN },
      { msisdn: MDN, scope: 'all' },
    ]);
  });

  // Every accepted transaction id (printable ASCII, no space, 1-64) is the requestId as it is.
  it.each([
    'K1',
    '!',
    'A'.repeat(64),
    `!"#$%&'()*+,-./09:;<=>?@AZ[\\]^_\`az{|}~`,
    'BULK_8901260000000000001_1764000000000',
  ])('sends transaction id %j as the exact requestId', async (id) => {
    expect(id).toMatch(TRANSACTION_ID_PATTERN);
    await adapter.suspend({ transactionId: id, mdn: MDN });
    expect(recorder.requests).toHaveLength(1);
    expect((recorder.requests[0]!.body as { requestId: string }).requestId).toBe(id);
  });

  it('has no extended operations', () => {
    expect(adapter.carrier).toBe('carrier_b');
    expect(adapter.extended).toBeUndefined();
    expect('extended' in adapter).toBe(false);
  });
});
