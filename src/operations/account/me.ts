// `me`: the calling user, the plans they may use and the lines they own.

import { z } from 'zod';
import { MAX_OWNED_LINES } from '../../lines/registry.js';
import { onDemand } from '../../pipeline/on-demand.js';
import { defineOperation } from '../define.js';
import { carrierId, plan } from '../management/schemas.js';

export const ownedLine = z
  .object({
    mdn: z.string().describe('Subscriber number (MDN), 10 digits'),
    carrier: carrierId.describe('Carrier the line lives on, as last seen by this gateway'),
    status: z.string().describe('Line status as last seen by this gateway (ACTIVE, SUSPENDED, DISCONNECTED…)'),
  })
  .meta({
    id: 'OwnedLine',
    description: 'A line the user owns: activated by them, or assigned to them by a superuser',
  });

export const me = defineOperation({
  name: 'me',
  kind: 'query',
  description: 'The calling user, their authorized plans and the lines they own',
  input: z.object({}),
  output: z
    .object({
      id: z.string().describe('User id'),
      name: z.string().describe('User name'),
      superuser: z.boolean().describe('May call superuser-only operations'),
      carrierPreference: carrierId.nullable().describe('Fallback carrier when a plan has none'),
      authorizedPlans: z.array(plan).describe('Plans this user may activate, change to, purchase or reconnect on'),
      lines: z
        .array(ownedLine)
        .describe(
          `The lines this user owns, by MDN, at most the first ${MAX_OWNED_LINES} (lineCount tells how many in all)`,
        ),
      lineCount: z.number().int().describe('How many lines this user owns in all'),
    })
    .meta({ id: 'Me', description: 'The calling user' }),
  routing: 'none',
  // GraphQL-only (no REST route), so the listings load only when their fields are selected.
  handle: async ({ services, user }) => {
    // One listing for both `lines` and `lineCount`, read by whichever is selected first.
    let owned: ReturnType<typeof services.lines.ownedBy> | undefined;
    const ownedLines = () => (owned ??= services.lines.ownedBy(user.id));
    return {
      status: 200,
      body: {
        id: user.id,
        name: user.name,
        superuser: user.superuser,
        carrierPreference: user.carrierPreference,
        authorizedPlans: onDemand(() => services.directory.authorizedPlans(user.id)),
        lines: onDemand(async () =>
          (await ownedLines()).lines.map(({ mdn, carrier, status }) => ({ mdn, carrier, status })),
        ),
        lineCount: onDemand(async () => (await ownedLines()).total),
      },
    };
  },
});
