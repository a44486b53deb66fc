// The shape of everything a sandbox carrier remembers, and a fresh (seeded) instance of it.
// Records are internal: callers only ever see copies built by the view functions.

import type {
  BalanceUnit,
  CarrierId,
  CustomerImpactingEvent,
  E911Address,
  LineStatus,
  ServiceScope,
  UsageEvent,
  VoicemailLanguage,
} from '../../carriers/types.js';
import type { SandboxClock } from './clock.js';
import { seedEvents } from './events.js';

export type SimStatus = 'AVAILABLE' | 'INUSE' | 'DEACTIVATED';

export interface SimRecord {
  iccid: string;
  kind: 'physical' | 'esim';
  /** An eSIM whose profile was already downloaded and mapped elsewhere (ICCIDs 89029…). */
  profileCompleted: boolean;
  status: SimStatus;
  /** The line this SIM serves, or served before a disconnection (so that it can reconnect). */
  mdn: string | null;
  puk1: string;
  puk2: string;
  createdAt: number;
  expiresAt: number;
  lastModifiedAt: number;
}

export interface Allowance {
  talkSeconds: number;
  texts: number;
  dataBytes: number;
}

export interface BalanceRecord {
  amount: number;
  validTo: number;
}

export interface SubscriptionRecord {
  /** `SUB…` for the base plan, `PUR…` (the purchase id) for add-ons. */
  id: string;
  kind: 'base' | 'addon';
  planCode: string;
  planName: string;
  active: boolean;
  /** What the plan granted, kept for pool sizes. */
  granted: Allowance;
  validFrom: number;
  balances: Record<BalanceUnit, BalanceRecord>;
}

export interface HotlineRecord {
  /** The services currently hotlined; restoring the last one ends the suspension. */
  services: ServiceScope[];
  number: string | null;
  chargeable: boolean;
  reason: string | null;
  since: number;
}

export interface LineRecord {
  mdn: string;
  sim: string;
  imei: string;
  /** When the current device went on this line (device unlock needs 60 days). */
  imeiSince: number;
  status: LineStatus;
  disconnectedAt: number | null;
  customerId: string;
  accountId: string;
  activatedAt: number;
  plan: { carrierPlanId: string; name: string; effectiveAt: number };
  billingCode: string;
  language: VoicemailLanguage;
  zipCode: string;
  email: string | null;
  voicemailResetAt: number | null;
  deviceLocationCancelledAt: number | null;
  wfc: { enabled: boolean; address: E911Address | null; since: number | null };
  hotline: HotlineRecord | null;
  parentMdn: string | null;
  childMdns: string[];
  subscriptions: SubscriptionRecord[];
  usage: UsageEvent[];
  label: string | null;
  phoneList: { allowed: string[]; blocked: string[] };
  messages: { messageId: string; text: string; sentAt: number }[];
}

export type ReplayEntry = { ok: true; value: unknown } | { ok: false; code: string; text: string };

export interface ActivationCalls {
  /** Every request, a replay of an id already answered included. */
  requests: number;
  /** The distinct transaction ids the SIM was sent under, in arrival order. */
  transactionIds: string[];
}

export interface SandboxState {
  /** The instant the state was created; SIM creation dates and seeded events hang off it. */
  epoch: number;
  lines: Map<string, LineRecord>;
  sims: Map<string, SimRecord>;
  /** Answers already given, by operation and transaction id. */
  replays: Map<string, ReplayEntry>;
  /** Activation requests received per SIM (replays included), for tests that count them. */
  activationCalls: Map<string, ActivationCalls>;
  counters: { mdn: number; customer: number; subscription: number; purchase: number; message: number; usage: number };
  events: CustomerImpactingEvent[];
}

export function createState(epoch: number): SandboxState {
  return {
    epoch,
    lines: new Map(),
    sims: new Map(),
    replays: new Map(),
    activationCalls: new Map(),
    counters: { mdn: 0, customer: 0, subscription: 0, purchase: 0, message: 0, usage: 0 },
    events: seedEvents(epoch),
  };
}

/** What every operation module works on; `state` is replaced wholesale by `reset()`. */
export interface CoreContext {
  readonly carrier: CarrierId;
  readonly maxPurchases: number;
  readonly mdnPoolSize: number;
  readonly clock: SandboxClock;
  state: SandboxState;
}

/** A fixed-width sequence number: `PUR00000001`. */
export function sequenceId(prefix: string, value: number): string {
  return `${prefix}${String(value).padStart(8, '0')}`;
}
