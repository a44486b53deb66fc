// The plans the end-to-end tests authorize, one catalog for every folder: carrier-neutral
// plans on the sandbox's codes, plans bound to a carrier, Wi-Fi Calling plans and a code the
// sandbox calls invalid.

import type { PlanInput } from '../../src/directory/types.js';
import type { TestGateway } from './gateway.js';

export const TEST_PLANS: readonly PlanInput[] = [
  { planId: 'BASIC', name: 'Basic', carrierPlanId: 'BASIC1GB' },
  { planId: 'PREMIUM', name: 'Premium', carrierPlanId: 'UNL10GB' },
  { planId: 'TOPUP', name: 'Top-up', carrierPlanId: 'TOPUP1GB' },
  { planId: 'INTL', name: 'International', carrierPlanId: 'INTL100' },
  { planId: 'WFC', name: 'With Wi-Fi Calling', carrierPlanId: 'UNLWFC', wfc: true },
  // A retired carrier code: the sandbox refuses it as invalid.
  { planId: 'BAD', name: 'Retired plan', carrierPlanId: 'INVALID-OLD' },
  { planId: 'A321', name: 'On 321', carrierPlanId: 'PLUS5GB', carrier: '321' },
  { planId: 'BPLAN', name: 'On carrier_b', carrierPlanId: 'PLUS5GB', carrier: 'carrier_b' },
  { planId: 'BTOPUP', name: 'Top-up on carrier_b', carrierPlanId: 'TOPUP1GB', carrier: 'carrier_b' },
  { planId: 'BWFC', name: 'Wi-Fi Calling on carrier_b', carrierPlanId: 'UNLWFC', carrier: 'carrier_b', wfc: true },
];

/** Every plan id of the catalog (for `gateway.user({ plans: ALL_PLANS })`). */
export const ALL_PLANS = TEST_PLANS.map((plan) => plan.planId);

/** Creates the catalog's plans (those missing). */
export async function createPlans(gateway: TestGateway): Promise<void> {
  for (const plan of TEST_PLANS) await gateway.plan(plan);
}
