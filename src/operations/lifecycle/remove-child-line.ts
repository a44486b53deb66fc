// POST /sim/line/remove/: takes a child line off a parent line's shared (family) plan.

import { defineOperation } from '../define.js';
import { performed } from '../../pipeline/envelopes.js';
import { operationResult } from '../schemas/envelope.js';
import { childLineInput } from './child-line-fields.js';
import { predictLine, predictLineSim } from '../predictions.js';

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
  // Dry run: both lines (909, 918, 915) and their SIMs (918); whether the child is the parent's
  // (918) is not in any read of the contract.
  predict: async (context) => {
    const { checks, input } = context;
    const parent = await predictLine(context, input.parentMdn);
    predictLineSim(context, parent, input.parentSim, '918', 'Subscriber with given resource does not exist');
    const child = await predictLine(context, input.childMdn);
    checks.cannotPredict(
      'Whether the child line is a child line of this parent (918): no read of the contract shows it',
    );
    predictLineSim(context, child, input.childSim, '918', 'Subscriber with given resource does not exist');
  },
  handle: async ({ carrier, input, transactionId: id }) => {
    await carrier.removeChildLine({ ...input, transactionId: id });
    return performed(id, { mdn: input.parentMdn });
  },
});
