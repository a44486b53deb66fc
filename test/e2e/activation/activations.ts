// Activation calls for the tests: a valid REST activation body (a fresh sandbox ICCID each
// time) and the GraphQL twin of a REST activation.

import type { TestGateway } from '../../support/gateway.js';
import { freshSim } from '../../support/lines.js';
import { camelInput, graphqlMutation } from '../../support/surfaces.js';

/** A REST activation body (snake_case) that succeeds on the sandbox; `overrides` replace or add members. */
export function activationBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    sim: freshSim(),
    plan_id: 'BASIC',
    zip_code: '30301',
    address1: '1 Main St',
    city: 'Atlanta',
    state: 'GA',
    ...overrides,
  };
}

/** The activation result's members (OperationResult without the other operations' newMdn and purchaseId). */
export const ENVELOPE_FIELDS = 'status mdn sim customerId transactionId message warning wfcStatus';

/** The GraphQL twin of a REST activation with `body`. */
export function activateOnGraphQL(gateway: TestGateway, token: string, body: Record<string, unknown>) {
  return graphqlMutation(gateway, 'activateSim', camelInput(body), token, ENVELOPE_FIELDS);
}
