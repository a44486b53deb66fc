// `lineHistory(mdn, first, after)`, GET /sim/history/{mdn} and the `history` field of `Line`:
// what was done to a line through the gateway, newest first, page by page. Who may read it is
// who may act on the line (src/pipeline/line-ownership.ts: another user's line is refused the
// same way), and of its entries each caller sees:
// - a superuser, or anyone when `line_ownership` is off (one team): every entry;
// - the line's owner: their own and superusers' (support acting on their line);
// - anyone else (a line with no owner, or one the gateway has not seen): only their own.
// So a number that changed hands never shows its previous holder's requests to the new one.

import { defineOperation } from '../define.js';
import type { Services } from '../../pipeline/services.js';
import type { UserRecord } from '../../directory/types.js';
import type { RequestContext } from '../../pipeline/request-context.js';
import { assertOwnHome, ownershipRule } from '../../pipeline/line-ownership.js';
import { decodeCursor } from './cursor.js';
import { readLineHistory } from './read.js';
import { DEFAULT_PAGE, historyInput, lineHistoryResult } from './schemas.js';

/** Whose entries `user` sees on the line; null: everyone's. Refuses another user's line. */
async function visibleUsers(
  services: Services,
  request: RequestContext,
  user: UserRecord,
  mdn: string,
): Promise<readonly string[] | null> {
  const rule = await ownershipRule(request, user);
  if (!rule) return null;
  const home = await request.lineHomes.load(mdn);
  assertOwnHome(home, user, 'line', mdn, rule);
  if (home?.ownerId !== user.id) return [user.id];
  const superusers = await services.db.user.findMany({ where: { superuser: true }, select: { id: true } });
  return [user.id, ...superusers.map((superuser) => superuser.id)];
}

export const lineHistory = defineOperation({
  name: 'lineHistory',
  kind: 'query',
  description:
    'What was done to a line through the gateway, newest first: each transaction with who made it, its outcome and the line event its success wrote, and the line events no transaction of this line carries (the new number of an MDN swap). Cursor pagination (`first`, `after`); another user’s line is refused as its other operations are',
  rest: { method: 'GET', path: '/sim/history/{mdn}', query: ['first', 'after'] },
  input: historyInput,
  output: lineHistoryResult,
  rateLimit: { max: 60, window: 'minute' },
  routing: 'none',
  handle: async ({ services, request, user, input }) => {
    const userIds = await visibleUsers(services, request, user, input.mdn);
    const body = await readLineHistory(services.db, {
      mdn: input.mdn,
      first: input.first ?? DEFAULT_PAGE,
      after: input.after === undefined ? undefined : decodeCursor(input.after),
      userIds,
    });
    return { status: 200, body };
  },
});
