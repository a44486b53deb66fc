// The sandbox side of carrier 321's wire format: domain results written the way the carrier
// answers, wire requests read back into domain requests, and the carrier's error body.
// Written independently of the adapter's codec on purpose: the sandbox plays the carrier.

import { z } from 'zod';
import { CarrierRejection } from '../../carriers/errors.js';
import type {
  BalanceDetails,
  E911Address,
  LineStatus,
  PhoneListAction,
  ServiceScope,
  Subscription,
  VoicemailLanguage,
  WfcOutcome,
  WfcRequest,
} from '../../carriers/types.js';
import { SandboxBadRequest, SandboxNotFound, type JsonReply } from '../http-kit.js';

// ---------------------------------------------------------------- times and enumerations

const DOMAIN_TIMESTAMP = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/;

/** The core's `YYYY-MM-DD HH:MM:SS` (UTC) as the ISO 8601 the carrier speaks. */
export function isoTimestamp(value: string): string {
  const match = DOMAIN_TIMESTAMP.exec(value);
  if (match) return `${match[1]}T${match[2]}Z`;
  if (!Number.isNaN(Date.parse(value)) && value.includes('T')) return value;
  throw new Error(`Not a carrier timestamp: ${value}`);
}

const STATES: Record<LineStatus, string> = {
  NEW: 'pending',
  ACTIVE: 'active',
  SUSPENDED: 'hotlined',
  DISCONNECTED: 'deactivated',
};

export function wireState(status: LineStatus): string {
  return STATES[status];
}

const SCOPES = { voice: 'VOICE', sms: 'SMS', data: 'DATA' } as const satisfies Record<string, ServiceScope>;

export const wireScope = z.enum(['voice', 'sms', 'data']).transform((scope) => SCOPES[scope]);

export const wireLanguage = z
  .enum(['en-US', 'es-US'])
  .transform((language): VoicemailLanguage => (language === 'en-US' ? 'ENGL' : 'SPAN'));

export const wireUnit = z.enum(['SECOND', 'EVENT', 'BYTE']);

const PHONE_LIST_ACTIONS = {
  allow: 'add',
  disallow: 'remove',
  block: 'block',
  unblock: 'unblock',
} as const satisfies Record<string, PhoneListAction>;

export const wirePhoneListOperation = z
  .enum(['allow', 'disallow', 'block', 'unblock'])
  .transform((operation) => PHONE_LIST_ACTIONS[operation]);

// ---------------------------------------------------------------- addresses and WFC

export const wireE911 = z
  .object({
    street1: z.string(),
    street2: z.string().nullish(),
    city: z.string(),
    region: z.string(),
    postal_code: z.string(),
  })
  .transform((w): E911Address => ({
    address1: w.street1,
    ...(w.street2 == null ? {} : { address2: w.street2 }),
    city: w.city,
    state: w.region,
    zipCode: w.postal_code,
  }));

export function e911ToWire(address: E911Address): Record<string, string | null> {
  return {
    street1: address.address1,
    street2: address.address2 ?? null,
    city: address.city,
    region: address.state,
    postal_code: address.zipCode,
  };
}

/** `wfc` on plan-bearing requests: present for WFC plans, `e911` null when none was given. */
export const wireWfcRequest = z
  .object({ e911: wireE911.nullable() })
  .transform((w): WfcRequest => ({ address: w.e911 }));

export function wfcToWire(outcome: WfcOutcome | undefined): { wfc?: unknown } {
  if (outcome === undefined) return {};
  return outcome.provisioned
    ? { wfc: { provisioned: true } }
    : { wfc: { provisioned: false, error: { code: outcome.failure.code, description: outcome.failure.text } } };
}

// ---------------------------------------------------------------- balances

export function balanceSummaryToWire(details: BalanceDetails): Record<string, number> {
  return { voice_minutes: details.talk, sms_count: details.text, data_bytes: details.data };
}

export function subscriptionToWire(subscription: Subscription): Record<string, unknown> {
  return {
    purchase_ref: subscription.purchaseId,
    soc: subscription.planCode,
    name: subscription.planName,
    buckets: subscription.balances.map((b) => ({
      unit: b.uom,
      remaining: b.balance,
      valid_from: isoTimestamp(b.validFrom),
      valid_until: isoTimestamp(b.validTo),
    })),
  };
}

/** The answer to writes that have nothing else to say. */
export function ack(msisdn: string): Record<string, string> {
  return { msisdn, outcome: 'completed' };
}

// ---------------------------------------------------------------- errors

const NOT_FOUND = new Set(['918', '506']);
const CONFLICT = new Set(['914', '916', '969', 'GENS-0010', 'GENS-0018']);

function errorReply(status: number, code: string, description: string): JsonReply {
  return { status, body: { error: { code, description } } };
}

/** A rejection's HTTP status says what kind of refusal it is; the code says which. */
export function renderWireError(error: unknown): JsonReply {
  if (error instanceof CarrierRejection) {
    const status = NOT_FOUND.has(error.code) ? 404 : CONFLICT.has(error.code) ? 409 : 422;
    return errorReply(status, error.code, error.text);
  }
  if (error instanceof SandboxBadRequest) return errorReply(400, 'API-400', error.message);
  if (error instanceof SandboxNotFound) return errorReply(404, 'API-404', error.message);
  return errorReply(500, 'API-500', 'Internal server error');
}

export function unauthenticatedReply(): JsonReply {
  return {
    status: 401,
    body: { auth_error: { reason: 'invalid_api_key', description: 'A valid X-Api-Key header is required' } },
  };
}
