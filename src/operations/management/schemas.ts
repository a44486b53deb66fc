// Shapes of the management interface (users, plans, tokens), which the spec leaves to us.

import { z } from 'zod';
import { CARRIER_IDS } from '../../carriers/types.js';
import { matching, MAX_LENGTH } from '../schemas/fields.js';

/** A plan's price is a monthly amount; anything above this is a typing error, not a plan. */
const MAX_PLAN_PRICE = 1_000_000;

export const carrierId = z.enum(CARRIER_IDS, { error: 'carrier must be 321 or carrier_b' }).meta({
  id: 'CarrierId',
  description: 'Carrier identifier: 321 or carrier_b',
  graphqlNames: { '321': 'CARRIER_321', carrier_b: 'CARRIER_B' },
});

export const userName = matching(
  /^[A-Za-z0-9_.@-]{1,64}$/,
  64,
  'name must be 1 to 64 letters, digits or _ . @ -',
).describe('Unique user name');
export const planId = matching(
  /^[A-Za-z0-9_.-]{1,64}$/,
  MAX_LENGTH.planId,
  'plan_id must be 1 to 64 letters, digits or _ . -',
).describe('Plan identifier callers send as plan_id');

export const user = z
  .object({
    id: z.string().describe('User id (the subject of its tokens)'),
    name: z.string().describe('Unique user name'),
    superuser: z.boolean().describe('May call superuser-only operations'),
    carrierPreference: carrierId.nullable().describe('Fallback carrier when a plan has none'),
    active: z.boolean().describe('Deactivated users are refused (401)'),
  })
  .meta({ id: 'User', description: 'An API user' });

export const plan = z
  .object({
    planId: z.string().describe('Plan identifier callers send as plan_id'),
    name: z.string().describe('Plan name'),
    carrierPlanId: z.string().describe("The carrier's plan code (SOC)"),
    carrier: carrierId.nullable().describe('Carrier of the plan; null = the user preference, else default_carrier'),
    description: z.string().describe('Description'),
    price: z.number().describe('Price'),
    wfc: z
      .boolean()
      .describe('Wi-Fi Calling plan: activation, reconnect and plan change try to add WFC with the E911 address'),
  })
  .meta({ id: 'Plan', description: 'A plan callers can be authorized for' });

export const planFields = {
  name: z.string().min(1).max(200).describe('Plan name, 1 to 200 characters'),
  carrierPlanId: matching(
    /^[A-Za-z0-9_.-]{1,64}$/,
    64,
    'carrier_plan_id must be 1 to 64 letters, digits or _ . -',
  ).describe("The carrier's plan code (SOC)"),
  carrier: carrierId.nullable().optional().describe('321, carrier_b, or null for the system default'),
  description: z.string().max(1000).optional().describe('Description, at most 1000 characters'),
  price: z
    .number()
    .min(0, 'price must not be negative')
    .max(MAX_PLAN_PRICE, `price must be at most ${MAX_PLAN_PRICE}`)
    .optional()
    .describe(`Price, from 0 to ${MAX_PLAN_PRICE}`),
  wfc: z.boolean().optional().describe('Wi-Fi Calling plan'),
};
