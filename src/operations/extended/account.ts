// GET /sim/account/{mdn}: the multi-line account a line belongs to (the parent line first).

import { z } from 'zod';
import { defineOperation } from '../define.js';
import { mdn } from '../schemas/fields.js';
import { answered, refused } from '../../pipeline/envelopes.js';
import { visibleLines } from '../../pipeline/line-ownership.js';
import { operationStatus } from '../schemas/envelope.js';
import { resultMessage } from './common.js';

const accountLine = z
  .object({
    mdn: z.string().describe('Subscriber number'),
    sim: z.string().describe('SIM (ICCID)'),
    status: z.string().describe('Subscriber status, e.g. ACTIVE, SUSPENDED'),
    label: z.string().nullable().describe('The line label; null when none was set'),
  })
  .meta({ id: 'AccountLine', description: 'One line of a multi-line account' });

export const accountResult = z
  .object({
    status: operationStatus,
    mdn: z.string().describe('The line asked about'),
    accountId: z
      .string()
      .optional()
      .describe('Carrier account id (the parent line’s account for a child line); use it with poolUsage'),
    lines: z
      .array(accountLine)
      .optional()
      .describe('The lines of the account the caller may act on: the parent line followed by its child lines'),
    message: resultMessage,
  })
  .meta({ id: 'AccountResult', description: 'Multi-line account information of a line' });

export const account = defineOperation({
  name: 'account',
  kind: 'query',
  description:
    'Multi-line account information of a line: account id and the lines of the account the caller may act on (carrier 321 only; 501 elsewhere)',
  rest: { method: 'GET', path: '/sim/account/{mdn}' },
  input: z.object({ mdn }),
  output: accountResult,
  rateLimit: { max: 30, window: 'minute' },
  routing: 'line',
  // Not coalesced: the answer lists only the lines this caller may act on.
  extended: true,
  handle: async ({ extended, input, request, user }) => {
    const record = await extended.getAccount(input.mdn);
    // The pipeline checked the line asked about; its account's other lines may be other users'.
    const visible = await visibleLines(
      request,
      user,
      record.lines.map((line) => line.mdn),
    );
    const lines = record.lines
      .filter((line) => visible.has(line.mdn))
      .map(({ lineStatus, ...line }) => ({ ...line, status: lineStatus }));
    return answered({ mdn: record.mdn, accountId: record.accountId, lines });
  },
  onRejection: (rejection, { input }) => refused(rejection, { mdn: input.mdn }),
});
