// `me`: the calling user and the plans they may use.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { carrierId, plan } from '../management/schemas.js';

export const me = defineOperation({
  name: 'me',
  kind: 'query',
  description: 'The calling user and their authorized plans',
  input: z.object({}),
  output: z
    .object({
      id: z.string().describe('User id'),
      name: z.string().describe('User name'),
      superuser: z.boolean().describe('May call superuser-only operations'),
      carrierPreference: carrierId.nullable().describe('Fallback carrier when a plan has none'),
      authorizedPlans: z.array(plan).describe('Plans this user may activate, change to, purchase or reconnect on'),
    })
    .meta({ id: 'Me', description: 'The calling user' }),
  routing: 'none',
  handle: async ({ services, user }) => ({
    status: 200,
    body: { id: user.id, name: user.name, superuser: user.superuser, carrierPreference: user.carrierPreference, authorizedPlans: await services.directory.authorizedPlans(user.id) },
  }),
});
