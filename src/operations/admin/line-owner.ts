// `assignLineOwner` (superuser only, GraphQL): gives a line to a user, or to nobody, e.g. the
// lines that existed before the gateway. The spec has no REST path for it.

import { z } from 'zod';
import { assignLineOwner as assign, previewLineOwner } from '../../lines/assign-owner.js';
import { defineOperation } from '../define.js';
import { carrierId, userName } from '../management/schemas.js';
import { mdn } from '../schemas/fields.js';

export const lineOwnership = z
  .object({
    mdn: z.string().describe('Subscriber number (MDN)'),
    sim: z.string().describe('SIM (ICCID) of the line, as last seen by this gateway'),
    carrier: carrierId.describe('Carrier the line lives on'),
    status: z.string().describe('Line status as last seen by this gateway'),
    owner: z
      .string()
      .nullable()
      .describe('Name of the user the line now belongs to; null when nobody owns it (every user may act on it)'),
  })
  .meta({ id: 'LineOwnership', description: 'A line and its owner after an assignment' });

const assignLineOwnerInput = z.object({
  mdn,
  // GraphQL reads an explicit null as absent: both make the line unowned.
  user: userName
    .optional()
    .describe('The user the line is given to; absent (or null) makes the line unowned: every user may act on it'),
  carrier: carrierId
    .optional()
    .describe(
      'Where to look for a line this gateway has not seen yet (default: ask every enabled carrier); must match the carrier of a known line',
    ),
});

export const assignLineOwner = defineOperation({
  name: 'assignLineOwner',
  kind: 'mutation',
  description:
    'Gives a line to a user, or to nobody when `user` is absent (superuser only): only its owner (and superusers) may then act on it. A line this gateway has not seen is looked up at the carriers first; an MDN no carrier knows is NOT_FOUND',
  input: assignLineOwnerInput,
  output: lineOwnership,
  superuserOnly: true,
  routing: 'none',
  // It may ask the carriers for a line's service record.
  usesCarriers: true,
  // Dry run: the user, the line (looked up read-only at the carriers when this gateway has not
  // seen it) and the carrier named, refused as the call would be; nothing recorded.
  predict: async ({ services, input, checks }) => {
    const { known, ...line } = await previewLineOwner(
      { ...services, carriers: async () => services.carriers },
      { ...input, user: input.user ?? null },
    );
    checks.passed('user', input.user ? 'The user exists' : 'The line would be nobody\u2019s');
    checks.passed('line', known ? 'This gateway knows the line' : `Carrier ${line.carrier} has the line (a read)`);
    return line;
  },
  handle: async ({ services, input }) => ({
    status: 200,
    body: await assign(
      { ...services, carriers: async () => services.carriers },
      { ...input, user: input.user ?? null },
    ),
  }),
});
