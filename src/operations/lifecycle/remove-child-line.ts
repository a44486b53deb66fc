// POST /sim/line/remove/: takes a child line off a parent line's shared (family) plan.

import { defineOperation } from '../define.js';
import { performed } from '../../pipeline/envelopes.js';
import { operationResult } from '../schemas/envelope.js';
import { childLineInput } from './child-line-fields.js';

export const removeChildLine = defineOperation({
  name: 'removeChildLine',
  kind: 'mutation',
  description:
    "Removes a child line from the shared (family) plan of its parent line. The answer's `mdn` is the parent number",
  rest: { method: 'POST', path: '/sim/line/remove/' },
  input: childLineInput,
  output: operationResult,
  rateLimit: { max: 20, window: 'minute' },
  routing: 'line',
  lineField: 'parentMdn',
  ownedLines: ['parentMdn', 'childMdn'],
  ownedSims: ['parentSim', 'childSim'],
  transactionPrefix: 'REM_LINE_',
  event: { type: 'line.child_line_removed', data: (input) => ({ childMdn: input.childMdn }) },
  handle: async ({ carrier, input, transactionId: id }) => {
    await carrier.removeChildLine({ ...input, transactionId: id });
    return performed(id, { mdn: input.parentMdn });
  },
});
