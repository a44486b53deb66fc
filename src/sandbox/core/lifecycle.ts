// The line's life: hotline (suspend) and restore, permanent disconnection, and reconnection
// within the 30-day window.

import {
  SERVICE_SCOPES,
  type DisconnectRequest,
  type LineRef,
  type ReconnectRequest,
  type ReconnectResult,
  type RestoreRequest,
  type SuspendRequest,
} from '../../carriers/types.js';
import { requireCoveredZip } from './coverage.js';
import { detachFamily } from './child-lines.js';
import { findLine, requireLine, verifySim } from './lines.js';
import { requirePlan } from './plans.js';
import { reject } from './rejections.js';
import { attachSim, deactivateSim, requireFreshSim } from './sims.js';
import type { CoreContext, SimRecord } from './state.js';
import { addSubscription, newSubscription } from './subscriptions.js';
import { DAY_MS } from './time-format.js';
import { recordActivity } from './usage-records.js';
import { disableWfc, provisionWfc } from './wfc.js';

/** A disconnected number can come back for this long (inclusive). */
export const RECONNECT_WINDOW_MS = 30 * DAY_MS;

export function suspend(ctx: CoreContext, request: SuspendRequest): void {
  const line = requireLine(ctx, request.mdn);
  if (line.status !== 'ACTIVE' && line.status !== 'NEW') reject('935');
  const hotlineNumber = request.hotlineNumber || null;
  if (hotlineNumber !== null && !/^\d{10}$/.test(hotlineNumber)) reject('GENS-0183');
  line.status = 'SUSPENDED';
  line.hotline = {
    services: request.service ? [request.service] : [...SERVICE_SCOPES],
    number: hotlineNumber,
    chargeable: request.hotlineChargeable ?? false,
    reason: request.reason ?? null,
    since: ctx.clock.now(),
  };
  recordActivity(ctx, line);
}

export function restore(ctx: CoreContext, request: RestoreRequest): void {
  const line = requireLine(ctx, request.mdn);
  const hotline = line.status === 'SUSPENDED' ? line.hotline : null;
  if (!hotline) reject('GENS-0033');
  if (request.service && !hotline.services.includes(request.service)) {
    reject('GENS-0033', `MSISDN is not suspended for ${request.service}`);
  }
  hotline.services = request.service ? hotline.services.filter((service) => service !== request.service) : [];
  if (hotline.services.length === 0) {
    line.hotline = null;
    line.status = 'ACTIVE';
  }
  recordActivity(ctx, line);
}

export function disconnect(ctx: CoreContext, request: DisconnectRequest): LineRef {
  const line = requireLine(ctx, request.mdn);
  verifySim(line, request.sim, 'GENS-0065');
  line.status = 'DISCONNECTED';
  line.disconnectedAt = ctx.clock.now();
  line.hotline = null;
  disableWfc(line);
  for (const subscription of line.subscriptions) subscription.active = false;
  detachFamily(ctx, line);
  // The SIM stays tied to the number so that a reconnection may reuse it.
  deactivateSim(ctx, line.sim, true);
  recordActivity(ctx, line);
  return { mdn: line.mdn, sim: line.sim };
}

export function reconnect(ctx: CoreContext, request: ReconnectRequest): ReconnectResult {
  const line = findLine(ctx, request.mdn);
  if (line.status !== 'DISCONNECTED' || line.disconnectedAt === null) {
    reject('GENS-0147', 'MSISDN ineligible for reactivation: the line is not disconnected');
  }
  if (ctx.clock.now() - line.disconnectedAt > RECONNECT_WINDOW_MS) {
    reject('GENS-0147', 'MSISDN ineligible for reactivation: disconnected more than 30 days ago');
  }
  const ownSim = request.sim === line.sim ? ctx.state.sims.get(line.sim) : undefined;
  const sim: SimRecord = ownSim ?? requireFreshSim(ctx, request.sim, '914');
  requireCoveredZip(request.zipCode);
  const plan = requirePlan(request.carrierPlanId);

  const now = ctx.clock.now();
  if (sim.iccid !== line.sim) deactivateSim(ctx, line.sim, false);
  attachSim(ctx, sim, line.mdn);
  line.sim = sim.iccid;
  line.status = 'ACTIVE';
  line.disconnectedAt = null;
  line.plan = { carrierPlanId: plan.soc, name: plan.name, effectiveAt: now };
  line.billingCode = request.billingCode || 'BC123';
  line.zipCode = request.zipCode.slice(0, 5);
  addSubscription(line, newSubscription(ctx, plan, 'base'));
  const wfc = provisionWfc(ctx, line, request.wfc);
  recordActivity(ctx, line);
  return { mdn: line.mdn, sim: line.sim, ...(wfc ? { wfc } : {}) };
}
