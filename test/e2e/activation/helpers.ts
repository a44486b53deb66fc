// Shared pieces of the activation tests: fresh sandbox ICCIDs, a valid activation body, the
// plans the tests authorize, and the GraphQL twin of a REST activation.

import { freshSim } from '../../support/lines.js';
import type { TestGateway } from '../../support/gateway.js';

export { freshSim } from '../../support/lines.js';

/** A REST activation body (snake_case) that succeeds on the sandbox; `overrides` replace or add members. */
export function activationBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { sim: freshSim(), plan_id: 'BASIC', zip_code: '30301', address1: '1 Main St', city: 'Atlanta', state: 'GA', ...overrides };
}

/** The same body in GraphQL's camelCase. */
export function camel(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).map(([key, value]) => [key.replace(/_([a-z0-9])/g, (_m, letter: string) => letter.toUpperCase()), value]));
}

export const ENVELOPE_FIELDS = 'status mdn sim customerId transactionId message warning wfcStatus';

export async function activateOnGraphQL(gateway: TestGateway, token: string, body: Record<string, unknown>) {
  return gateway.graphql<{ activateSim: Record<string, unknown> }>(
    `mutation ($input: ActivateSimInput!) { activateSim(input: $input) { ${ENVELOPE_FIELDS} } }`,
    { token, variables: { input: camel(body) } },
  );
}

/**
 * Plans the activation tests use: BASIC/PREMIUM (no carrier), BPLAN (carrier_b), A321 (321),
 * WFC (a Wi-Fi Calling plan), BAD (a carrier plan code the sandbox calls invalid).
 */
export async function createPlans(gateway: TestGateway): Promise<void> {
  await gateway.plan({ planId: 'BASIC', name: 'Basic', carrierPlanId: 'BASIC1GB' });
  await gateway.plan({ planId: 'PREMIUM', name: 'Premium', carrierPlanId: 'UNL10GB' });
  await gateway.plan({ planId: 'BPLAN', name: 'On carrier_b', carrierPlanId: 'PLUS5GB', carrier: 'carrier_b' });
  await gateway.plan({ planId: 'A321', name: 'On 321', carrierPlanId: 'PLUS5GB', carrier: '321' });
  await gateway.plan({ planId: 'WFC', name: 'With Wi-Fi Calling', carrierPlanId: 'UNLWFC', wfc: true });
  await gateway.plan({ planId: 'BAD', name: 'Retired plan', carrierPlanId: 'INVALID-OLD' });
}

export const ALL_PLANS = ['BASIC', 'PREMIUM', 'BPLAN', 'A321', 'WFC', 'BAD'];
