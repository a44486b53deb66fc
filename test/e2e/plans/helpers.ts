// Shared pieces of the plan tests: lines seeded straight on a sandbox carrier (and recorded in
// the gateway's line registry, as an activation through the gateway would), the plans the
// tests authorize, and a GraphQL mutation caller.

import type { TestGateway } from '../../support/gateway.js';

export { disconnectSeeded as disconnectLine, seedLine, type SeededLine } from '../../support/lines.js';

/**
 * BASIC (BASIC1GB), PREMIUM (UNL10GB), TOPUP (TOPUP1GB), INTL (INTL100), WFC (a Wi-Fi Calling
 * plan), BAD (a code the sandbox calls invalid), and carrier_b's BTOPUP and BWFC.
 */
export async function createPlans(gateway: TestGateway): Promise<void> {
  await gateway.plan({ planId: 'BASIC', name: 'Basic', carrierPlanId: 'BASIC1GB' });
  await gateway.plan({ planId: 'PREMIUM', name: 'Premium', carrierPlanId: 'UNL10GB' });
  await gateway.plan({ planId: 'TOPUP', name: 'Top-up', carrierPlanId: 'TOPUP1GB' });
  await gateway.plan({ planId: 'INTL', name: 'International', carrierPlanId: 'INTL100' });
  await gateway.plan({ planId: 'WFC', name: 'With Wi-Fi Calling', carrierPlanId: 'UNLWFC', wfc: true });
  await gateway.plan({ planId: 'BAD', name: 'Retired', carrierPlanId: 'INVALID-OLD' });
  await gateway.plan({ planId: 'BTOPUP', name: 'Top-up on carrier_b', carrierPlanId: 'TOPUP1GB', carrier: 'carrier_b' });
  await gateway.plan({ planId: 'BWFC', name: 'Wi-Fi Calling on carrier_b', carrierPlanId: 'UNLWFC', carrier: 'carrier_b', wfc: true });
}

export const ALL_PLANS = ['BASIC', 'PREMIUM', 'TOPUP', 'INTL', 'WFC', 'BAD', 'BTOPUP', 'BWFC'];

export const ENVELOPE_FIELDS = 'status mdn sim purchaseId transactionId message warning wfcStatus';

/** The GraphQL twin of a REST call: `mutation { <name>(input: $input) { envelope } }`. */
export function mutate(gateway: TestGateway, name: string, token: string, input: Record<string, unknown>) {
  const type = `${name.charAt(0).toUpperCase()}${name.slice(1)}Input`;
  return gateway.graphql<Record<string, Record<string, unknown>>>(`mutation ($input: ${type}!) { ${name}(input: $input) { ${ENVELOPE_FIELDS} } }`, {
    token,
    variables: { input },
  });
}

/** The 422 detail list of a REST answer. */
export type Detail = { detail: { loc: (string | number)[]; type: string; msg: string }[] };
