// Shared pieces of the line-ownership tests: a gateway with two ordinary users on the same
// plans and a superuser, activation through the gateway, and the refusal shapes of both surfaces.

import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { UserRecord } from '../../src/directory/types.js';
import { freshSim } from '../support/lines.js';
import {
  startGateway,
  type GraphQLAnswer,
  type HttpAnswer,
  type TestGateway,
  type TestGatewayOptions,
} from '../support/gateway.js';

export interface Caller {
  user: UserRecord;
  token: string;
}

export interface Line {
  mdn: string;
  sim: string;
}

export const PLANS = ['BASIC', 'PREMIUM', 'TOPUP'];

export async function createPlans(gateway: TestGateway): Promise<void> {
  await gateway.plan({ planId: 'BASIC', name: 'Basic', carrierPlanId: 'BASIC1GB' });
  await gateway.plan({ planId: 'PREMIUM', name: 'Premium', carrierPlanId: 'UNL10GB' });
  await gateway.plan({ planId: 'TOPUP', name: 'Top-up', carrierPlanId: 'TOPUP1GB' });
}

/** A gateway with the plans, two ordinary users authorized for all of them, and a superuser. */
export async function startOwnershipGateway(
  options: TestGatewayOptions = {},
): Promise<{ gateway: TestGateway; a: Caller; b: Caller; admin: Caller }> {
  const gateway = await startGateway(options);
  await createPlans(gateway);
  const a = await gateway.user({ plans: PLANS });
  const b = await gateway.user({ plans: PLANS });
  const admin = await gateway.user({ superuser: true });
  return { gateway, a, b, admin };
}

export const activationBody = (sim = freshSim()) => ({
  sim,
  plan_id: 'BASIC',
  zip_code: '30301',
  address1: '1 Main St',
  city: 'Atlanta',
  state: 'GA',
});

/** Activates a fresh SIM through the gateway as `caller` (carrier 321: the default). */
export async function activate(gateway: TestGateway, caller: Caller): Promise<Line> {
  const answer = await gateway.rest<{ mdn: string; sim: string }>('POST', '/sim/activate/', {
    token: caller.token,
    body: activationBody(),
  });
  expect(answer.status).toBe(200);
  return { mdn: answer.body.mdn, sim: answer.body.sim };
}

export const transactionId = (label: string) => `OWN_${label}_${randomBytes(4).toString('hex')}`;

/** The REST refusal: the spec's failure envelope, 403, naming no user. */
export function expectRestRefusal(answer: HttpAnswer, owner: UserRecord): void {
  expect(answer.status).toBe(403);
  expect(answer.body).toEqual({
    status: 'failure',
    message: expect.stringMatching(/belongs to another user$/),
    code: 'HTTP_403',
  });
  expect(JSON.stringify(answer.body)).not.toContain(owner.name);
  expect(JSON.stringify(answer.body)).not.toContain(owner.id);
}

/** The GraphQL refusal of `field`: no data for it, one FORBIDDEN error naming no user. */
export function expectGraphQLRefusal(answer: GraphQLAnswer, field: string, owner: UserRecord): void {
  expect(answer.data?.[field] ?? null).toBeNull();
  expect(answer.errors).toHaveLength(1);
  expect(answer.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  expect(answer.errors?.[0]?.message).toMatch(/belongs to another user$/);
  expect(JSON.stringify(answer.errors)).not.toContain(owner.name);
  expect(JSON.stringify(answer.errors)).not.toContain(owner.id);
}
