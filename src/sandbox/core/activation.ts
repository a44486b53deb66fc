// Activation: a fresh SIM, a covered ZIP and an active plan become an ACTIVE line with the
// next MDN of the pool, a new customer and account, and a base subscription on the plan.

import type { ActivateRequest, ActivateResult } from '../../carriers/types.js';
import { requireCoveredZip } from './coverage.js';
import { imeiForSim } from './devices.js';
import { takeMdn } from './mdn-pool.js';
import { requirePlan } from './plans.js';
import { reject } from './rejections.js';
import { attachSim, requireFreshSim } from './sims.js';
import { sequenceId, type CoreContext, type LineRecord } from './state.js';
import { newSubscription } from './subscriptions.js';
import { recordActivity } from './usage-records.js';
import { provisionWfc } from './wfc.js';

export function activate(ctx: CoreContext, request: ActivateRequest): ActivateResult {
  // Every check comes before the first change, so a refusal leaves no trace (and no MDN used).
  const sim = requireFreshSim(ctx, request.sim, '914');
  if (request.isEsim && sim.kind !== 'esim') reject('GENS-0030');
  if (request.isEsim && !request.email) reject('GENS-0031');
  requireCoveredZip(request.zipCode);
  const plan = requirePlan(request.carrierPlanId);
  const mdn = takeMdn(ctx);

  const now = ctx.clock.now();
  const customer = ++ctx.state.counters.customer;
  const line: LineRecord = {
    mdn,
    sim: sim.iccid,
    imei: imeiForSim(sim.iccid),
    imeiSince: now,
    status: 'ACTIVE',
    disconnectedAt: null,
    customerId: sequenceId('CUST', customer),
    accountId: sequenceId('ACCT', customer),
    activatedAt: now,
    plan: { carrierPlanId: plan.soc, name: plan.name, effectiveAt: now },
    billingCode: request.billingCode || 'BC123',
    language: request.language,
    zipCode: request.zipCode.slice(0, 5),
    email: request.email ?? null,
    voicemailResetAt: null,
    deviceLocationCancelledAt: null,
    wfc: { enabled: false, address: null, since: null },
    hotline: null,
    parentMdn: null,
    childMdns: [],
    subscriptions: [newSubscription(ctx, plan, 'base')],
    usage: [],
    label: null,
    phoneList: { allowed: [], blocked: [] },
    messages: [],
  };
  attachSim(ctx, sim, mdn);
  ctx.state.lines.set(mdn, line);
  const wfc = provisionWfc(ctx, line, request.wfc);
  recordActivity(ctx, line, 3);
  return { mdn, sim: sim.iccid, customerId: line.customerId, ...(wfc ? { wfc } : {}) };
}
