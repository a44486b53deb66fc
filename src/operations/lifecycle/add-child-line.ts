// POST /sim/line/add/: adds a child line to a parent line's shared (family) plan.

import { defineOperation } from '../define.js';
import { performed } from '../../pipeline/envelopes.js';
import { operationResult } from '../schemas/envelope.js';
import { childLineInput } from './child-line-fields.js';

export const addChildLine = defineOperation({
  name: 'addChildLine',
  kind: 'mutation',
  description:
    "Adds a child line to the shared (family) plan of a parent line; both must be active. The answer's `mdn` is the parent number",
  rest: { method: 'POST', path: '/sim/line/add/' },
  input: childLineInput,
  output: operationResult,
  rateLimit: { max: 20, window: 'minute' },
  routing: 'line',
  lineField: 'parentMdn',
  ownedLines: ['parentMdn', 'childMdn'],
  ownedSims: ['parentSim', 'childSim'],
  transactionPrefix: 'ADD_LINE_',
  event: { type: 'line.child_line_added', data: (input) => ({ childMdn: input.childMdn }) },
  handle: async ({ carrier, input, transactionId: id }) => {
    await carrier.addChildLine({ ...input, transactionId: id });
    return performed(id, { mdn: input.parentMdn });
  },
});
