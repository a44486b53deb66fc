// Moving a line to another SIM (the old one is retired for good) or to another number from
// the pool (the old number is forgotten: 918 from then on).

import type { LineRef, SwapMdnRequest, SwapMdnResult, SwapSimRequest } from '../../carriers/types.js';
import { requireCoveredZip } from './coverage.js';
import { requireKnownDevice } from './devices.js';
import { requireLine, verifySim } from './lines.js';
import { takeMdn } from './mdn-pool.js';
import { reject } from './rejections.js';
import { attachSim, deactivateSim, requireFreshSim } from './sims.js';
import type { CoreContext, LineRecord } from './state.js';
import { recordActivity } from './usage-records.js';

export function swapSim(ctx: CoreContext, request: SwapSimRequest): LineRef {
  const line = requireLine(ctx, request.mdn);
  verifySim(line, request.oldSim, 'GENS-0012');
  if (request.newSim === line.sim) reject('GENS-0018');
  const sim = requireFreshSim(ctx, request.newSim, 'GENS-0018');
  deactivateSim(ctx, line.sim, false);
  attachSim(ctx, sim, line.mdn);
  line.sim = sim.iccid;
  recordActivity(ctx, line);
  return { mdn: line.mdn, sim: line.sim };
}

export function swapMdn(ctx: CoreContext, request: SwapMdnRequest): SwapMdnResult {
  const line = requireLine(ctx, request.mdn);
  verifySim(line, request.sim, '918');
  const imei = request.imei || undefined;
  if (imei !== undefined) requireKnownDevice(imei);
  requireCoveredZip(request.zipCode);
  const newMdn = takeMdn(ctx);
  const oldMdn = line.mdn;
  renumber(ctx, line, newMdn);
  if (imei !== undefined && imei !== line.imei) {
    line.imei = imei;
    line.imeiSince = ctx.clock.now();
  }
  recordActivity(ctx, line);
  return { mdn: oldMdn, newMdn, sim: line.sim };
}

/** Re-keys the line and every reference to its number (SIM, parent, children). */
function renumber(ctx: CoreContext, line: LineRecord, newMdn: string): void {
  const { lines, sims } = ctx.state;
  const oldMdn = line.mdn;
  lines.delete(oldMdn);
  line.mdn = newMdn;
  lines.set(newMdn, line);
  const sim = sims.get(line.sim);
  if (sim) sim.mdn = newMdn;
  const parent = line.parentMdn === null ? undefined : lines.get(line.parentMdn);
  if (parent) parent.childMdns = parent.childMdns.map((mdn) => (mdn === oldMdn ? newMdn : mdn));
  for (const childMdn of line.childMdns) {
    const child = lines.get(childMdn);
    if (child) child.parentMdn = newMdn;
  }
}
