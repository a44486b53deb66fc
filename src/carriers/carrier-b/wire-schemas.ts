// zod schemas for everything the adapter reads from carrier_b: the answer envelope and each
// method's `result`. Anything that does not match is a bad_response, never half-parsed data.

import { z } from 'zod';

/** Latest instant whose ISO form still has a four-digit year; later ones are not timestamps. */
const MAX_EPOCH_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
export const epochMs = z.number().int().min(0).max(MAX_EPOCH_MS);

const text = z.string();
const count = z.number().finite();

export const faultCode = z.union([z.number().int().nonnegative(), z.string().min(1)]);

/** The answer envelope; exactly one of result or fault is checked by the RPC client. */
export const answerEnvelope = z.object({
  requestId: z.string().nullable(),
  result: z.record(z.string(), z.unknown()).optional(),
  fault: z.object({ faultCode, faultString: text }).optional(),
});

export const WIRE_SUBSCRIBER_STATES = ['pending', 'live', 'barred', 'ceased'] as const;
export type WireSubscriberState = (typeof WIRE_SUBSCRIBER_STATES)[number];
const subscriberState = z.enum(WIRE_SUBSCRIBER_STATES);

export const address = z.object({ line1: text, line2: text.optional(), town: text, stateCode: text, postCode: text });
export type WireAddress = z.input<typeof address>;

export const wifiCallingOutcome = z.discriminatedUnion('provisioned', [
  z.object({ provisioned: z.literal(true) }),
  z.object({ provisioned: z.literal(false), faultCode, faultString: text }),
]);
export type WireWifiCallingOutcome = z.output<typeof wifiCallingOutcome>;

// ---------------------------------------------------------------- results of writes

export const accepted = z.object({ msisdn: text, accepted: z.literal(true) });
export const familyAccepted = z.object({ ownerMsisdn: text, accepted: z.literal(true) });
export const lineRef = z.object({ msisdn: text, iccid: text });
export const lineRefWithWifiCalling = lineRef.extend({ wifiCalling: wifiCallingOutcome.optional() });
export const planChanged = z.object({ msisdn: text, wifiCalling: wifiCallingOutcome.optional() });
export const numberChanged = z.object({ previousMsisdn: text, msisdn: text, iccid: text });
export const addonOrder = z.object({ msisdn: text, orderId: text });
export const addonPurchase = addonOrder.extend({ wifiCalling: wifiCallingOutcome.optional() });
export const activated = lineRefWithWifiCalling.extend({ customerRef: text });

// ---------------------------------------------------------------- results of queries

const allowances = z.object({ voiceMinutes: count, smsCount: count, dataBytes: count });

const bundle = z.object({
  bundleId: text,
  tariffCode: text,
  tariffName: text,
  buckets: z.array(z.object({ unit: text, remaining: count, startsAt: epochMs, endsAt: epochMs })),
});

export const usage = z.object({
  msisdn: text,
  iccid: text,
  subscriberState,
  customerRef: text,
  tariffName: text,
  tariffSince: epochMs,
  allowances,
  bundles: z.array(bundle),
});

export const profile = z.object({
  msisdn: text,
  iccid: text,
  imei: text,
  subscriberState,
  tariffName: text,
  tariffSince: epochMs,
  billingDay: z.number().int().min(1).max(31),
  features: z.array(z.object({ featureCode: text, activeFrom: epochMs })),
  allowances,
  bundles: z.array(bundle),
  emergencyAddress: address.nullable(),
  hotlineStatus: text.nullable(),
  hotlineRedirect: text.nullable(),
});

export const usageRecords = z.object({
  msisdn: text,
  records: z.array(
    z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('call'), seconds: count, at: epochMs, calledParty: text }),
      z.object({ kind: z.literal('data'), octets: count, at: epochMs }),
      z.object({ kind: z.literal('sms'), messages: count, at: epochMs, calledParty: text }),
    ]),
  ),
});

export const coverage = z.object({
  postCode: text,
  covered: z.boolean(),
  areas: z.array(z.object({ town: text, stateCode: text, postCode: text, signal: text })),
});

export const device = z.object({
  imei: text,
  compatible: z.boolean(),
  radio: text.nullable(),
  simType: text.nullable(),
  simSize: text.nullable(),
  model: text.nullable(),
  maker: text.nullable(),
  marketingName: text.nullable(),
  os: text.nullable(),
  capabilities: z.object({ esim: z.boolean(), volte: z.boolean(), wifiCalling: z.boolean() }),
  networkCertified: z.boolean(),
});

export const hlrStatus = z.object({
  msisdn: text,
  iccid: text,
  imei: text,
  imsi: text,
  subscriberState,
  simState: text,
  featureCodes: z.array(text),
});

export const esimProfile = z.object({
  iccid: text,
  activationCode: text,
  matchingId: text,
  profileState: text,
  profileType: text,
  brand: text,
  updatedAt: epochMs,
});

export const simDetails = z.object({
  iccid: text,
  canActivate: z.boolean(),
  canUseWifiCalling: z.boolean(),
  puk1: text.nullable(),
  puk2: text.nullable(),
  createdAt: epochMs.nullable(),
  expiresAt: epochMs.nullable(),
  iccidState: text.nullable(),
});
