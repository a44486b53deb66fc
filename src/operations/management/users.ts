// Superuser management of users (GraphQL; the CLI does the same through Directory).

import { z } from 'zod';
import { NotFoundError } from '../../errors/gateway-errors.js';
import { DirectoryError } from '../../directory/types.js';
import { quote } from '../../lib/quote.js';
import { defineOperation } from '../define.js';
import { capped, MAX_LENGTH } from '../schemas/fields.js';
import { carrierId, plan, user, userName } from './schemas.js';

export const users = defineOperation({
  name: 'users',
  kind: 'query',
  description: 'Every API user (superuser only)',
  input: z.object({}),
  output: z.array(user),
  superuserOnly: true,
  routing: 'none',
  handle: async ({ services }) => ({ status: 200, body: await services.directory.listUsers() }),
});

export const createUser = defineOperation({
  name: 'createUser',
  kind: 'mutation',
  description: 'Creates an API user (superuser only)',
  input: z.object({
    name: userName,
    superuser: z.boolean().optional().describe('May call superuser-only operations'),
    carrierPreference: carrierId.optional().describe('Fallback carrier when a plan has none'),
  }),
  output: user,
  superuserOnly: true,
  routing: 'none',
  handle: async ({ services, input }) => ({ status: 200, body: await services.directory.createUser(input) }),
  // Dry run: refused as the call would be when the name is taken; else the user it would create
  // (its id is made at creation: empty here).
  predict: async ({ services, input, checks }) => {
    const taken = await services.directory.userByName(input.name).then(
      () => true,
      (error: unknown) => (error instanceof NotFoundError ? false : Promise.reject(error)),
    );
    if (taken) throw new DirectoryError('conflict', `A user named ${JSON.stringify(quote(input.name))} already exists`);
    checks.passed('userName', 'No user has this name yet');
    return {
      id: '',
      name: input.name,
      superuser: input.superuser ?? false,
      carrierPreference: input.carrierPreference ?? null,
      active: true,
    };
  },
});

export const updateUser = defineOperation({
  name: 'updateUser',
  kind: 'mutation',
  description: 'Changes a user: superuser flag, carrier preference (null clears it), active (superuser only)',
  input: z.object({
    name: userName,
    superuser: z.boolean().optional().describe('May call superuser-only operations'),
    carrierPreference: carrierId
      .nullable()
      .optional()
      .describe('Fallback carrier when a plan has none; null clears it'),
    active: z.boolean().optional().describe('false deactivates the user: every token stops working'),
  }),
  output: user,
  superuserOnly: true,
  routing: 'none',
  handle: async ({ services, input: { name, ...changes } }) => ({
    status: 200,
    body: await services.directory.updateUser(name, changes),
  }),
  // Dry run: the user as the change would leave it (an unknown name is refused as the call is).
  predict: async ({ services, input: { name, ...changes }, checks }) => {
    const existing = await services.directory.userByName(name);
    checks.passed('user', 'The user exists');
    return { ...existing, ...changes };
  },
});

const MAX_PLANS_PER_CALL = 100;

const authorizationInput = z.object({
  user: userName.describe('User name'),
  planIds: z
    .array(capped('plan_ids', MAX_LENGTH.planId).min(1))
    .min(1, 'plan_ids must name at least one plan')
    .max(MAX_PLANS_PER_CALL, `plan_ids must name at most ${MAX_PLANS_PER_CALL} plans`)
    .describe(`Plan identifiers, 1 to ${MAX_PLANS_PER_CALL}`),
});

export const authorizePlans = defineOperation({
  name: 'authorizePlans',
  kind: 'mutation',
  description: "Adds plans to a user's authorized plans; answers the user's plans (superuser only)",
  input: authorizationInput,
  output: z.array(plan),
  superuserOnly: true,
  routing: 'none',
  // Dry run: the user and every plan named exist (else the call's refusal); the user's plans as
  // they would be.
  predict: async ({ services, input, checks }) => {
    const user = await services.directory.userByName(input.user);
    checks.passed('user', 'The user exists');
    const named = await Promise.all(input.planIds.map((planId) => services.directory.plan(planId)));
    const missing = input.planIds.filter((_, index) => named[index] === null);
    if (missing.length > 0)
      throw new NotFoundError(`No plan with plan_id ${quote(missing.map((id) => JSON.stringify(id)).join(', '), 256)}`);
    checks.passed('plans', 'Every plan named exists');
    const plans = new Map((await services.directory.authorizedPlans(user.id)).map((plan) => [plan.planId, plan]));
    for (const plan of named) if (plan) plans.set(plan.planId, plan);
    return [...plans.values()].sort((a, b) => (a.planId < b.planId ? -1 : a.planId > b.planId ? 1 : 0));
  },
  handle: async ({ services, input }) => ({
    status: 200,
    body: await services.directory.authorize(input.user, input.planIds),
  }),
});

export const deauthorizePlans = defineOperation({
  name: 'deauthorizePlans',
  kind: 'mutation',
  description: "Removes plans from a user's authorized plans; answers the user's plans (superuser only)",
  input: authorizationInput,
  output: z.array(plan),
  superuserOnly: true,
  routing: 'none',
  // Dry run: the user exists (else the call's refusal); the user's plans as they would be (plans
  // named that the user does not have are left alone, as the call leaves them).
  predict: async ({ services, input, checks }) => {
    const user = await services.directory.userByName(input.user);
    checks.passed('user', 'The user exists');
    const removed = new Set(input.planIds);
    return (await services.directory.authorizedPlans(user.id)).filter((plan) => !removed.has(plan.planId));
  },
  handle: async ({ services, input }) => ({
    status: 200,
    body: await services.directory.deauthorize(input.user, input.planIds),
  }),
});
