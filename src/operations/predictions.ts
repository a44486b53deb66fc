// The carrier's read-only checks that predict a write's outcome (dry runs), shared by the
// operations that declare `predict`. Each mirrors the order in which the spec's carriers check
// a write (line, then state, then SIM, then device, then ZIP, then plan, then the pool), and
// names the write's own refusal code where the read words it differently.

import { CarrierRejection } from '../carriers/errors.js';
import type { E911Address, E911Validation, ServiceProfile, SimDetails, Subscription } from '../carriers/types.js';
import type { PlanRecord } from '../directory/types.js';
import type { PredictionContext } from '../pipeline/operation.js';
import { quote } from '../lib/quote.js';
import { wfcWarning } from './wfc.js';

type Context = PredictionContext<unknown>;

const INVALID_SIM = new CarrierRejection('GENS-0006', 'Invalid SIM');

/**
 * The line as the carrier knows it (909 foreign, 918 unknown, 915 disconnected: the write's
 * refusals too). `sim`, when the write names the line's SIM, is compared by the caller.
 */
export async function predictLine({ carrier, checks }: Context, mdn: string): Promise<ServiceProfile> {
  const profile = await checks.read('line', () => carrier.getServiceProfile(mdn));
  checks.passed('line', `Line ${mdn} is ${profile.lineStatus}`);
  return profile;
}

/** The write names the line's SIM: refused with `code` (each write has its own) when it is not. */
export function predictLineSim(
  { checks }: Context,
  profile: ServiceProfile,
  sim: string | undefined,
  code: string,
  text = 'SIM does not match the subscriber\u2019s current SIM',
) {
  if (sim === undefined) return;
  if (sim !== profile.sim) checks.refuse('lineSim', code, text);
  checks.passed('lineSim', 'The SIM named is the line\u2019s');
}

/**
 * A SIM a line would start using (activation, SIM swap, reconnect on another SIM): SIM details
 * and eligibility, and the eSIM profile when only it tells why an available SIM is ineligible.
 */
export async function predictFreshSim(
  context: Context,
  iccid: string,
  inUseCode: '914' | 'GENS-0018',
  /** Reconnect of a line the gateway never saw: a deactivated SIM may be the line's own. */
  { retiredMayBeOwn = false }: { retiredMayBeOwn?: boolean } = {},
) {
  const { carrier, checks } = context;
  // A SIM unknown to the carrier, or not an ICCID, is the write's "Invalid SIM".
  const details: SimDetails = await checks.read(
    'sim',
    () => carrier.getSimDetails(iccid),
    (rejection) => (rejection.code === '910' ? rejection : INVALID_SIM),
  );
  if (details.iccidStatus === 'INUSE') checks.refuse('sim', inUseCode, inUseText(inUseCode));
  if (details.iccidStatus === 'DEACTIVATED') {
    if (retiredMayBeOwn) {
      checks.passed('sim', `SIM ${quote(iccid, 25)} is DEACTIVATED`);
      checks.cannotPredict(
        'Whether the deactivated SIM named is the disconnected line\u2019s own (this gateway has not seen the line): else GENS-0006',
      );
      return;
    }
    checks.refuse('sim', 'GENS-0006', 'Invalid SIM: the SIM has been deactivated');
  }
  if (!details.activationEligible) {
    // Available but ineligible: an eSIM whose profile is already mapped (8011), else expired.
    await checks.read(
      'esimProfile',
      () => carrier.getEsimProfile(iccid),
      (rejection) => (rejection.code === '8011' ? rejection : new CarrierRejection('GENS-0197', 'SIM has expired')),
    );
    checks.refuse('sim', 'GENS-0197', 'SIM has expired');
  }
  checks.passed('sim', `SIM ${quote(iccid, 25)} is ${details.iccidStatus ?? 'known'} and eligible`);
}

const inUseText = (code: '914' | 'GENS-0018') =>
  code === '914' ? 'ESN already active with another MDN' : 'SIM is already in use';

/** An eSIM activation needs an eSIM (GENS-0030) and an email (GENS-0031). */
export async function predictEsim(context: Context, iccid: string, email: string | undefined) {
  const { carrier, checks } = context;
  await checks.read(
    'esim',
    () => carrier.getEsimProfile(iccid),
    (rejection) => (rejection.code === '8010' ? new CarrierRejection('GENS-0030', 'ICCID is not an eSIM') : rejection),
  );
  if (!email) checks.refuse('esim', 'GENS-0031', 'Email address is required for eSIM activation');
  checks.passed('esim', 'The SIM is an eSIM with an available profile, and an email is given');
}

/** ZIP coverage: an invalid ZIP is 510 on the write too; a valid uncovered one is GENS-0289. */
export async function predictCoveredZip({ carrier, checks }: Context, zipCode: string) {
  const coverage = await checks.read('zipCoverage', () => carrier.getCoverage(zipCode));
  if (!coverage.covered) checks.refuse('zipCoverage', 'GENS-0289', 'Service is not available in this zip code');
  checks.passed('zipCoverage', `ZIP ${quote(zipCode, 10)} is covered`);
}

