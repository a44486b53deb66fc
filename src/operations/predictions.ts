// The carrier's read-only checks that predict a write's outcome (dry runs), shared by the
// operations that declare `predict`. Each mirrors the order in which the spec's carriers check
// a write (line, then state, then SIM, then device, then ZIP, then plan, then the pool), and
// names the write's own refusal code where the read words it differently.

import { CarrierRejection } from '../carriers/errors.js';
import type { ServiceProfile, SimDetails } from '../carriers/types.js';
import type { PredictionContext } from '../pipeline/operation.js';
import { quote } from '../lib/quote.js';

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
export function predictLineSim({ checks }: Context, profile: ServiceProfile, sim: string | undefined, code: string) {
  if (sim === undefined) return;
  if (sim !== profile.sim) checks.refuse('lineSim', code, 'SIM does not match the subscriber\u2019s current SIM');
  checks.passed('lineSim', 'The SIM named is the line\u2019s');
}

/**
 * A SIM a line would start using (activation, SIM swap, reconnect on another SIM): SIM details
 * and eligibility, and the eSIM profile when only it tells why an available SIM is ineligible.
 */
export async function predictFreshSim(context: Context, iccid: string, inUseCode: '914' | 'GENS-0018') {
  const { carrier, checks } = context;
  // A SIM unknown to the carrier, or not an ICCID, is the write's "Invalid SIM".
  const details: SimDetails = await checks.read(
    'sim',
    () => carrier.getSimDetails(iccid),
    (rejection) => (rejection.code === '910' ? rejection : INVALID_SIM),
  );
  if (details.iccidStatus === 'INUSE') checks.refuse('sim', inUseCode, inUseText(inUseCode));
  if (details.iccidStatus === 'DEACTIVATED')
    checks.refuse('sim', 'GENS-0006', 'Invalid SIM: the SIM has been deactivated');
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
