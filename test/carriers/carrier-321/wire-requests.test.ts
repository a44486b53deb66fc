// The exact wire request each carrier 321 adapter method sends (method, path, headers, body)
// and how it reads the carrier's canned answer, stripe-node style: a recording server stands
// in for the carrier, so the wire format is pinned down independently of the sandbox.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCarrier321Adapter, type Carrier321Adapter } from '../../../src/carriers/carrier-321/adapter.js';
import { TRANSACTION_ID_PATTERN } from '../../../src/operations/schemas/fields.js';
import { startRecordingServer, type CannedReply, type RecordingServer } from '../../support/recording-server.js';

const KEY = 'test-key-321';
const TX = 'TX-0001';
const MDN = '3215550001';
const SIM = '89010000000000000001';
const IMEI = '356938035643809';
const ADDRESS = { address1: '1 Main St', address2: 'Apt 2', city: 'Springfield', state: 'IL', zipCode: '62701' };
const WIRE_E911 = { street1: '1 Main St', street2: 'Apt 2', city: 'Springfield', region: 'IL', postal_code: '62701' };
const ACK = { status: 200, body: { msisdn: MDN, outcome: 'completed' } };

interface WireCase {
  name: string;
  call(adapter: Carrier321Adapter): Promise<unknown>;
  /** Expected request; `write` requests must carry the Idempotency-Key. */
  method: string;
  url: string;
  body?: unknown;
  write: boolean;
  reply: CannedReply;
  result: unknown;
}

const features: WireCase[] = [
  {
    name: 'addWfc',
    call: (a) => a.addWfc({ transactionId: TX, mdn: MDN, sim: SIM, address: ADDRESS }),
    method: 'POST',
    url: `/v1/subscribers/${MDN}/wfc`,
    body: { iccid: SIM, e911: WIRE_E911 },
    write: true,
    reply: { status: 201, body: { msisdn: MDN, iccid: SIM, wfc_state: 'active' } },
    result: { mdn: MDN, sim: SIM },
  },
  {
    name: 'updateE911Address without sim (street2 omitted)',
    call: (a) => a.updateE911Address({ transactionId: TX, mdn: MDN, address: { ...ADDRESS, address2: undefined } }),
    method: 'PUT',
    url: `/v1/subscribers/${MDN}/wfc/e911`,
    body: { e911: { street1: '1 Main St', city: 'Springfield', region: 'IL', postal_code: '62701' } },
    write: true,
    reply: { status: 200, body: { msisdn: MDN, iccid: SIM } },
    result: { mdn: MDN, sim: SIM },
  },
  {
    name: 'resetVoicemailPassword',
    call: (a) => a.resetVoicemailPassword({ transactionId: TX, mdn: MDN, sim: SIM }),
    method: 'POST',
    url: `/v1/subscribers/${MDN}/voicemail/password-reset`,
    body: { iccid: SIM },
    write: true,
    reply: ACK,
    result: undefined,
  },
  {
    name: 'setVoicemailLanguage SPAN → es-US',
    call: (a) => a.setVoicemailLanguage({ transactionId: TX, mdn: MDN, language: 'SPAN' }),
    method: 'PUT',
    url: `/v1/subscribers/${MDN}/voicemail/language`,
    body: { language: 'es-US' },
    write: true,
    reply: ACK,
    result: undefined,
  },
  {
    name: 'cancelDeviceLocation',
    call: (a) => a.cancelDeviceLocation({ transactionId: TX, mdn: MDN }),
    method: 'DELETE',
    url: `/v1/subscribers/${MDN}/device-location`,
    write: true,
    reply: ACK,
    result: undefined,
  },
];

const SUBSCRIPTION_WIRE = {
  purchase_ref: 'PUR0001',
  soc: 'UNL50',
  name: 'Unlimited 50',
  buckets: [
    { unit: 'SECOND', remaining: 6000, valid_from: '2026-01-02T03:04:05Z', valid_until: '2026-02-01T03:04:05+02:00' },
  ],
};
const SUBSCRIPTION = {
  purchaseId: 'PUR0001',
  planCode: 'UNL50',
  planName: 'Unlimited 50',
  balances: [{ uom: 'SECOND', balance: 6000, validFrom: '2026-01-02 03:04:05', validTo: '2026-02-01 01:04:05' }],
};