/** What no read-only call of the contract tells about a new base plan and a new number. */
export function cannotPredictPlanAndPool({ checks }: Context, carrierPlanId: string) {
  checks.cannotPredict(
    `Whether the carrier still offers plan code ${quote(carrierPlanId, 32)} (906)`,
    'Whether the carrier’s number pool has a number left (GENS-0011)',
  );
}

/** A write that sets the E911 address (addWfc, updateE911Address) is refused for an invalid one. */
export async function predictValidE911({ carrier, checks }: Context, address: E911Address) {
  const validation = await checks.read('e911Address', () => carrier.validateE911Address(address));
  if (!validation.valid) checks.refuse('e911Address', validation.failure.code, validation.failure.text);
  checks.passed('e911Address', 'The carrier accepts the E911 address');
}

/**
 * A plan-bearing write on a WFC plan (activation, reconnect, plan change, purchase) adds Wi-Fi
 * Calling with the caller's E911 address; an address the carrier refuses (or none) fails WFC
 * only, and the call succeeds with the warning `what` names.
 */
export async function predictWfc(context: Context, plan: PlanRecord, address: E911Address | null, what: string) {
  if (!plan.wfc) return;
  const { carrier, checks } = context;
  const validation: E911Validation =
    address === null
      ? { valid: false, failure: { code: 'GENS-0090', text: 'Invalid E911 address: no address supplied' } }
      : await checks.read('e911Address', () => carrier.validateE911Address(address));
  if (validation.valid) {
    checks.passed('e911Address', `Plan ${quote(plan.planId)} adds Wi-Fi Calling; the carrier accepts the E911 address`);
    return;
  }
  const { warning } = wfcWarning(what, { provisioned: false, failure: validation.failure });
  checks.warn('e911Address', `${validation.failure.text} (${validation.failure.code})`, warning ?? what);
}

/** A write that names a device (MDN swap): an unknown IMEI is the write's 506 too. */
export async function predictKnownDevice({ carrier, checks }: Context, imei: string) {
  const device = await checks.read('device', () => carrier.getDevice(imei));
  checks.passed(
    'device',
    `Device ${quote(imei, 15)} is known (${device.marketingName ?? device.model ?? 'model not named'})`,
  );
}

/**
 * The subscription a balance adjustment names must be one of the line's active ones (919),
 * and a deduction must leave its balance of that unit at zero or more (920).
 */
export function predictAdjustments(
  { checks }: Context,
  subscriptions: readonly Subscription[],
  adjustments: readonly { subscriptionId: string; uom: string; amount: number }[],
) {
  const planned = new Map<string, number>();
  for (const { subscriptionId, uom, amount } of adjustments) {
    const subscription =
      subscriptions.find((candidate) => candidate.purchaseId === subscriptionId) ??
      checks.refuse('subscription', '919', 'Invalid subscription id');
    const key = `${subscriptionId}\u0000${uom}`;
    const current = planned.get(key) ?? subscription.balances.find((balance) => balance.uom === uom)?.balance ?? 0;
    if (current + amount < 0) checks.refuse('balance', '920', 'Insufficient balance for the requested deduction');
    planned.set(key, current + amount);
  }
  checks.passed('subscription', 'Each subscription named is an active one of the line');
  checks.passed('balance', 'No balance would fall below zero');
}

const isRejection = (error: unknown, code?: string): error is CarrierRejection =>
  error instanceof CarrierRejection && (code === undefined || error.code === code);

/**
 * Reconnection: the number must be disconnected (a read of a disconnected line is its 915),
 * and not for more than 30 days, which no read shows.
 */
export async function predictDisconnectedLine({ carrier, checks }: Context, mdn: string) {
  let status: string;
  try {
    status = (await carrier.getServiceProfile(mdn)).lineStatus;
  } catch (error) {
    if (isRejection(error, '915')) {
      checks.passed('line', `Line ${mdn} is disconnected`);
      checks.cannotPredict('Whether the line was disconnected more than 30 days ago (GENS-0147)');
      return;
    }
    if (isRejection(error)) return checks.refuse('line', error.code, error.text);
    throw error;
  }
  checks.refuse('line', 'GENS-0147', `MSISDN ineligible for reactivation: the line is ${status}, not disconnected`);
}

/** Reconnection on the line's own SIM (as this gateway last saw it), or on a fresh one. */
export async function predictReconnectSim(context: Context, mdn: string, iccid: string) {
  const home = await context.request.lineHomes.load(mdn);
  if (home?.sim === iccid) {
    context.checks.passed('sim', 'The line\u2019s own SIM');
    return;
  }
  await predictFreshSim(context, iccid, '914', { retiredMayBeOwn: home === null });
}

/** What no read-only call of the contract tells about a plan code (906). */
export function cannotPredictPlanCode({ checks }: Context, carrierPlanId: string) {
  checks.cannotPredict(`Whether the carrier still offers plan code ${quote(carrierPlanId, 32)} (906)`);
}
