// Read-only views of SIMs: the eSIM profile (with its QR activation code) and SIM details
// (eligibility, PUKs and dates).

import type { EsimProfile, SimDetails } from '../../carriers/types.js';
import { hexFrom } from './hash.js';
import { reject } from './rejections.js';
import { isActivatable, requireKnownSim } from './sims.js';
import type { CoreContext, SimRecord } from './state.js';
import { carrierTimestamp, isoUtc, isoWithOffset } from './time-format.js';

const SMDP_HOSTS = { '321': 'smdp.carrier321.sandbox.example', carrier_b: 'smdp.carrierb.sandbox.example' } as const;

export function getEsimProfile(ctx: CoreContext, iccid: string): EsimProfile {
  const sim = requireKnownSim(ctx, iccid);
  if (sim.kind !== 'esim') reject('8010');
  if (sim.profileCompleted) reject('8011');
  const matchingId = (hexFrom(`${iccid}:matching`, 20).match(/.{5}/g) ?? []).join('-');
  return {
    sim: sim.iccid,
    activationCode: `LPA:1$${SMDP_HOSTS[ctx.carrier]}$${matchingId}`,
    matchingId,
    profileState: profileState(sim),
    profileType: 'CONSUMER',
    esimBrand: 'SANDBOX',
    lastModified: carrierTimestamp(sim.lastModifiedAt),
  };
}

export function getSimDetails(ctx: CoreContext, iccid: string): SimDetails {
  const sim = requireKnownSim(ctx, iccid);
  return {
    sim: sim.iccid,
    activationEligible: isActivatable(ctx, sim),
    wfcEligible: true,
    puk1: sim.puk1,
    puk2: sim.puk2,
    createDate: isoUtc(sim.createdAt),
    expirationDate: isoWithOffset(sim.expiresAt),
    iccidStatus: sim.status,
  };
}

/** AVAILABLE before activation, RELEASED while it serves a line, DISABLED once retired. */
function profileState(sim: SimRecord): string {
  if (sim.status === 'INUSE') return 'RELEASED';
  if (sim.status === 'DEACTIVATED') return 'DISABLED';
  return 'AVAILABLE';
}
