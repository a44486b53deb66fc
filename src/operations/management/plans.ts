// Superuser management of plans: the spec's "plan management interface" whose body accepts
// `carrier` (321, carrier_b or null).

import { z } from 'zod';
import { NotFoundError } from '../../errors/gateway-errors.js';
import { DirectoryError } from '../../directory/types.js';
import { quote } from '../../lib/quote.js';
import { defineOperation } from '../define.js';
import { plan, planFields, planId } from './schemas.js';

export const plans = defineOperation({
  name: 'plans',
  kind: 'query',
  description: 'Every plan (superuser only)',
  input: z.object({}),
  output: z.array(plan),
  superuserOnly: true,
  routing: 'none',
  handle: async ({ services }) => ({ status: 200, body: await services.directory.listPlans() }),
});

export const createPlan = defineOperation({
  name: 'createPlan',
  kind: 'mutation',
  description: 'Creates a plan (superuser only)',
  input: z.object({ planId, ...planFields }),
  output: plan,
  superuserOnly: true,
  routing: 'none',
  // Dry run: refused as the call would be when the plan_id is taken; else the plan it would create.
  predict: async ({ services, input, checks }) => {
    if (await services.directory.plan(input.planId))
      throw new DirectoryError('conflict', `A plan with plan_id ${JSON.stringify(quote(input.planId))} already exists`);
    checks.passed('planId', 'No plan has this plan_id yet');
    return {
      planId: input.planId,
      name: input.name,
      carrierPlanId: input.carrierPlanId,
      carrier: input.carrier ?? null,
      description: input.description ?? '',
      price: input.price ?? 0,
      wfc: input.wfc ?? false,
    };
  },
  handle: async ({ services, input }) => ({ status: 200, body: await services.directory.createPlan(input) }),
});

export const updatePlan = defineOperation({
  name: 'updatePlan',
  kind: 'mutation',
  description: 'Changes a plan; carrier null = use the system default (superuser only)',
  input: z.object({
    planId,
    name: planFields.name.optional(),
    carrierPlanId: planFields.carrierPlanId.optional(),
    carrier: planFields.carrier,
    description: planFields.description,
    price: planFields.price,
    wfc: planFields.wfc,
  }),
  output: plan,
  superuserOnly: true,
  routing: 'none',
  // Dry run: the plan as the change would leave it (an unknown plan_id is refused as the call is).
  predict: async ({ services, input: { planId: id, ...changes }, checks }) => {
    const existing = await services.directory.plan(id);
    if (!existing) throw new NotFoundError(`No plan with plan_id ${JSON.stringify(quote(id))}`);
    checks.passed('plan', 'The plan exists');
    const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    return { ...existing, ...defined };
  },
  handle: async ({ services, input: { planId: id, ...changes } }) => ({
    status: 200,
    body: await services.directory.updatePlan(id, changes),
  }),
});
