// Kept for test files outside the test kit's part of the tree (security), which import from
// here: both-surface helpers live in test/support/surfaces.ts, lines in test/support/lines.ts.

export { freshSim, seedLine, type SeededLine } from '../../support/lines.js';
export { asRestBody, expectBadInput, expectSameOutcome, graphqlMutation, RESULT_FIELDS, snakeInput } from '../../support/surfaces.js';
