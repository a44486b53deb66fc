// Superuser management of plans: the spec's "plan management interface" whose body accepts
// `carrier` (321, carrier_b or null).

import { z } from 'zod';
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
  handle: async ({ services, input: { planId: id, ...changes } }) => ({
    status: 200,
    body: await services.directory.updatePlan(id, changes),
  }),
});
