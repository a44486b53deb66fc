// Helpers of the recovery tests: sandbox fault control, a second gateway on the same sandbox
// carriers, and a transaction row written exactly as the pipeline writes it at reservation.

import type { ActivateRequest, CarrierId } from '../../src/carriers/types.js';
import type { TestGateway } from '../support/gateway.js';
import { freshSim } from '../support/lines.js';

export async function setFaults(
  gateway: TestGateway,
  carrier: CarrierId,
  faults: Record<string, number>,
): Promise<void> {
  const response = await fetch(`${gateway.sandboxes.urls[carrier]}/_sandbox/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(faults),
  });
  if (response.status !== 200) throw new Error(`sandbox faults: ${response.status}`);
}

/** Environment for another gateway that talks to `gateway`'s in-process sandbox carriers. */
export function sandboxEnv(gateway: TestGateway): Record<string, string> {
  return {
    CARRIER_321_URL: gateway.sandboxes.urls['321'],
    CARRIER_321_API_KEY: 'sandbox-321-key',
    CARRIER_B_URL: gateway.sandboxes.urls.carrier_b,
    CARRIER_B_ACCOUNT_ID: 'sandbox-b-account',
    CARRIER_B_API_SECRET: 'sandbox-b-secret',
  };
}

/**
 * A `pending` activation row as the pipeline reserves it (validated input included), made
 * `minutesAgo` minutes ago; answers the carrier request the handler sends for it.
 */
export async function pendingActivation(
  gateway: TestGateway,
  userId: string,
  id: string,
  planId: string,
  options: { minutesAgo: number; status?: 'pending' | 'unknown'; carrier?: CarrierId; sim?: string },
): Promise<{ sim: string; carrierRequest: Omit<ActivateRequest, 'transactionId'> }> {
  const sim = options.sim ?? freshSim();
  const input = {
    sim,
    planId,
    zipCode: '30301',
    address1: '1 Main St',
    city: 'Atlanta',
    state: 'GA',
    isEsim: 'N',
    language: 'ENGL',
    transactionId: id,
  };
  const createdAt = new Date(Date.now() - options.minutesAgo * 60_000);
  await gateway.app.services.db.transaction.create({
    data: {
      id,
      userId,
      operation: 'activateSim',
      carrier: options.carrier ?? '321',
      sim,
      status: options.status ?? 'pending',
      request: JSON.stringify(input),
      createdAt,
    },
  });
  const plan = await gateway.app.services.directory.plan(planId);
  return {
    sim,
    carrierRequest: {
      sim,
      carrierPlanId: plan!.carrierPlanId,
      zipCode: '30301',
      address: { address1: '1 Main St', city: 'Atlanta', state: 'GA', zipCode: '30301' },
      isEsim: false,
      language: 'ENGL',
    },
  };
}
