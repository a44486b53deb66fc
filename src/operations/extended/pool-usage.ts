// GET /sim/pool-usage/{account_id}: the shared data pool of a multi-line account.

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { LineNotOwnedError } from '../../errors/gateway-errors.js';
import { answered, refused } from '../../pipeline/envelopes.js';
import { ownershipRule, visibleLines } from '../../pipeline/line-ownership.js';
import { operationStatus } from '../schemas/envelope.js';
import { accountId, resultMessage } from './common.js';

const poolLineUsage = z
  .object({
    mdn: z.string().describe('Subscriber number'),
    bytesUsed: z.number().describe('Data this line used from the pool, in bytes'),
  })
  .meta({ id: 'PoolLineUsage', description: 'Data use of one line of a shared pool' });

export const poolUsageResult = z
  .object({
    status: operationStatus,
    accountId: z.string().describe('Carrier account id'),
    poolBytes: z
      .number()
      .optional()
      .describe('Data granted to the pool by the active subscriptions of its lines, in bytes'),
    usedBytes: z.number().optional().describe('Data used by all lines of the pool, in bytes'),
    lines: z.array(poolLineUsage).optional().describe('Data use per line'),
    message: resultMessage,
  })
  .meta({ id: 'PoolUsageResult', description: 'Shared data pool usage across the lines of an account' });

export const poolUsage = defineOperation({
  name: 'poolUsage',
  kind: 'query',
  description:
    "Shared data pool usage across the lines of an account (carrier 321 only; 501 elsewhere). Unknown account: (918). A user who owns none of the account's lines is refused (403); `lines` lists only the lines the caller may act on, the totals are the whole pool's",
  rest: { method: 'GET', path: '/sim/pool-usage/{account_id}' },
  input: z.object({ accountId }),
  output: poolUsageResult,
  rateLimit: { max: 30, window: 'minute' },
  routing: 'default',
  // Not coalesced: the answer lists only the lines this caller may act on.
  extended: true,
  handle: async ({ extended, input, request, user }) => {
    const pool = await extended.getPoolUsage(input.accountId);
    const visible = await visibleLines(
      request,
      user,
      pool.lines.map((line) => line.mdn),
    );
    // A pool is shared by its lines: holding one of them shows the pool, not the others' lines.
    if (pool.lines.length > 0 && visible.size === 0)
      throw new LineNotOwnedError('account', input.accountId, (await ownershipRule(request, user)) ?? undefined);
    return answered({ ...pool, lines: pool.lines.filter((line) => visible.has(line.mdn)) });
  },
  onRejection: (rejection, { input }) => refused(rejection, { accountId: input.accountId }),
});
