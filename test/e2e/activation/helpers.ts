// Kept for test files outside the test kit's part of the tree (security, recovery), which
// import from here: activation calls live in ./activations.ts, plans in test/support/plans.ts.

export { activateOnGraphQL, activationBody, ENVELOPE_FIELDS } from './activations.js';
export { ALL_PLANS, createPlans } from '../../support/plans.js';
export { camelInput as camel } from '../../support/surfaces.js';
