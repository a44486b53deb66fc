// Superuser issue and revocation of bearer tokens.

import { z } from 'zod';
import { parseDuration } from '../../auth/tokens.js';
import { DirectoryError } from '../../directory/types.js';
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
  // Dry run: the user exists and is active, and the lifetime is valid; no token is made (the
  // answer's token and id are empty), its expiry is as it would be now.
  predict: async ({ services, input, checks }) => {
    const user = await services.directory.userByName(input.user);
    if (!user.active) throw new DirectoryError('conflict', `User ${JSON.stringify(user.name)} is deactivated`);
    checks.passed('user', 'The user exists and is active');
    const ttl = input.ttl ?? services.config.TOKEN_TTL;
    const expiresAt = new Date(Date.now() + parseDuration(ttl));
    checks.passed('ttl', `A lifetime of ${ttl}`);
    return { token: '', id: '', expiresAt: expiresAt.toISOString() };
  },
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
  // Dry run: the token exists (else the call's refusal); one revoked already stays so.
  predict: async ({ services, input, checks }) => {
    const { id, alreadyRevoked } = await services.tokens.revocation(input.token);
    checks.passed(
      'token',
      alreadyRevoked ? 'The token is revoked already: the call changes nothing' : 'The token is live',
    );
    return { id };
  },
  handle: async ({ services, input }) => {
    const id = await services.tokens.revoke(input.token);
    return { status: 200, body: { id } };
  },
});
