// POST /sim/line/add/: adds a child line to a parent line's shared (family) plan.

import { defineOperation } from '../define.js';
import { performed } from '../../pipeline/envelopes.js';
import { operationResult } from '../schemas/envelope.js';
import { childLineInput } from './child-line-fields.js';
import { predictLine, predictLineSim } from '../predictions.js';

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
  // Dry run: both lines ACTIVE (915) with their SIMs (918), two lines (GENS-0010); the
  // family relations the carrier keeps are not in any read of the contract.
  predict: async (context) => {
    const { checks, input } = context;
    for (const [role, mdn, sim] of [
      ['parent', input.parentMdn, input.parentSim],
      ['child', input.childMdn, input.childSim],
    ] as const) {
      const line = await predictLine(context, mdn);
      if (line.lineStatus !== 'ACTIVE')
        checks.refuse('lineStatus', '915', `ESN/MDN is inactive: the ${role} line is ${line.lineStatus}`);
      predictLineSim(context, line, sim, '918', 'Subscriber with given resource does not exist');
    }
    if (input.parentMdn === input.childMdn)
      checks.refuse('family', 'GENS-0010', 'Duplicate products: a line cannot be its own child line');
    checks.cannotPredict(
      'Whether either line already belongs to a family, as parent or child (GENS-0010): no read of the contract shows it',
    );
  },
  handle: async ({ carrier, input, transactionId: id }) => {
    await carrier.addChildLine({ ...input, transactionId: id });
    return performed(id, { mdn: input.parentMdn });
  },
});
