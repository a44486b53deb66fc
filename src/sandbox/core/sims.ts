// SIM inventory. Every well-formed 8901… (physical) and 8902… (eSIM) ICCID exists on demand,
// AVAILABLE until activated; activation makes it INUSE, a swap or disconnection DEACTIVATED.

import { between, digitsFrom } from './hash.js';
import { reject } from './rejections.js';
import type { CoreContext, SimRecord } from './state.js';
import { classifyIccid } from './test-values.js';
import { DAY_MS } from './time-format.js';

/** SIMs were manufactured up to a year before the sandbox started, and last three years. */
const SHELF_LIFE_MS = 3 * 365 * DAY_MS;

/** The inventory record for an ICCID this carrier knows, created on first touch; else null. */
export function lookupSim(ctx: CoreContext, iccid: string): SimRecord | null {
  const existing = ctx.state.sims.get(iccid);
  if (existing) return existing;
  const kind = classifyIccid(iccid);
  if (kind !== 'physical' && kind !== 'esim' && kind !== 'esim-completed') return null;
  const createdAt = ctx.state.epoch - between(1, 365, `${iccid}:age`) * DAY_MS;
  const sim: SimRecord = {
    iccid,
    kind: kind === 'physical' ? 'physical' : 'esim',
    profileCompleted: kind === 'esim-completed',
    status: 'AVAILABLE',
    mdn: null,
    puk1: digitsFrom(`${iccid}:puk1`, 8),
    puk2: digitsFrom(`${iccid}:puk2`, 8),
    createdAt,
    expiresAt: createdAt + SHELF_LIFE_MS,
    lastModifiedAt: createdAt,
  };
  ctx.state.sims.set(iccid, sim);
  return sim;
}

/** For SIM queries: 506 for a non-ICCID, 910 for another MVNO's SIM, 918 for an unknown one. */
export function requireKnownSim(ctx: CoreContext, iccid: string): SimRecord {
  const kind = classifyIccid(iccid);
  if (kind === 'invalid') reject('506');
  if (kind === 'foreign') reject('910');
  return lookupSim(ctx, iccid) ?? reject('918');
}

export function isExpired(ctx: CoreContext, sim: SimRecord): boolean {
  return ctx.clock.now() > sim.expiresAt;
}

/** Whether an activation with this SIM would pass the SIM checks. */
export function isActivatable(ctx: CoreContext, sim: SimRecord): boolean {
  return sim.status === 'AVAILABLE' && !sim.profileCompleted && !isExpired(ctx, sim);
}

/**
 * A SIM that a line may start using (activation, swap, reconnect on a new SIM). `inUseCode`
 * is what each operation says about a SIM already serving a line.
 */
export function requireFreshSim(ctx: CoreContext, iccid: string, inUseCode: '914' | 'GENS-0018'): SimRecord {
  if (classifyIccid(iccid) === 'foreign') reject('910');
  const sim = lookupSim(ctx, iccid) ?? reject('GENS-0006');
  if (sim.profileCompleted) reject('8011');
  if (sim.status === 'INUSE') reject(inUseCode);
  if (sim.status === 'DEACTIVATED') reject('GENS-0006', 'Invalid SIM: the SIM has been deactivated');
  if (isExpired(ctx, sim)) reject('GENS-0197');
  return sim;
}

export function attachSim(ctx: CoreContext, sim: SimRecord, mdn: string): void {
  sim.status = 'INUSE';
  sim.mdn = mdn;
  sim.lastModifiedAt = ctx.clock.now();
}

/** The SIM can never serve again; `keepLink` leaves it tied to its line for a reconnect. */
export function deactivateSim(ctx: CoreContext, iccid: string, keepLink: boolean): void {
  const sim = ctx.state.sims.get(iccid);
  if (!sim) return;
  sim.status = 'DEACTIVATED';
  if (!keepLink) sim.mdn = null;
  sim.lastModifiedAt = ctx.clock.now();
}