const queries: WireCase[] = [
  {
    name: 'getUsage',
    call: (a) => a.getUsage(MDN),
    method: 'GET',
    url: `/v1/subscribers/${MDN}/balances`,
    write: false,
    reply: {
      status: 200,
      body: {
        msisdn: MDN,
        iccid: SIM,
        state: 'active',
        customer_ref: 'CUST1',
        plan_name: 'Unlimited 50',
        effective_at: '2026-01-02T03:04:05.000Z',
        balance_summary: { voice_minutes: 100, sms_count: 200, data_bytes: 1024 },
        subscriptions: [SUBSCRIPTION_WIRE],
      },
    },
    result: {
      mdn: MDN,
      sim: SIM,
      lineStatus: 'ACTIVE',
      customerId: 'CUST1',
      planName: 'Unlimited 50',
      effectiveDate: '2026-01-02 03:04:05',
      balanceDetails: { talk: 100, text: 200, data: 1024 },
      subscriptions: [SUBSCRIPTION],
    },
  },
  {
    name: 'getServiceProfile with sim',
    call: (a) => a.getServiceProfile(MDN, SIM),
    method: 'GET',
    url: `/v1/subscribers/${MDN}?iccid=${SIM}`,
    write: false,
    reply: {
      status: 200,
      body: {
        msisdn: MDN,
        iccid: SIM,
        imei: IMEI,
        state: 'hotlined',
        plan_name: 'Unlimited 50',
        effective_at: '2026-01-02T03:04:05Z',
        bill_cycle_day: '02',
        socs: [{ soc: 'UNL50', effective_on: '2026-01-02' }],
        balance_summary: { voice_minutes: 1, sms_count: 2, data_bytes: 3 },
        subscriptions: [],
        e911: { ...WIRE_E911, street2: null },
        hotline: { status: 'HOTLINED', forward_to: '8005551212' },
      },
    },
    result: {
      mdn: MDN,
      sim: SIM,
      imei: IMEI,
      lineStatus: 'SUSPENDED',
      planName: 'Unlimited 50',
      effectiveDate: '2026-01-02 03:04:05',
      billCycleDay: '02',
      serviceCodes: [{ code: 'UNL50', effectiveDate: '2026-01-02' }],
      balanceDetails: { talk: 1, text: 2, data: 3 },
      subscriptions: [],
      e911Address: { address1: '1 Main St', city: 'Springfield', state: 'IL', zipCode: '62701' },
      hotlineStatus: 'HOTLINED',
      hotlineNumber: '8005551212',
    },
  },
  {
    name: 'getCarrierUsage',
    call: (a) => a.getCarrierUsage(MDN),
    method: 'GET',
    url: `/v1/subscribers/${MDN}/usage-records`,
    write: false,
    reply: {
      status: 200,
      body: {
        msisdn: MDN,
        records: [
          { kind: 'voice', seconds: 60, occurred_at: '2026-01-02T03:04:05Z', called_number: '2125551234' },
          { kind: 'data', bytes: 2048, occurred_at: '2026-01-02T04:00:00Z' },
          { kind: 'sms', messages: 1, occurred_at: '2026-01-02T05:00:00Z', called_number: '2125551234' },
        ],
      },
    },
    result: {
      mdn: MDN,
      usageRecords: [
        { type: 'VOICE', duration: 60, timestamp: '2026-01-02 03:04:05', destination: '2125551234' },
        { type: 'DATA', bytesUsed: 2048, timestamp: '2026-01-02 04:00:00' },
        { type: 'SMS', count: 1, timestamp: '2026-01-02 05:00:00', destination: '2125551234' },
      ],
    },
  },
  {
    name: 'getCoverage',
    call: (a) => a.getCoverage('62701'),
    method: 'GET',
    url: '/v1/coverage/62701',
    write: false,
    reply: {
      status: 200,
      body: {
        postal_code: '62701',
        covered: true,
        areas: [{ city: 'Springfield', region: 'IL', postal_code: '62701', signal: 'EXCELLENT' }],
      },
    },
    result: {
      zipCode: '62701',
      covered: true,
      areas: [{ city: 'Springfield', state: 'IL', zipCode: '62701', quality: 'EXCELLENT' }],
    },
  },
  {
    name: 'getDevice',
    call: (a) => a.getDevice(IMEI),
    method: 'GET',
    url: `/v1/devices/${IMEI}`,
    write: false,
    reply: {
      status: 200,
      body: {
        imei: IMEI,
        compatible: true,
        network: { technology: '5G', approved: true },
        sim: { type: 'PSIM', form_factor: 'NANO' },
        make: 'Acme',
        model: 'A1',
        marketing_name: 'Acme One',
        os: 'Android',
        capabilities: { esim: true, volte: true, wifi_calling: false },
      },
    },
    result: {
      imei: IMEI,
      compatible: true,
      technology: '5G',
      simType: 'PSIM',
      simSize: 'NANO',
      model: 'A1',
      manufacturer: 'Acme',
      marketingName: 'Acme One',
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
    method: 'GET',
    url: `/v1/subscribers/${MDN}/network`,
    write: false,
    reply: {
      status: 200,
      body: {
        msisdn: MDN,
        iccid: SIM,
        imei: IMEI,
        imsi: '310260000000001',
        state: 'active',
        sim_state: 'INUSE',
        socs: ['UNL50'],
      },
    },
    result: {
      mdn: MDN,
      sim: SIM,
      imei: IMEI,
      imsi: '310260000000001',
      lineStatus: 'ACTIVE',
      simStatus: 'INUSE',
      serviceCodes: ['UNL50'],
    },
  },
  {
    name: 'getEsimProfile',
    call: (a) => a.getEsimProfile('89020000000000000001'),
    method: 'GET',
    url: '/v1/sims/89020000000000000001/esim-profile',
    write: false,
    reply: {
      status: 200,
      body: {
        iccid: '89020000000000000001',
        activation_code: 'LPA:1$sm-dp.example$ABC',
        matching_id: 'ABC',
        state: 'AVAILABLE',
        type: 'CONSUMER',
        brand: 'Brand',
        updated_at: '2026-01-02T03:04:05Z',
      },
    },
    result: {
      sim: '89020000000000000001',
      activationCode: 'LPA:1$sm-dp.example$ABC',
      matchingId: 'ABC',
      profileState: 'AVAILABLE',
      profileType: 'CONSUMER',
      esimBrand: 'Brand',
      lastModified: '2026-01-02 03:04:05',
    },
  },
  {
    name: 'getSimDetails (ISO dates kept as sent)',
    call: (a) => a.getSimDetails(SIM),
    method: 'GET',
    url: `/v1/sims/${SIM}`,
    write: false,
    reply: {
      status: 200,
      body: {
        iccid: SIM,
        eligibility: { activation: true, wfc: true },
        puk1: '12345678',
        puk2: null,
        created_at: '2026-01-02T03:04:05Z',
        expires_at: '2031-01-02T03:04:05+00:00',
        state: 'AVAILABLE',
      },
    },
    result: {
      sim: SIM,
      activationEligible: true,
      wfcEligible: true,
      puk1: '12345678',
      puk2: null,
      createDate: '2026-01-02T03:04:05Z',
      expirationDate: '2031-01-02T03:04:05+00:00',
      iccidStatus: 'AVAILABLE',
    },
  },
  {
    name: 'validateE911Address (a read with a body: no Idempotency-Key)',
    call: (a) => a.validateE911Address(ADDRESS),
    method: 'POST',
    url: '/v1/e911/validations',
    body: { e911: WIRE_E911 },
    write: false,
    reply: { status: 200, body: { valid: false, error: { code: 'GENS-0090', description: 'Invalid E911 address' } } },
    result: { valid: false, failure: { code: 'GENS-0090', text: 'Invalid E911 address' } },
  },
];

const lifecycle: WireCase[] = [
  {
    name: 'suspend with every option',
    call: (a) =>
      a.suspend({
        transactionId: TX,
        mdn: MDN,
        service: 'DATA',
        hotlineNumber: '8005551212',
        hotlineChargeable: false,
        reason: 'non-payment',
      }),
    method: 'POST',
    url: `/v1/subscribers/${MDN}/hotline`,
    body: { scope: 'data', forward_to: '8005551212', billable: false, reason: 'non-payment' },
    write: true,
    reply: { ...ACK, status: 201 },
    result: undefined,
  },
  {
    name: 'restore one service',
    call: (a) => a.restore({ transactionId: TX, mdn: MDN, service: 'VOICE' }),
    method: 'DELETE',
    url: `/v1/subscribers/${MDN}/hotline?scope=voice`,
    write: true,
    reply: ACK,
    result: undefined,
  },
  {
    name: 'restore all services',
    call: (a) => a.restore({ transactionId: TX, mdn: MDN }),
    method: 'DELETE',
    url: `/v1/subscribers/${MDN}/hotline`,
    write: true,
    reply: ACK,
    result: undefined,
  },
  {
    name: 'disconnect',
    call: (a) => a.disconnect({ transactionId: TX, mdn: MDN, sim: SIM }),
    method: 'POST',
    url: `/v1/subscribers/${MDN}/deactivation`,
    body: { iccid: SIM },
    write: true,
    reply: { status: 200, body: { msisdn: MDN, iccid: SIM, state: 'deactivated' } },
    result: { mdn: MDN, sim: SIM },
  },
  {
    name: 'reconnect on a WFC plan whose WFC failed',
    call: (a) =>
      a.reconnect({
        transactionId: TX,
        mdn: MDN,
        sim: SIM,
        carrierPlanId: 'WFC10',
        zipCode: '62701',
        billingCode: 'BC123',
        wfc: { address: null },
      }),
    method: 'POST',
    url: `/v1/subscribers/${MDN}/reactivation`,
    body: { iccid: SIM, soc: 'WFC10', postal_code: '62701', billing_code: 'BC123', wfc: { e911: null } },
    write: true,
    reply: {
      status: 200,
      body: {
        msisdn: MDN,
        iccid: SIM,
        state: 'active',
        wfc: { provisioned: false, error: { code: 'GENS-0090', description: 'Invalid E911 address' } },
      },
    },
    result: {
      mdn: MDN,
      sim: SIM,
      wfc: { provisioned: false, failure: { code: 'GENS-0090', text: 'Invalid E911 address' } },
    },
  },
  {
    name: 'swapSim',
    call: (a) => a.swapSim({ transactionId: TX, mdn: MDN, oldSim: SIM, newSim: '89010000000000000002' }),
    method: 'POST',
    url: `/v1/subscribers/${MDN}/sim-change`,
    body: { current_iccid: SIM, new_iccid: '89010000000000000002' },
    write: true,
    reply: { status: 200, body: { msisdn: MDN, iccid: '89010000000000000002' } },
    result: { mdn: MDN, sim: '89010000000000000002' },
  },
  {
    name: 'swapMdn',
    call: (a) => a.swapMdn({ transactionId: TX, mdn: MDN, sim: SIM, zipCode: '62701', imei: IMEI }),
    method: 'POST',
    url: `/v1/subscribers/${MDN}/msisdn-change`,
    body: { iccid: SIM, postal_code: '62701', imei: IMEI },
    write: true,
    reply: { status: 200, body: { previous_msisdn: MDN, msisdn: '3215550002', iccid: SIM } },
    result: { mdn: MDN, newMdn: '3215550002', sim: SIM },
  },
  {
    name: 'adjustBalance',
    call: (a) =>
      a.adjustBalance({
        transactionId: TX,
        mdn: MDN,
        subscriptionId: 'PUR 1/2',
        uom: 'SECOND',
        amount: -60,
        expiryDate: '2026-03-01',
      }),
    method: 'POST',
    url: `/v1/subscribers/${MDN}/subscriptions/PUR%201%2F2/adjustments`,
    body: { unit: 'SECOND', amount: -60, expires_on: '2026-03-01' },
    write: true,
    reply: ACK,
    result: undefined,
  },
  {
    name: 'adjustBalances',
    call: (a) =>
      a.adjustBalances({
        transactionId: TX,
        mdn: MDN,
        adjustments: [
          { subscriptionId: 'PUR0001', uom: 'BYTE', amount: 1024 },
          { subscriptionId: 'PUR0002', uom: 'EVENT', amount: 5, expiryDate: '2026-03-01' },
        ],
      }),
    method: 'POST',
    url: `/v1/subscribers/${MDN}/balance-adjustments`,
    body: {
      items: [
        { purchase_ref: 'PUR0001', unit: 'BYTE', amount: 1024 },
        { purchase_ref: 'PUR0002', unit: 'EVENT', amount: 5, expires_on: '2026-03-01' },
      ],
    },
    write: true,
    reply: ACK,
    result: undefined,
  },
  {
    name: 'addChildLine',
    call: (a) =>
      a.addChildLine({
        transactionId: TX,
        parentMdn: MDN,
        parentSim: SIM,
        childMdn: '3215550009',
        childSim: '89010000000000000009',
      }),
    method: 'POST',
    url: `/v1/subscribers/${MDN}/child-lines`,
    body: { parent_iccid: SIM, msisdn: '3215550009', iccid: '89010000000000000009' },
    write: true,
    reply: { ...ACK, status: 201 },
    result: undefined,
  },
  {
    name: 'removeChildLine',
    call: (a) => a.removeChildLine({ transactionId: TX, parentMdn: MDN, parentSim: SIM, childMdn: '3215550009' }),
    method: 'DELETE',
    url: `/v1/subscribers/${MDN}/child-lines/3215550009?parent_iccid=${SIM}`,
    write: true,
    reply: ACK,
    result: undefined,
  },
];

const plansAndActivation: WireCase[] = [
  {
    name: 'changePlan on a WFC plan',
    call: (a) =>
      a.changePlan({ transactionId: TX, mdn: MDN, sim: SIM, carrierPlanId: 'WFC10', wfc: { address: ADDRESS } }),
    method: 'PUT',
    url: `/v1/subscribers/${MDN}/plan`,
    body: { soc: 'WFC10', iccid: SIM, wfc: { e911: WIRE_E911 } },
    write: true,
    reply: { status: 200, body: { msisdn: MDN, soc: 'WFC10', wfc: { provisioned: true } } },
    result: { mdn: MDN, wfc: { provisioned: true } },
  },
  {
    name: 'purchasePlan',
    call: (a) => a.purchasePlan({ transactionId: TX, mdn: MDN, carrierPlanId: 'TOPUP5' }),
    method: 'POST',
    url: `/v1/subscribers/${MDN}/purchases`,
    body: { soc: 'TOPUP5' },
    write: true,
    reply: { status: 201, body: { msisdn: MDN, purchase_ref: 'PUR0002', soc: 'TOPUP5', state: 'active' } },
    result: { mdn: MDN, purchaseId: 'PUR0002' },
  },
  {
    name: 'cancelPurchase',
    call: (a) => a.cancelPurchase({ transactionId: TX, mdn: MDN, purchaseId: 'PUR0002' }),
    method: 'DELETE',
    url: `/v1/subscribers/${MDN}/purchases/PUR0002`,
    write: true,
    reply: { status: 200, body: { msisdn: MDN, purchase_ref: 'PUR0002', state: 'cancelled' } },
    result: { mdn: MDN, purchaseId: 'PUR0002' },
  },
  {
    name: 'changeBillingCode',
    call: (a) => a.changeBillingCode({ transactionId: TX, mdn: MDN, billingCode: 'BC999' }),
    method: 'PUT',
    url: `/v1/subscribers/${MDN}/billing-code`,
    body: { billing_code: 'BC999' },
    write: true,
    reply: ACK,
    result: undefined,
  },
  {
    name: 'activate an eSIM',
    call: (a) =>
      a.activate({
        transactionId: TX,
        sim: '89020000000000000001',
        carrierPlanId: 'UNL50',
        zipCode: '62701-1234',
        address: ADDRESS,
        isEsim: true,
        email: 'a@example.com',
        billingCode: 'BC123',
        language: 'ENGL',
      }),
    method: 'POST',
    url: '/v1/activations',
    body: {
      iccid: '89020000000000000001',
      soc: 'UNL50',
      postal_code: '62701-1234',
      e911: WIRE_E911,
      esim: true,
      contact_email: 'a@example.com',
      billing_code: 'BC123',
      voicemail_language: 'en-US',
    },
    write: true,
    reply: {
      status: 201,
      body: { msisdn: MDN, iccid: '89020000000000000001', customer_ref: 'CUST1', state: 'active' },
    },
    result: { mdn: MDN, sim: '89020000000000000001', customerId: 'CUST1' },
  },
];

const extended: WireCase[] = [
  {
    name: 'listAvailablePlans',
    call: (a) => a.extended.listAvailablePlans(),
    method: 'GET',
    url: '/v1/catalog/socs',
    write: false,
    reply: { status: 200, body: { socs: [{ soc: 'UNL50', description: 'Unlimited 50' }] } },
    result: [{ soc: 'UNL50', name: 'Unlimited 50' }],
  },
  {
    name: 'validateAddress (a read: no Idempotency-Key)',
    call: (a) =>
      a.extended.validateAddress({ street1: '1 main st', city: 'springfield', state: 'il', zipCode: '62701' }),
    method: 'POST',
    url: '/v1/address-validations',
    body: { street1: '1 main st', city: 'springfield', region: 'il', postal_code: '62701' },
    write: false,
    reply: {
      status: 200,
      body: {
        valid: true,
        normalized: { street1: '1 MAIN ST', city: 'SPRINGFIELD', region: 'IL', postal_code: '62701' },
      },
    },
    result: { valid: true, normalized: { street1: '1 MAIN ST', city: 'SPRINGFIELD', state: 'IL', zipCode: '62701' } },
  },
  {
    name: 'getDeviceUnlockStatus',
    call: (a) => a.extended.getDeviceUnlockStatus(IMEI),
    method: 'GET',
    url: `/v1/devices/${IMEI}/unlock-status`,
    write: false,
    reply: {
      status: 200,
      body: { imei: IMEI, unlocked: false, eligible: false, reason: 'On a line for less than 60 days' },
    },
    result: { imei: IMEI, unlocked: false, unlockEligible: false, reason: 'On a line for less than 60 days' },
  },
  {
    name: 'getAccount',
    call: (a) => a.extended.getAccount(MDN),
    method: 'GET',
    url: `/v1/subscribers/${MDN}/account`,
    write: false,
    reply: {
      status: 200,
      body: { account_ref: 'ACC1', msisdn: MDN, lines: [{ msisdn: MDN, iccid: SIM, state: 'pending', label: null }] },
    },
    result: { accountId: 'ACC1', mdn: MDN, lines: [{ mdn: MDN, sim: SIM, lineStatus: 'NEW', label: null }] },
  },
  {
    name: 'getPoolUsage',
    call: (a) => a.extended.getPoolUsage('ACC1'),
    method: 'GET',
    url: '/v1/accounts/ACC1/data-pool',
    write: false,
    reply: {
      status: 200,
      body: { account_ref: 'ACC1', pool_bytes: 100, used_bytes: 40, lines: [{ msisdn: MDN, used_bytes: 40 }] },
    },
    result: { accountId: 'ACC1', poolBytes: 100, usedBytes: 40, lines: [{ mdn: MDN, bytesUsed: 40 }] },
  },
  {
    name: 'getNumberGroups',
    call: (a) => a.extended.getNumberGroups('62701'),
    method: 'GET',
    url: '/v1/number-groups?postal_code=62701',
    write: false,
    reply: {
      status: 200,
      body: {
        postal_code: '62701',
        groups: [{ npa: '217', nxx: '555', city: 'Springfield', region: 'IL', available: 12 }],
      },
    },
    result: { zipCode: '62701', groups: [{ npa: '217', nxx: '555', city: 'Springfield', state: 'IL', available: 12 }] },
  },
  {
    name: 'getActivePlan',
    call: (a) => a.extended.getActivePlan(MDN),
    method: 'GET',
    url: `/v1/subscribers/${MDN}/plan`,
    write: false,
    reply: {
      status: 200,
      body: { msisdn: MDN, soc: 'UNL50', name: 'Unlimited 50', effective_at: '2026-01-02T03:04:05Z' },
    },
    result: { mdn: MDN, soc: 'UNL50', planName: 'Unlimited 50', effectiveDate: '2026-01-02 03:04:05' },
  },
  {
    name: 'getImeiDetails',
    call: (a) => a.extended.getImeiDetails(IMEI),
    method: 'GET',
    url: `/v1/devices/${IMEI}/details`,
    write: false,
    reply: {
      status: 200,
      body: {
        imei: IMEI,
        make: 'Acme',
        model: 'A1',
        marketing_name: 'Acme One',
        os: 'Android',
        capabilities: { esim: true, volte: false },
        blacklisted: false,
      },
    },
    result: {
      imei: IMEI,
      manufacturer: 'Acme',
      model: 'A1',
      marketingName: 'Acme One',
      osName: 'Android',
      esimCapable: true,
      volteCapable: false,
      blacklisted: false,
    },
  },
  {
    name: 'getProducts',
    call: (a) => a.extended.getProducts(MDN),
    method: 'GET',
    url: `/v1/subscribers/${MDN}/products`,
    write: false,
    reply: { status: 200, body: { msisdn: MDN, products: [{ soc: 'VOLTE', effective_on: '2026-01-02' }] } },
    result: { mdn: MDN, products: [{ code: 'VOLTE', effectiveDate: '2026-01-02' }] },
  },
  {
    name: 'getCustomerImpactingEvents (domain times sent as ISO)',
    call: (a) =>
      a.extended.getCustomerImpactingEvents({ startTime: '2026-01-01 00:00:00', endTime: '2026-01-31T23:59:59Z' }),
    method: 'GET',
    url: '/v1/network-events?from=2026-01-01T00%3A00%3A00Z&until=2026-01-31T23%3A59%3A59Z',
    write: false,
    reply: {
      status: 200,
      body: {
        events: [
          {
            event_ref: 'EV1',
            category: 'OUTAGE',
            description: 'Tower down',
            postal_codes: ['62701'],
            started_at: '2026-01-05T10:00:00Z',
            ended_at: null,
          },
        ],
      },
    },
    result: [
      {
        eventId: 'EV1',
        category: 'OUTAGE',
        description: 'Tower down',
        zipCodes: ['62701'],
        startTime: '2026-01-05 10:00:00',
        endTime: null,
      },
    ],
  },
  {
    name: 'getCustomerImpactingEvents without bounds',
    call: (a) => a.extended.getCustomerImpactingEvents({}),
    method: 'GET',
    url: '/v1/network-events',
    write: false,
    reply: { status: 200, body: { events: [] } },
    result: [],
  },
  {
    name: 'sendSms',
    call: (a) => a.extended.sendSms({ transactionId: TX, mdn: MDN, message: 'Hello' }),
    method: 'POST',
    url: `/v1/subscribers/${MDN}/messages`,
    body: { text: 'Hello' },
    write: true,
    reply: { status: 201, body: { msisdn: MDN, message_ref: 'MSG1' } },
    result: { mdn: MDN, messageId: 'MSG1' },
  },
  {
    name: 'managePhoneList remove → disallow',
    call: (a) => a.extended.managePhoneList({ transactionId: TX, mdn: MDN, action: 'remove', numbers: ['2125551234'] }),
    method: 'POST',
    url: `/v1/subscribers/${MDN}/phone-list`,
    body: { operation: 'disallow', numbers: ['2125551234'] },
    write: true,
    reply: { status: 200, body: { msisdn: MDN, allow_list: [], block_list: ['3125550000'] } },
    result: { mdn: MDN, allowed: [], blocked: ['3125550000'] },
  },
  {
    name: 'setLabel',
    call: (a) => a.extended.setLabel({ transactionId: TX, mdn: MDN, label: "Kid's phone" }),
    method: 'PATCH',
    url: `/v1/subscribers/${MDN}`,
    body: { label: "Kid's phone" },
    write: true,
    reply: { status: 200, body: { msisdn: MDN, label: "Kid's phone" } },
    result: { mdn: MDN, label: "Kid's phone" },
  },
  {
    name: 'changeImei',
    call: (a) => a.extended.changeImei({ transactionId: TX, mdn: MDN, sim: SIM, newImei: IMEI }),
    method: 'PUT',
    url: `/v1/subscribers/${MDN}/device`,
    body: { iccid: SIM, imei: IMEI },
    write: true,
    reply: { status: 200, body: { msisdn: MDN, iccid: SIM, imei: IMEI } },
    result: { mdn: MDN, sim: SIM, imei: IMEI },
  },
];

describe('carrier 321 adapter: wire requests', () => {
  let server: RecordingServer;
  let adapter: Carrier321Adapter;

  beforeAll(async () => {
    server = await startRecordingServer();
    adapter = createCarrier321Adapter({ baseUrl: server.url, apiKey: KEY, timeoutMs: 2000, retries: 0 });
  });
  afterEach(() => {
    server.requests.length = 0;
  });
  afterAll(async () => {
    await adapter.close();
    await server.close();
  });

  const cases = [...features, ...queries, ...lifecycle, ...plansAndActivation, ...extended];

  it('covers every adapter method', () => {
    const called = new Set(cases.map((c) => c.name.split(' ')[0]));
    const methods = [
      ...Object.keys(adapter).filter((k) => !['carrier', 'extended', 'probe', 'scoped', 'close'].includes(k)), // probe: test/carriers/probe.test.ts; scoped: test/observability/carrier-call-labels.test.ts
      ...Object.keys(adapter.extended),
    ];
    expect(methods.filter((m) => !called.has(m))).toEqual([]);
  });

  it.each(cases)('$name', async (c) => {
    server.respondWith(() => c.reply);
    await expect(c.call(adapter)).resolves.toStrictEqual(c.result);
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request!.method).toBe(c.method);
    expect(request!.url).toBe(c.url);
    expect(request!.body).toStrictEqual(c.body);
    expect(request!.headers['x-api-key']).toBe(KEY);
    expect(request!.headers['idempotency-key']).toBe(c.write ? TX : undefined);
    if (c.body !== undefined) expect(request!.headers['content-type']).toMatch(/^application\/json/);
  });

  // Every accepted transaction id (printable ASCII, no space, 1-64) is the Idempotency-Key
  // byte for byte: header values would lose surrounding spaces, so those ids are refused upstream.
  it.each([
    'K1',
    '!',
    'A'.repeat(64),
    `!"#$%&'()*+,-./09:;<=>?@AZ[\\]^_\`az{|}~`,
    'BULK_89010000000000000001_1764000000000',
  ])('sends transaction id %j as the exact Idempotency-Key', async (id) => {
    server.respondWith(() => ACK);
    expect(id).toMatch(TRANSACTION_ID_PATTERN);
    await adapter.suspend({ transactionId: id, mdn: MDN });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers['idempotency-key']).toBe(id);
  });
});
