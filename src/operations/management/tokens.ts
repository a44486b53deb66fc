// Superuser issue and revocation of bearer tokens.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { capped, matching } from '../schemas/fields.js';
import { userName } from './schemas.js';

const issuedToken = z
  .object({
    token: z.string().describe('The bearer token; shown once'),
    id: z.string().describe('Token id, for revocation'),
    expiresAt: z.string().describe('ISO 8601 expiry'),
  })
  .meta({ id: 'IssuedToken', description: 'A newly issued bearer token' });

export const issueToken = defineOperation({
  name: 'issueToken',
  kind: 'mutation',
  description: 'Issues a bearer token for a user (superuser only)',
  input: z.object({
    user: userName.describe('User name'),
    ttl: matching(/^\d+[smhdw]$/, 16, 'ttl must look like 30m, 12h, 30d or 2w')
      .optional()
      .describe('Lifetime, e.g. 12h or 30d (default TOKEN_TTL)'),
  }),
  output: issuedToken,
  superuserOnly: true,
  routing: 'none',
  handle: async ({ services, input }) => {
    const issued = await services.tokens.issue(
      await services.directory.userByName(input.user),
      input.ttl ?? services.config.TOKEN_TTL,
    );
    return { status: 200, body: { ...issued, expiresAt: issued.expiresAt.toISOString() } };
  },
});

export const revokeToken = defineOperation({
  name: 'revokeToken',
  kind: 'mutation',
  description: 'Revokes a token by its id or by the token itself (superuser only)',
  // A token id is a UUID; a token this gateway signs is a few hundred characters.
  input: z.object({ token: capped('token', 4096).min(1).describe('Token id or the token, at most 4096 characters') }),
  output: z
    .object({ id: z.string().describe('Id of the revoked token') })
    .meta({ id: 'RevokedToken', description: 'A revoked token' }),
  superuserOnly: true,
  routing: 'none',
  handle: async ({ services, input }) => {
    const id = await services.tokens.revoke(input.token);
    return { status: 200, body: { id } };
  },
});
