// Activation calls for the tests: a valid REST activation body (a fresh sandbox ICCID each
// time) and the GraphQL twin of a REST activation.

import { expect } from 'vitest';
import { eventually } from '../../support/eventually.js';
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

/** One entry of a bulk activation job's results, as the tests read them. */
export interface BulkEntry {
  sim: string;
  status: string;
  transactionId: string;
  mdn: string | null;
}

/** Starts a bulk activation job of `items` (REST bodies) and waits until it has completed; answers its entries. */
export async function runBulkJob(
  gateway: TestGateway,
  token: string,
  items: Record<string, unknown>[],
): Promise<BulkEntry[]> {
  const started = await gateway.graphql<{ startBulkActivation: { id: string } }>(
    'mutation ($input: StartBulkActivationInput!) { startBulkActivation(input: $input) { id } }',
    { token, variables: { input: { activations: items.map(camelInput) } } },
  );
  expect(started.errors).toBeUndefined();
  const jobId = started.data!.startBulkActivation.id;
  let entries: BulkEntry[] = [];
  const done = await eventually(async () => {
    const view = await gateway.graphql<{ bulkActivation: { status: string; results: BulkEntry[] } }>(
      'query ($id: String!) { bulkActivation(id: $id, first: 100) { status results { sim status transactionId mdn } } }',
      { token, variables: { id: jobId } },
    );
    entries = view.data?.bulkActivation.results ?? [];
    return view.data?.bulkActivation.status === 'COMPLETED';
  }, 60_000);
  expect(done).toBe(true);
  return entries;
}
